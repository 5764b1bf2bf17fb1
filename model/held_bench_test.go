package model

import (
	"context"
	"testing"

	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// BenchmarkHeldWorkers measures fits with every worker held at the
// parameters of a joint fit of the same data (Settings.Start and Fixed, as
// fit --init-workers --fix-workers makes them), on 10⁶ labels simulated
// from DA-DS: the aggregation of new tasks by known workers. It reports the
// passes (evals) besides the time; the joint fits are BenchmarkFit's and
// BenchmarkFitBayes's:
//
//	go test ./model -run '^$' -bench HeldWorkers -benchtime 3x
func BenchmarkHeldWorkers(b *testing.B) {
	d, err := benchdata.Get(1_000_000, 2, noise.DS{}, latent.DA{})
	if err != nil {
		b.Fatal(err)
	}
	for _, est := range []WorkerStarter{
		Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}},
		Model{Noise: noise.DS{}, Latent: latent.DA{}},
		mustByName(b, "vb-da-ds").(WorkerStarter), // package vb's Bayes
	} {
		b.Run(est.Name(), func(b *testing.B) {
			joint, err := est.Fit(context.Background(), d, nil)
			if err != nil {
				b.Fatal(err)
			}
			x := est.Init(d)
			all := make([]int, d.NumWorkers())
			for w := range all {
				if err := est.SetWorker(d, x, w, joint.WorkerValues(w, nil)); err != nil {
					b.Fatal(err)
				}
				all[w] = w
			}
			fixed := FixedWorkers(est, d, x, all)
			var r *Result
			b.ResetTimer()
			cpu0, _ := benchdata.CPUTime()
			for b.Loop() {
				if r, err = est.Fit(context.Background(), d, &Settings{Start: x, Fixed: fixed}); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, ok := benchdata.CPUTime(); ok {
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N)/1e9, "cpu-s/op")
			}
			b.ReportMetric(float64(r.Evaluations), "evals")
			b.ReportMetric(float64(joint.Evaluations), "joint-evals")
		})
	}
}

// mustByName returns the estimator registered under name.
func mustByName(tb testing.TB, name string) Estimator {
	tb.Helper()
	est, err := ByName(name)
	if err != nil {
		tb.Fatal(err)
	}
	return est
}
