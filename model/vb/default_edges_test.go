package vb_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/internal/unvoted"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestDefaultSingleLabels checks the default model and vb-la-ds where no
// task has labels of two workers (one label a task): nothing tells a
// worker's accuracy from the prior, nor the class prior from the workers'
// noise. A prior learned from the workers ran to certainty (every label
// 0.9995 sure, ECE 0.27), and a learned class prior ran to one class: on
// 50 Dawid-Skene workers of 60 labels each, every task class 0 (accuracy
// 0.499 against majority vote's 0.820). The default keeps the workers'
// fixed prior and, as vb-la-ds, holds the class prior uniform, and says
// so: its labels are the votes. Its probabilities are never surer than
// the votes are right, but under-confident: with classes of 80% and 20%,
// tasks right 85% of the time get 0.55-0.8 (ECE 0.26), as the uniform
// prior reads the many labels of one class as partly the workers' noise.
func TestDefaultSingleLabels(t *testing.T) {
	const k = 2
	for _, tc := range []struct {
		name string
		c    sim.Settings
		ece  float64 // the default's ECE at most
	}{
		{"one-coin", sim.Settings{Tasks: 2000, Workers: 20, LabelsPerTask: 1, Classes: k,
			Noise: noise.OneCoin{}, Latent: latent.LA{}, Seed: 1}, 0.05},
		{"ds", sim.Settings{Tasks: 3000, Workers: 50, LabelsPerTask: 1, Classes: k,
			Noise: noise.DS{}, Latent: latent.LA{}, Seed: 3,
			Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.7, Hi: 0.95}}}}, 0.1},
		{"ds-imbalanced", sim.Settings{Tasks: 3000, Workers: 50, LabelsPerTask: 1, Classes: k,
			ClassPrior: []float64{0.8, 0.2}, Noise: noise.DS{}, Latent: latent.LA{}, Seed: 3,
			Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.7, Hi: 0.95}}}}, 0.3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gold, _, fits := fitSim(t, tc.c, model.DefaultModel, "vb-la-ds", "mv")
			def := fits[model.DefaultModel]
			acc := func(name string) float64 { return must(metrics.Accuracy(fits[name].Probs, k, gold, 1)) }
			ece := must(metrics.ECE(def.Probs, k, gold, 10))
			t.Logf("default: %s; accuracy %.4f, ECE %.4f (vb-la-ds %.4f, mv %.4f)", def.Method, acc(model.DefaultModel), ece, acc("vb-la-ds"), acc("mv"))
			for _, want := range []string{"workers' prior fixed", "class prior held uniform"} {
				if !strings.Contains(def.Method, want) {
					t.Errorf("the summary does not say %q: %q", want, def.Method)
				}
			}
			if ece > tc.ece {
				t.Errorf("ECE %.4f, want at most %v", ece, tc.ece)
			}
			var conf float64
			for j := range len(def.Probs) / k {
				conf += slices.Max(def.Probs[j*k:(j+1)*k]) / float64(len(def.Probs)/k)
			}
			if a := acc(model.DefaultModel); conf > a+0.02 {
				t.Errorf("mean confidence %.4f, above the accuracy %.4f", conf, a)
			}
			for _, name := range []string{model.DefaultModel, "vb-la-ds"} {
				if a, m := acc(name), acc("mv"); a < m-0.002 {
					t.Errorf("%s: accuracy %.4f, below majority vote's %.4f", name, a, m)
				}
			}
			for i, p := range def.Probs {
				if p < vb.TruthFloor/k {
					t.Fatalf("probability %d is %g, below the floor %g", i, p, vb.TruthFloor/k)
				}
			}
		})
	}
}

