package model_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// BenchmarkDAPrior measures whether an interior maximum speeds up DA-DS's
// EM: on 2·10⁶ labels simulated from DA-DS (400,000 objects, 1000
// workers, 5 labels an object, K = 2), it fits la-ds, da-ds (the paper's
// maximum likelihood, whose maximum lies on the boundary) and DA-DS with
// the pseudo-count prior q_j ~ Dirichlet(α/2, α/2) (latent.Dirichlet with
// fixed α, an interior maximum) for a few α, and reports the passes over
// the labels, the CPU seconds and the mean squared error of the output
// against the true q_j:
//
//	go test ./model -run '^$' -bench 'DAPrior' -benchtime 1x
func BenchmarkDAPrior(b *testing.B) {
	d, truth, err := sim.Simulate(sim.Settings{Tasks: 400000, Workers: 1000, LabelsPerTask: 5, Noise: noise.DS{}, Latent: latent.DA{}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	fits := []struct {
		name string
		m    model.Model
	}{
		{"la-ds", model.Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}}},
		{"da-ds", model.Model{Noise: noise.DS{}, Latent: latent.DA{}}},
	}
	for _, a := range []float64{0.1, 0.5, 1, 2} {
		fits = append(fits, struct {
			name string
			m    model.Model
		}{fmt.Sprintf("da-ds-alpha=%g", a), model.Model{Noise: noise.DS{}, Latent: latent.Dirichlet{Alpha: a}}})
	}
	for _, f := range fits {
		b.Run(f.name, func(b *testing.B) {
			var r *model.Result
			cpu0, ok0 := benchdata.CPUTime()
			for b.Loop() {
				if r, err = f.m.Fit(context.Background(), d, nil); err != nil {
					b.Fatal(err)
				}
			}
			cpu1, ok1 := benchdata.CPUTime()
			b.ReportMetric(float64(r.Evaluations), "passes")
			b.ReportMetric(must(metrics.MSE(r.Probs, truth.Q, d.NumClasses())), "mse")
			if ok0 && ok1 {
				b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			}
		})
	}
}
