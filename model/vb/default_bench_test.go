package vb_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// BenchmarkFitDefault measures whole fits of the default model against
// la-ds, the bar of its speed, on the data of the speed target: 2·10⁶
// labels from one-coin workers at K = 2 and 2·10⁵ labels from Dawid-Skene
// workers at K = 10, one true class per task, 5 labels a task
// (benchdata's layout). It reports the CPU seconds of a fit (cpu-s/op) and
// its passes (iters), with -benchtime 1x and -count for repeats:
//
//	go test ./model/vb -run '^$' -bench 'FitDefault' -benchtime 1x -count 3
func BenchmarkFitDefault(b *testing.B) {
	cases := []struct {
		k, n int
		nm   noise.Model
	}{
		{2, 2_000_000, noise.OneCoin{}},
		{10, 200_000, noise.DS{}},
	}
	for _, c := range cases {
		for _, name := range []string{"la-ds", model.DefaultModel} {
			b.Run(fmt.Sprintf("K=%d/N=%s/%s", c.k, benchdata.Label(c.n), name), func(b *testing.B) {
				d, err := benchdata.Get(c.n, c.k, c.nm, latent.LA{})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				benchFit(b, name, d)
			})
		}
	}
}

// BenchmarkLightCrowdK10 measures whole fits of the default model on a
// crowd of many light workers at K = 10, where the per-worker work of a
// pass (the kinds' evidences, the errors' special functions, the shared
// prior's fixed point) outweighs the labels: 3,000 tasks of two labels
// among 2,000 Dawid-Skene workers (3 labels each), as `consensus simulate
// --model la-ds --classes 10 --objects 3000 --workers 2000
// --labels-per-object 2`. It reports the CPU seconds of a fit (cpu-s/op)
// and its passes (iters):
//
//	go test ./model/vb -run '^$' -bench 'LightCrowdK10' -benchtime 1x -count 3
func BenchmarkLightCrowdK10(b *testing.B) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 3000, Workers: 2000, LabelsPerTask: 2, Classes: 10,
		Noise: noise.DS{}, Latent: latent.LA{}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	benchFit(b, model.DefaultModel, d)
}

// BenchmarkCavityPriorsFit measures whole fits of the default model
// against la-ds on a crowd where the cavity priors run and the fit is
// redone in rounds: K = 2, 10⁵ tasks of 3 labels among 12,000 Dawid-Skene
// workers (25 labels each), 20% spammers, a class prior (0.7, 0.3). It
// reports the CPU seconds of a fit (cpu-s/op) and its passes (iters):
//
//	go test ./model/vb -run '^$' -bench 'CavityPriorsFit' -benchtime 1x
func BenchmarkCavityPriorsFit(b *testing.B) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 100_000, Workers: 12_000, LabelsPerTask: 3, Classes: 2,
		ClassPrior: []float64{0.7, 0.3}, Spammers: 0.2, Noise: noise.DS{}, Latent: latent.LA{}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"la-ds", model.DefaultModel} {
		b.Run(name, func(b *testing.B) { benchFit(b, name, d) })
	}
}

// BenchmarkPairsFit measures whole fits of the default model against
// vb-la-ds on the sparse-many regime at 2·10⁵ tasks of two labels (K = 10,
// 300 workers of activity 1/rank), where the fit is redone in rounds with
// the errors' precisions from drawn counts (sampledPrecisions) after the
// fit with the learned pattern (pairsFallback). It reports the CPU seconds
// of a fit (cpu-s/op) and its passes (iters):
//
//	go test ./model/vb -run '^$' -bench 'PairsFit' -benchtime 1x
func BenchmarkPairsFit(b *testing.B) {
	c, err := sim.Regime("sparse-many", 1)
	if err != nil {
		b.Fatal(err)
	}
	c.Tasks = 200_000
	d, _, err := sim.Simulate(c)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"vb-la-ds", model.DefaultModel} {
		b.Run(name, func(b *testing.B) { benchFit(b, name, d) })
	}
}

// BenchmarkNonAscentFits measures whole fits of the default model where
// its passes do not all raise the bound, so that SQUAREM's steps are
// checked by their residual (see vbFit): the many-classes regime, seed 1
// (K = 10, 4 labels a task, the averaged kinds and the errors' pattern
// learned), and the paper's synthetic DA design, seed 3, where the joint
// DA fit of the label distributions holds the shared priors after
// jointLearnPasses passes. With the bound's check alone and the priors
// learned throughout, `consensus fit` took 250 passes and 1.98 CPU-s on
// the first, and 1.6-1.9 CPU-s on the second, whose joint fit ran 1,000
// passes without converging; now 104 passes and 0.9 CPU-s, and 0.26
// (2-core machine). It reports the CPU seconds of a fit (cpu-s/op) and its
// passes (iters):
//
//	go test ./model/vb -run '^$' -bench 'NonAscentFits' -benchtime 1x -count 3
func BenchmarkNonAscentFits(b *testing.B) {
	many, err := sim.Regime("many-classes", 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		set  sim.Settings
	}{
		{"many-classes", many},
		{"da-design-seed-3", sim.Settings{Seed: 3}},
	} {
		d, _, err := sim.Simulate(c.set)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) { benchFit(b, model.DefaultModel, d) })
	}
}

// benchFit fits d by the model called name b.N times and reports the CPU
// seconds of a fit (cpu-s/op) and its passes (iters).
func benchFit(b *testing.B, name string, d *data.Dataset) {
	est, err := model.ByName(name)
	if err != nil {
		b.Fatal(err)
	}
	var r *model.Result
	cpu0, _ := benchdata.CPUTime()
	for b.Loop() {
		if r, err = est.Fit(context.Background(), d, nil); err != nil {
			b.Fatal(err)
		}
	}
	if cpu1, ok := benchdata.CPUTime(); ok {
		b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	}
	b.ReportMetric(float64(r.Iterations), "iters")
}