// TestDefaultWeakWorkers checks the default model on crowds of weak
// workers (Dawid-Skene workers of accuracy U[0.5, 0.65] or U[0.55, 0.7],
// 3000 tasks of 3 labels by 50 workers, balanced classes), where a class
// prior learned by mean field ran to one class: 95-99% of the tasks class
// 0 or class 1, accuracy 0.49-0.51 against majority vote's 0.60-0.71, ECE
// 0.45-0.50. The default sees that its fit all but dropped a class the
// labels give as often as the other (unvoted.Dropped), refits with the class
// prior held at the shares the labels imply (unvoted.HeldShares) and says
// so; it is then as accurate as majority vote and calibrated. So too where
// the first fit only drifts, with 5 labels a task from 100 workers of
// U[0.55, 0.7] (one class 0.16 of the consensus, accuracy 0.5515; the
// refit 0.7425, majority vote 0.7435), and where it drifts less, to a
// class of 0.30 (seed 5: the first fit 0.663, sided with the votes on 73%
// of the tasks; the refit 0.726 on 99.7%, majority vote 0.7265;
// unvoted.Drifted). It does so too where a prolific
// worker's bias makes the labels lean to a class (workers of U[0.5, 0.85]
// and activity 1/rank, two labels a task; majority vote 0.665, the first
// fit 0.503, the refit 0.649 with ECE 0.082) and the labels agree within
// tasks beyond chance (unvoted.Agreement 5.6); the implied shares amplify
// that worker's lean (held at the labels' shares the refit gave 0.653 with
// ECE 0.055), the price of reading a rare class right where spammers dilute
// it (unvoted.HeldShares). Where
// the labels lean to a class (classes of 90% and 10%, workers of U[0.45,
// 0.65], 2000 tasks of 2 labels by 50 workers of activity 1/rank^0.5), the
// prior run to it is kept: 0.909, the Bayes limit, against majority vote's
// 0.556. It is kept too where 30% of such workers are spammers, which
// dilute the lean, and the labels do not agree beyond chance; a uniform
// prior gave 0.59. That prior is sure of class 0 (mean p about 0.99)
// where 90% of the tasks are.
func TestDefaultWeakWorkers(t *testing.T) {
	const (
		k       = 2
		dropped = "a learned one all but dropped a class"
		drifted = "a learned one drifted from the shares"
	)
	for _, tc := range []struct {
		name    string
		c       sim.Settings
		held    string  // why the class prior is held (unvoted.HeldShares), if it is
		minAcc  float64 // the accuracy at least
		withinM float64 // and at least majority vote's less this
		maxECE  float64 // the ECE at most; zero: 0.08
	}{
		{"0.5-0.65-seed1", sim.Settings{Tasks: 3000, Workers: 50, LabelsPerTask: 3, Seed: 1,
			Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.5, Hi: 0.65}}}}, dropped, 0.6, 0.01, 0},
		{"0.5-0.65-seed2", sim.Settings{Tasks: 3000, Workers: 50, LabelsPerTask: 3, Seed: 2,
			Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.5, Hi: 0.65}}}}, dropped, 0.6, 0.01, 0},
		{"0.55-0.7-seed2", sim.Settings{Tasks: 3000, Workers: 50, LabelsPerTask: 3, Seed: 2,
			Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.55, Hi: 0.7}}}}, dropped, 0.69, 0.01, 0},
		{"0.55-0.7-5-labels", sim.Settings{Tasks: 2000, Workers: 100, LabelsPerTask: 5, Seed: 2,
			Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.55, Hi: 0.7}}}}, dropped, 0.73, 0.01, 0},
		{"0.55-0.7-5-labels-drift", sim.Settings{Tasks: 2000, Workers: 100, LabelsPerTask: 5, Seed: 5,
			Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.55, Hi: 0.7}}}}, drifted, 0.72, 0.005, 0.03},
		{"leaning-0.9", sim.Settings{Tasks: 2000, Workers: 50, LabelsPerTask: 2, Seed: 2, Activity: 0.5,
			ClassPrior: []float64{0.9, 0.1}, Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.45, Hi: 0.65}}}}, "", 0.89, 0, 0},
		{"biased-0.5-0.85", sim.Settings{Tasks: 3000, Workers: 50, LabelsPerTask: 2, Seed: 1, Activity: 1,
			Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.5, Hi: 0.85}}}}, dropped, 0.645, 0.02, 0.09},
		{"spammers-0.9", sim.Settings{Tasks: 3000, Workers: 50, LabelsPerTask: 2, Seed: 1, Spammers: 0.3,
			ClassPrior: []float64{0.9, 0.1}, Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.45, Hi: 0.65}}}}, "", 0.89, 0, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			c.Classes, c.Noise, c.Latent = k, noise.DS{}, latent.LA{}
			gold, _, fits := fitSim(t, c, model.DefaultModel, "mv")
			def := fits[model.DefaultModel]
			acc := func(name string) float64 { return must(metrics.Accuracy(fits[name].Probs, k, gold, 1)) }
			ece := must(metrics.ECE(def.Probs, k, gold, 10))
			t.Logf("default: %s; accuracy %.4f, ECE %.4f (mv %.4f)", def.Method, acc(model.DefaultModel), ece, acc("mv"))
			for _, note := range []string{dropped, drifted} {
				if held := strings.Contains(def.Method, "] ("+note); held != (note == tc.held) {
					t.Errorf("class prior held because %s: %v, want %v (%q)", note, held, !held, def.Method)
				}
			}
			if a, m := acc(model.DefaultModel), acc("mv"); a < tc.minAcc || a < m-tc.withinM {
				t.Errorf("accuracy %.4f, want at least %v and majority vote's %.4f less %v", a, tc.minAcc, m, tc.withinM)
			}
			if m := cmp.Or(tc.maxECE, 0.08); ece > m {
				t.Errorf("ECE %.4f, want at most %v", ece, m)
			}
		})
	}
}

