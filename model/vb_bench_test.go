package model

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// BenchmarkVBPass measures the cost of one pass of the variational
// Dawid-Skene fits (the E-step over every object, with DA's per-object
// inner loop, and the closed-form updates), as CPU nanoseconds per label
// and pass of whole fits on data simulated from DA-DS, so that changes to
// the pass and changes to the number of passes are told apart. K = 2, 3
// and 4 have updates of their own (object2, object3, object4), larger K
// the generic loop:
//
//	go test ./model -run '^$' -bench 'VBPass/vb-da-ds/K=2' -benchtime 1x -count 3
func BenchmarkVBPass(b *testing.B) {
	for _, name := range []string{"vb-la-ds", "vb-da-ds", "vb-hda-ds"} {
		m := mustByName(b, name) // package vb's Bayes
		for _, k := range []int{2, 3, 4, 10} {
			n := 1_000_000
			if k > 2 {
				n = 200_000
			}
			b.Run(fmt.Sprintf("%s/K=%d/N=%s", m.Name(), k, benchdata.Label(n)), func(b *testing.B) {
				d, err := benchdata.Get(n, k, noise.DS{}, latent.DA{})
				if err != nil {
					b.Fatal(err)
				}
				cpu0, ok0 := benchdata.CPUTime()
				r := benchFits(b, d, m)
				cpu1, ok1 := benchdata.CPUTime()
				if ok0 && ok1 {
					passes := float64(b.N) * float64(r.Iterations) * float64(d.NumLabels())
					b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/passes, "cpu-ns/label/pass")
				}
			})
		}
	}
}

// BenchmarkVBStop measures where the default model's stopping rule leaves
// a fit: on each shipped data set and on 10⁶ labels simulated from DA-DS
// (K = 2), it fits vb-da-ds with the default rule and again with
// FunctionTol 10⁻¹⁴ and ParamTol 10⁻¹⁰, and reports both pass counts
// (passes, tight-passes), how much higher the tight fit's evidence lower
// bound is (bound-gain, nats) and the largest difference of an output
// probability between the two (max-move, and its root mean square,
// rms-move):
//
//	go test ./model -run '^$' -bench 'VBStop' -benchtime 1x
//
// A large max-move with a small bound-gain is a flat ridge that the
// default rule stops on; the tight fit reaches a fixed point of the map,
// but not necessarily the best one: the bound has several local maxima.
func BenchmarkVBStop(b *testing.B) {
	type set struct {
		name string
		load func() (*data.Dataset, error)
	}
	sets := []set{{"N=1e6", func() (*data.Dataset, error) { return benchdata.Get(1_000_000, 2, noise.DS{}, latent.DA{}) }}}
	for _, name := range []string{"rte", "temp", "duchenne", "websearch", "adult", "trec2010"} {
		sets = append(sets, set{name, func() (*data.Dataset, error) {
			d, _, err := datasets.Load(name)
			return d, err
		}})
	}
	m := mustByName(b, "vb-da-ds") // package vb's Bayes
	for _, s := range sets {
		b.Run(s.name, func(b *testing.B) {
			d, err := s.load()
			if err != nil {
				b.Fatal(err)
			}
			var def, tight *Result
			for b.Loop() {
				if def, err = m.Fit(context.Background(), d, nil); err != nil {
					b.Fatal(err)
				}
				set := Settings{FunctionTol: 1e-14, ParamTol: 1e-10, MaxIterations: 20000}
				if tight, err = m.Fit(context.Background(), d, &set); err != nil {
					b.Fatal(err)
				}
			}
			if !def.Converged || !tight.Converged {
				b.Fatalf("not converged: default %s, tight %s", def.Status, tight.Status)
			}
			var move, ss float64
			for i, p := range def.Probs {
				move = max(move, math.Abs(p-tight.Probs[i]))
				ss += (p - tight.Probs[i]) * (p - tight.Probs[i])
			}
			b.ReportMetric(float64(def.Iterations), "passes")
			b.ReportMetric(float64(tight.Iterations), "tight-passes")
			b.ReportMetric(tight.LogLikelihood-def.LogLikelihood, "bound-gain")
			b.ReportMetric(move, "max-move")
			b.ReportMetric(math.Sqrt(ss/float64(len(def.Probs))), "rms-move")
		})
	}
}
