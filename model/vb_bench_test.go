package model

import (
	"fmt"
	"testing"

	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// BenchmarkVBPass measures the cost of one pass of the variational
// Dawid-Skene fits (the E-step over every object, with DA's per-object
// inner loop, and the closed-form updates), as CPU nanoseconds per label
// and pass of whole fits on data simulated from DA-DS, so that changes to
// the pass and changes to the number of passes are told apart:
//
//	go test ./model -run '^$' -bench 'VBPass/vb-da-ds/K=2' -benchtime 1x -count 3
func BenchmarkVBPass(b *testing.B) {
	for _, m := range []Bayes{
		{Noise: noise.DS{}, Latent: latent.LA{}},
		{Noise: noise.DS{}, Latent: latent.DA{}},
		{Noise: noise.DS{}, Latent: latent.DA{}, Hierarchical: true},
	} {
		for _, k := range []int{2, 10} {
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