// TestDefaultPairs checks the default model where every task has labels of
// two workers, 2,000 workers with about two labels each (K = 2, DS
// workers): the label pairs do not identify the crowd's pattern of
// confusion (noise.PatternPriorer), and a learned one ran to a class prior
// of (0.83, 0.17) and an asymmetric confusion that fit the pairs as well
// as the truth: every task p ≥ 0.98 for class 0 or about 0.5, ECE 0.34.
// The default keeps the pattern's prior fixed, says so, and is calibrated
// and as accurate as majority vote and vb-la-ds.
func TestDefaultPairs(t *testing.T) {
	const k = 2
	c := sim.Settings{Tasks: 2000, Workers: 2000, LabelsPerTask: 2, Classes: k,
		Noise: noise.DS{}, Latent: latent.LA{}, Seed: 14}
	gold, _, fits := fitSim(t, c, model.DefaultModel, "vb-la-ds", "mv")
	def := fits[model.DefaultModel]
	acc := func(name string) float64 { return must(metrics.Accuracy(fits[name].Probs, k, gold, 1)) }
	ece := must(metrics.ECE(def.Probs, k, gold, 10))
	t.Logf("default %.4f (ECE %.4f), vb-la-ds %.4f, mv %.4f; %s", acc(model.DefaultModel), ece, acc("vb-la-ds"), acc("mv"), def.Method)
	if !strings.Contains(def.Method, "rows' prior fixed") {
		t.Errorf("the summary does not say that the pattern's prior is fixed: %q", def.Method)
	}
	if ece > 0.04 {
		t.Errorf("ECE %.4f, want at most 0.04", ece)
	}
	for _, other := range []string{"vb-la-ds", "mv"} {
		if a, b := acc(model.DefaultModel), acc(other); a < b-0.005 {
			t.Errorf("accuracy %.4f, more than half a point below %s's %.4f", a, other, b)
		}
	}
}

