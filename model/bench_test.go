package model

import (
	"context"
	"fmt"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// benchModels are the six models of the paper, with the LA prior learned
// for DS only, as in the registry.
func benchModels() []Model {
	return []Model{
		{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}},
		{Noise: noise.DS{}, Latent: latent.DA{}},
		{Noise: noise.GLAD{}, Latent: latent.LA{}},
		{Noise: noise.GLAD{}, Latent: latent.DA{}},
		{Noise: noise.MME{}, Latent: latent.LA{}},
		{Noise: noise.MME{}, Latent: latent.DA{}},
	}
}

// BenchmarkEval measures one evaluation of the log-likelihood and its
// gradient (one pass over the labels) on simulated data of 10⁵ and 10⁶
// labels (10⁷ with CONSENSUS_BENCH_LARGE=1), K = 2, 5 and 20, on one and
// two goroutines. The ns/label metric is the wall time per label per
// evaluation, cpu-ns/label the process CPU time (user + system) per label
// per evaluation, which is less disturbed by other processes on a shared
// machine.
//
//	go test ./model -run '^$' -bench 'Eval/da-ds/K=2' -count 5
func BenchmarkEval(b *testing.B) {
	for _, m := range benchModels() {
		for _, k := range []int{2, 5, 20} {
			for _, n := range benchdata.Sizes() {
				for _, threads := range []int{1, 2} {
					name := fmt.Sprintf("%s/K=%d/N=%s/threads=%d", m.Name(), k, benchdata.Label(n), threads)
					b.Run(name, func(b *testing.B) { benchEval(b, m, k, n, threads) })
				}
			}
		}
	}
}

// BenchmarkEvalCoins is BenchmarkEval for the noise models whose
// probabilities depend on the worker alone (one-coin, two-coin and MACE,
// under LA and DA), on 10⁵ labels and one goroutine, K = 2, 5 and 20:
//
//	go test ./model -run '^$' -bench 'EvalCoins/la-twocoin'
func BenchmarkEvalCoins(b *testing.B) {
	for _, name := range []string{"la-onecoin", "da-onecoin", "la-twocoin", "da-twocoin", "la-mace", "da-mace"} {
		est, err := ByName(name)
		if err != nil {
			b.Fatal(err)
		}
		m := est.(Model) // as the registry has it (LA learns the prior where it does)
		for _, k := range []int{2, 5, 20} {
			b.Run(fmt.Sprintf("%s/K=%d", name, k), func(b *testing.B) { benchEval(b, m, k, 100_000, 1) })
		}
	}
}

// BenchmarkEvalWorkers is BenchmarkEval's one goroutine at K = 2 for la-ds
// and da-ds on 10⁷ labels from 5,000 workers (BenchmarkEval's data at that
// size) and from 50,000, as many as consensus bench simulates for 10⁸
// labels: DS's table and counts then outgrow a core's L2 cache, and the
// pass waits on the workers' rows unless they are fetched ahead
// (num.RespPairs). With 200 labels a worker or more, the per-worker work
// of a pass (the chunks' counts, the gradient's worker block) stays small
// against the labels':
//
//	go test ./model -run '^$' -bench 'EvalWorkers' -count 3
func BenchmarkEvalWorkers(b *testing.B) {
	for _, name := range []string{"la-ds", "da-ds"} {
		est, err := ByName(name)
		if err != nil {
			b.Fatal(err)
		}
		m := est.(Model)
		for _, w := range []int{5_000, 50_000} {
			b.Run(fmt.Sprintf("%s/W=%d", name, w), func(b *testing.B) {
				c := benchdata.Settings(10_000_000, 2, m.Noise, m.Latent, 1)
				c.Workers = w
				d, _, err := sim.Simulate(c)
				if err != nil {
					b.Fatal(err)
				}
				benchEvalData(b, m, d, 1)
			})
		}
	}
}

// benchEval measures one evaluation of m's log-likelihood and gradient on
// the simulated data of n labels and k classes with the given number of
// goroutines, reporting ns/label and cpu-ns/label.
func benchEval(b *testing.B, m Model, k, n, threads int) {
	d, err := benchdata.Get(n, k, m.Noise, m.Latent)
	if err != nil {
		b.Fatal(err)
	}
	benchEvalData(b, m, d, threads)
}

// benchEvalData is benchEval on the data set d.
func benchEvalData(b *testing.B, m Model, d *data.Dataset, threads int) {
	obj := newObjective(m, d, threads)
	x := m.Init(d)
	grad := make([]float64, len(x))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, _ := benchdata.CPUTime()
	for b.Loop() {
		obj.eval(x, grad)
	}
	cpu1, ok := benchdata.CPUTime()
	perLabel := float64(b.N) * float64(d.NumLabels())
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/perLabel, "ns/label")
	if ok {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/perLabel, "cpu-ns/label")
	}
}

