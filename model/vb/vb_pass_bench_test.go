package vb

import (
	"context"
	"testing"

	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// BenchmarkVBLAFit measures the default's LA fit (vbLA on the table of
// its noise posterior, objects2Table at K = 2 and objectsTable at K = 10,
// and the posterior's Update) on the speed targets' data, 2·10⁶ labels
// from one-coin workers at K = 2 and 2·10⁵ from Dawid-Skene workers at
// K = 10, on one goroutine, in CPU seconds a fit and its passes:
//
//	go test ./model/vb -run '^$' -bench VBLAFit -count 5
func BenchmarkVBLAFit(b *testing.B) {
	for _, c := range []struct {
		name string
		n, k int
		nm   noise.Model
	}{
		{"K=2", 2_000_000, 2, noise.OneCoin{}},
		{"K=10", 200_000, 10, noise.DS{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			d, err := benchdata.Get(c.n, c.k, c.nm, latent.LA{})
			if err != nil {
				b.Fatal(err)
			}
			own := model.Settings{FunctionTol: VBFunctionTol, ParamTol: VBParamTol, Threads: 1}
			set := own.WithDefaults()
			var r *model.Result
			cpu0, _ := benchdata.CPUTime()
			for b.Loop() {
				nv, err := defaultForm().posterior(d)
				if err != nil {
					b.Fatal(err)
				}
				if r, err = vbFit(context.Background(), "vb-ds", d, set, nv, newVBLA(d, nil), vbFresh, nil); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, ok := benchdata.CPUTime(); ok {
				b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			}
			b.ReportMetric(float64(r.Iterations), "iters")
		})
	}
}