// TestDefaultManyClassesUniformErrors fits the default to one-coin
// workers of accuracy 0.3 to 0.9, whose errors are uniform over the other
// classes, with K = 20 classes and 3 labels a task (the crowd of
// `consensus simulate --model la-onecoin --classes 20 --objects 2000
// --workers 100 --labels-per-object 3 --activity 0.9 --accuracy 0.3:0.9
// --seed 1`). The crowd's error pattern, learned from about six errors a
// cell and counted twice by the mean-field fit, made the default sure of
// its own mistakes (accuracy 0.721, ECE 0.064) until the pattern was kept
// only where the counts support it (noise's symmetricUnlessSupported):
// the default must now be within half a point of maximum-likelihood
// one-coin, the generating model, and calibrated (ECE at most 0.03).
func TestDefaultManyClassesUniformErrors(t *testing.T) {
	const k = 20
	c := sim.Settings{Tasks: 2000, Workers: 100, LabelsPerTask: 3, Classes: k, Activity: 0.9,
		Noise: noise.OneCoin{}, Latent: latent.LA{}, Seed: 1,
		Params: sim.OneCoinParams{Accuracy: sim.Range{Lo: 0.3, Hi: 0.9}}}
	gold, _, fits := fitSim(t, c, model.DefaultModel, "la-onecoin")
	acc := func(name string) float64 { return must(metrics.Accuracy(fits[name].Probs, k, gold, 1)) }
	ece := must(metrics.ECE(fits[model.DefaultModel].Probs, k, gold, 10))
	t.Logf("default %.4f (ECE %.4f), la-onecoin %.4f", acc(model.DefaultModel), ece, acc("la-onecoin"))
	if a, b := acc(model.DefaultModel), acc("la-onecoin"); a < b-0.005 {
		t.Errorf("accuracy %.4f, more than half a point below la-onecoin's %.4f", a, b)
	}
	if ece > 0.03 {
		t.Errorf("ECE %.4f, want at most 0.03", ece)
	}
}

// TestDefaultUnvotedClass checks the default on a crowd whose third class
// is seldom given (P(2 | 2) from U(0.02, 0.1), 5% of the tasks) and whose
// subtype of class 1 (30% of it) three workers of every task call class
// 0: 10,000 tasks of 5 labels among 57 Dawid-Skene workers, as `consensus
// simulate --model la-ds --classes 3 --class-prior 0.4,0.55,0.05 --accuracy
// 0.8:0.98,0.8:0.98,0.02:0.1 --correlated
// workers=3,coverage=1,subtype=0.3,from=1,to=0 --workers 57 --objects 10000
// --labels-per-object 5 --seed 1`. With the learned pattern of confusion
// the first fit makes class 2 the label of 38% of the tasks, most of them
// without a label 2 (accuracy 0.431); the default refits with the pattern
// fixed, says so, and is within half a point of majority vote (0.780) and
// vb-la-ds (0.783), and no class of its output is unvoted.
func TestDefaultUnvotedClass(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a simulation")
	}
	c := sim.Settings{Tasks: 10_000, Workers: 57, Classes: 3, LabelsPerTask: 5, Latent: latent.LA{}, Seed: 1,
		ClassPrior: []float64{0.4, 0.55, 0.05},
		Params:     sim.DSParams{Diag: []sim.Range{{Lo: 0.8, Hi: 0.98}, {Lo: 0.8, Hi: 0.98}, {Lo: 0.02, Hi: 0.1}}},
		Correlated: sim.Correlated{Workers: 3, Coverage: 1, Subtype: 0.3, From: 1, To: 0}}
	gold, _, fits := fitSim(t, c, model.DefaultModel, "mv", "vb-la-ds")
	def := fits[model.DefaultModel]
	acc := func(name string) float64 { return must(metrics.Accuracy(fits[name].Probs, 3, gold, 1)) }
	a, mv, la := acc(model.DefaultModel), acc("mv"), acc("vb-la-ds")
	t.Logf("default %.4f, majority vote %.4f, vb-la-ds %.4f; %s", a, mv, la, def.Method)
	if !strings.Contains(def.Method, "made class 2 the label of") {
		t.Errorf("the default did not refit with the pattern fixed: %s", def.Method)
	}
	if a < mv-0.005 || a < la-0.005 {
		t.Errorf("default accuracy %.4f, more than half a point below majority vote's %.4f or vb-la-ds's %.4f", a, mv, la)
	}
	if u := unvoted.Classes(def.Data, def.Probs); len(u) > 0 {
		t.Errorf("unvoted classes in the default's output: %+v", u)
	}
}