// BenchmarkFit measures a whole fit with the default settings (the default
// solver for the model) on the data of BenchmarkEval. Run it with
// -benchtime 1x and -count for repeated fits:
//
//	go test ./model -run '^$' -bench 'Fit/da-ds/K=2/N=1e6' -benchtime 1x -count 5
func BenchmarkFit(b *testing.B) {
	for _, m := range benchModels() {
		for _, k := range []int{2, 5} {
			for _, n := range benchdata.Sizes() {
				name := fmt.Sprintf("%s/K=%d/N=%s", m.Name(), k, benchdata.Label(n))
				b.Run(name, func(b *testing.B) {
					d, err := benchdata.Get(n, k, m.Noise, m.Latent)
					if err != nil {
						b.Fatal(err)
					}
					r := benchFits(b, d, m)
					b.ReportMetric(float64(r.Evaluations), "evals")
				})
			}
		}
	}
}

// BenchmarkEvalLate measures one evaluation of GLAD (K = 2, one goroutine)
// at the parameters that 300 L-BFGS iterations from Init reach on the
// simulated data, where many e_w d_j are so large that 1 - σ(e_w d_j)
// underflows: the cost of a late evaluation of a GLAD fit, which differs
// from the cost at Init (BenchmarkEval). Set up with one fit per model.
//
//	go test ./model -run '^$' -bench EvalLate -count 5
func BenchmarkEvalLate(b *testing.B) {
	for _, m := range benchModels() {
		if m.Noise.Name() != "glad" {
			continue
		}
		for _, n := range benchdata.Sizes() {
			b.Run(fmt.Sprintf("%s/K=2/N=%s", m.Name(), benchdata.Label(n)), func(b *testing.B) {
				d, err := benchdata.Get(n, 2, m.Noise, m.Latent)
				if err != nil {
					b.Fatal(err)
				}
				r, err := m.Fit(context.Background(), d, &Settings{Method: LBFGS, MaxIterations: 300})
				if err != nil {
					b.Fatal(err)
				}
				obj := newObjective(m, d, 1)
				grad := make([]float64, len(r.Params))
				b.ResetTimer()
				cpu0, _ := benchdata.CPUTime()
				for b.Loop() {
					obj.eval(r.Params, grad)
				}
				cpu1, ok := benchdata.CPUTime()
				perLabel := float64(b.N) * float64(d.NumLabels())
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/perLabel, "ns/label")
				if ok {
					b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/perLabel, "cpu-ns/label")
				}
			})
		}
	}
}

// BenchmarkFitBayes measures whole variational fits of the Bayesian
// Dawid-Skene models on data simulated from DA-DS (the data of
// BenchmarkFit's da-ds rows), with -benchtime 1x and -count for repeats:
//
//	go test ./model -run '^$' -bench 'FitBayes/vb-da-ds/K=2/N=1e6' -benchtime 1x -count 5
func BenchmarkFitBayes(b *testing.B) {
	for _, name := range []string{"vb-la-ds", "vb-da-ds", "vb-hda-ds"} {
		m, err := ByName(name) // package vb's Bayes
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range []int{2, 10} {
			for _, n := range benchdata.Sizes() {
				b.Run(fmt.Sprintf("%s/K=%d/N=%s", m.Name(), k, benchdata.Label(n)), func(b *testing.B) {
					d, err := benchdata.Get(n, k, noise.DS{}, latent.DA{})
					if err != nil {
						b.Fatal(err)
					}
					benchFits(b, d, m)
				})
			}
		}
	}
}

// benchFits fits est to d b.N times and reports the CPU seconds, the
// iterations and the wall time per label of a fit; it returns the last
// result.
func benchFits(b *testing.B, d *data.Dataset, est Estimator) *Result {
	var r *Result
	var err error
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, _ := benchdata.CPUTime()
	for b.Loop() {
		if r, err = est.Fit(context.Background(), d, nil); err != nil {
			b.Fatal(err)
		}
	}
	cpu1, ok := benchdata.CPUTime()
	if ok {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N)/1e9, "cpu-s/op")
	}
	b.ReportMetric(float64(r.Iterations), "iters")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(d.NumLabels()), "ns/label")
	return r
}

// BenchmarkFitVotes measures whole fits of the vote-based models that
// Crowd-Kit also has (majority vote, Wawa, ZeroBasedSkill, KOS with its
// 100 iterations) on data simulated from DA-DS with two classes, with
// -benchtime 1x and -count for repeats:
//
//	go test ./model -run '^$' -bench 'FitVotes/kos/N=1e6' -benchtime 1x -count 5
func BenchmarkFitVotes(b *testing.B) {
	for _, name := range []string{"mv", "wawa", "zbs", "kos"} {
		est, err := ByName(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range benchdata.Sizes() {
			b.Run(fmt.Sprintf("%s/N=%s", name, benchdata.Label(n)), func(b *testing.B) {
				d, err := benchdata.Get(n, 2, noise.DS{}, latent.DA{})
				if err != nil {
					b.Fatal(err)
				}
				benchFits(b, d, est)
			})
		}
	}
}
