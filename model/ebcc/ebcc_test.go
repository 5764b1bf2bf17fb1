package ebcc_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all"
	"github.com/consensuslab/consensus/model/ebcc"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestCorrelatedRegime checks what EBCC is for: on the correlated regime
// (two prolific workers share a mistake on a subtype of class 0), on two
// seeds, its accuracy is within a point of the Bayes limit and at least
// half a point above vb-la-ds's, whose independent workers take the
// pair's agreement for the truth. (The default finds the pair and allows
// for its shared mistakes: model/vb's TestDefaultRegimes.)
func TestCorrelatedRegime(t *testing.T) {
	if testing.Short() {
		t.Skip("fits two simulated data sets")
	}
	for _, seed := range []uint64{1, 2} {
		c, err := sim.Regime("correlated", seed)
		if err != nil {
			t.Fatal(err)
		}
		d, tr, err := sim.Simulate(c)
		if err != nil {
			t.Fatal(err)
		}
		bayes, err := tr.BayesPosterior(d)
		if err != nil {
			t.Fatal(err)
		}
		gold, k := tr.Gold(), d.NumClasses()
		acc := func(p []float64) float64 {
			a, err := metrics.Accuracy(p, k, gold, 1)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		e, err := ebcc.EBCC{}.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		def, err := model.ByName("vb-la-ds")
		if err != nil {
			t.Fatal(err)
		}
		r, err := def.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		a, lim, base := acc(e.Probs), acc(bayes), acc(r.Probs)
		t.Logf("seed %d: ebcc %.4f, Bayes limit %.4f, vb-la-ds %.4f", seed, a, lim, base)
		if a < lim-0.01 || a < base+0.005 {
			t.Errorf("seed %d: ebcc accuracy %.4f, want within 0.01 of the Bayes limit %.4f and 0.005 above vb-la-ds's %.4f",
				seed, a, lim, base)
		}
	}
}

// TestOneSubtypeIsIBCC checks the updates against IBCC: with one subtype a
// class and vb-la-ds's prior, EBCC is IBCC (vb-la-ds), and both fitted to a
// tight tolerance give the same posteriors.
func TestOneSubtypeIsIBCC(t *testing.T) {
	d := simulated(t, 3, 600, 4)
	tight := &model.Settings{MaxIterations: 20000, ParamTol: 1e-11, FunctionTol: 1e-15}
	e, err := ebcc.EBCC{Subtypes: 1, Starts: 1, Diagonal: noise.DefaultPriorDiag, OffDiagonal: noise.DefaultPriorOff}.Fit(context.Background(), d, tight)
	if err != nil {
		t.Fatal(err)
	}
	ibcc, err := vb.Bayes{Noise: noise.DS{}, Latent: latent.LA{}}.Fit(context.Background(), d, tight)
	if err != nil {
		t.Fatal(err)
	}
	var worst float64
	for i := range e.Probs {
		worst = max(worst, math.Abs(e.Probs[i]-ibcc.Probs[i]))
	}
	if worst > 1e-6 {
		t.Errorf("largest difference from vb-la-ds's posterior %.3g, want at most 1e-6", worst)
	}
	if math.Abs(e.LogLikelihood-ibcc.LogLikelihood) > 1e-6*math.Abs(ibcc.LogLikelihood) {
		t.Errorf("bound %.8g, vb-la-ds's %.8g: want the same", e.LogLikelihood, ibcc.LogLikelihood)
	}
}

// TestDeterministic checks that a fit depends on its seed alone: the same
// seed gives the same bytes with any number of goroutines for the starts,
// and the fit is a proper posterior.
func TestDeterministic(t *testing.T) {
	d := simulated(t, 2, 300, 5)
	fit := func(seed uint64, threads int) *model.Result {
		r, err := ebcc.EBCC{Seed: seed, Starts: 5}.Fit(context.Background(), d, &model.Settings{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a := fit(7, 1)
	for _, threads := range []int{1, 2, 5} {
		b := fit(7, threads)
		if !slices.Equal(a.Probs, b.Probs) || a.LogLikelihood != b.LogLikelihood || a.Iterations != b.Iterations {
			t.Errorf("two fits with seed 7 differ (one goroutine, then %d)", threads)
		}
	}
	k := d.NumClasses()
	for j := range d.NumTasks() {
		var s float64
		for _, p := range a.Probs[j*k : (j+1)*k] {
			if !(p >= 0 && p <= 1) {
				t.Fatalf("task %d: probability %v", j, p)
			}
			s += p
		}
		if math.Abs(s-1) > 1e-9 {
			t.Fatalf("task %d: probabilities sum to %v", j, s)
		}
	}
	// The conditionals of the noise view predict a label: P(y | z) sums to 1.
	p := make([]float64, k)
	a.Conditional(0, 0, 1, p)
	var s float64
	for _, v := range p {
		s += v
	}
	if math.Abs(s-1) > 1e-9 {
		t.Errorf("Conditional sums to %v", s)
	}
}

// TestErrors checks the refusals: a negative setting and a cancelled
// context.
func TestErrors(t *testing.T) {
	d := simulated(t, 2, 50, 3)
	if _, err := (ebcc.EBCC{Subtypes: -1}).Fit(context.Background(), d, nil); err == nil {
		t.Error("Subtypes -1 fitted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (ebcc.EBCC{}).Fit(ctx, d, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled fit: %v, want context.Canceled", err)
	}
}

// simulated returns LA Dawid-Skene labels: tasks objects of k classes,
// per labels each, from 30 workers.
func simulated(t *testing.T, k, tasks, per int) *data.Dataset {
	t.Helper()
	d, _, err := sim.Simulate(sim.Settings{
		Noise: noise.DS{}, Latent: latent.LA{}, Tasks: tasks, Workers: 30, Classes: k,
		LabelsPerTask: per, Seed: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