// TestDefaultNeighbourErrors checks the default model on crowds whose
// classes are imbalanced and whose workers err on the next class (3000
// tasks of 3 labels by 300 Dawid-Skene workers of accuracy U[0.3, 0.8],
// the weight of a wrong class falling by e⁻² a step beyond the first, 10%
// spammers): the middle classes draw the labels, the first fit all but
// drops a class the labels give, and a refit with the class prior held
// uniform read the classes through each other (accuracy 0.29 and 0.22
// against majority vote's 0.60 and 0.59). Held at the labels' shares, and
// kept only where its labels are votes as often as the first fit's
// (keepHeld), the refit is within 1.5 points of majority vote and
// calibrated. At K = 3 that refit gave 0.589; the first fit gives the
// middle class 0.3% though it is the most frequent label of 42% of the
// tasks, and gibbs-kinds, which keeps it, 0.705 (its labels agree within
// tasks at z = 0.6, all labels at 8.9: unvoted.AbsentClasses). Where a
// few workers give most labels (activity 1/rank^1.3,
// accuracy U[0.35, 0.7], K = 5, seed 2) the labels' shares are far from
// the classes' (0.30, 0.35, … against 0.5, 0.2, …) and the refit gave
// 0.642, sided with the votes on 90% of the tasks; gibbs-kinds, which
// keeps the classes the first fit dropped and sides with the votes more
// often than that fit, gives 0.755 (gibbs.Challenge against the first
// fit; the Bayes limit 0.811).
func TestDefaultNeighbourErrors(t *testing.T) {
	for _, tc := range []struct {
		prior    []float64
		acc      sim.Range
		activity float64
		seed     uint64
		gibbs    bool    // the answer is gibbs-kinds's
		least    float64 // its accuracy at least, its ECE at most 0.04
	}{
		{[]float64{0.6, 0.3, 0.1}, sim.Range{Lo: 0.3, Hi: 0.8}, 0, 1, true, 0.68},
		{[]float64{0.5, 0.2, 0.15, 0.1, 0.05}, sim.Range{Lo: 0.3, Hi: 0.8}, 0, 1, true, 0},
		{[]float64{0.5, 0.2, 0.15, 0.1, 0.05}, sim.Range{Lo: 0.35, Hi: 0.7}, 1.3, 2, true, 0.75},
	} {
		k := len(tc.prior)
		t.Run(fmt.Sprintf("K%d-activity%v-seed%d", k, tc.activity, tc.seed), func(t *testing.T) {
			c := sim.Settings{Tasks: 3000, Workers: 300, Classes: k, LabelsPerTask: 3, Seed: tc.seed, Spammers: 0.1,
				ClassPrior: tc.prior, Noise: noise.DS{}, Latent: latent.LA{}, Activity: tc.activity,
				Params: sim.DSParams{Diag: []sim.Range{tc.acc}, ErrorDecay: 2}}
			gold, _, fits := fitSim(t, c, model.DefaultModel, "mv")
			def := fits[model.DefaultModel]
			acc := func(name string) float64 { return must(metrics.Accuracy(fits[name].Probs, k, gold, 1)) }
			ece := must(metrics.ECE(def.Probs, k, gold, 10))
			t.Logf("default: %s; accuracy %.4f, ECE %.4f (mv %.4f)", def.Method, acc(model.DefaultModel), ece, acc("mv"))
			if a, m := acc(model.DefaultModel), acc("mv"); a < m-0.015 {
				t.Errorf("accuracy %.4f, more than 1.5 points below majority vote's %.4f", a, m)
			}
			if ece > 0.1 {
				t.Errorf("ECE %.4f, want at most 0.1", ece)
			}
			if got := strings.Contains(def.Method, "true class of gibbs-kinds"); got != tc.gibbs {
				t.Errorf("gibbs-kinds's answer taken: %v, want %v", got, tc.gibbs)
			}
			if a := acc(model.DefaultModel); tc.least > 0 && (a < tc.least || ece > 0.04) {
				t.Errorf("accuracy %.4f, ECE %.4f: want at least %v, at most 0.04", a, ece, tc.least)
			}
		})
	}
}
