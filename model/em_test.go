package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
	"github.com/consensuslab/consensus/sim"
)

func emModels() []Model {
	return []Model{
		{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}},
		{Noise: noise.DS{}, Latent: latent.LA{}},
		{Noise: noise.DS{}, Latent: latent.DA{}},
	}
}

// TestEMMonotone checks that no accepted EM iterate, of plain EM or of
// SQUAREM (the default), decreases the log-likelihood, on random labels (a
// hard case: no structure to find) and on simulated data.
func TestEMMonotone(t *testing.T) {
	for _, k := range []int{2, 3} {
		for _, m := range emModels() {
			for _, c := range []struct {
				src     string
				squarem bool
			}{{"random", false}, {"random", true}, {"sim", false}, {"sim", true}} {
				src := c.src
				t.Run(fmt.Sprintf("%s/prior=%v/K=%d/%s/squarem=%v", m.Name(), m.Latent.GlobalDim(k) > 0, k, src, c.squarem), func(t *testing.T) {
					d := noisetest.Data(t, uint64(k), 300, 20, k)
					if src == "sim" {
						var err error
						d, _, err = sim.Simulate(sim.Settings{Tasks: 300, Workers: 30, LabelsPerTask: 5, Classes: k, Noise: noise.DS{}, Latent: m.Latent, Seed: 3})
						if err != nil {
							t.Fatal(err)
						}
					}
					var lls []float64
					r, err := fitEMWith(m, d, &Settings{MaxIterations: 200, Progress: func(p Progress) {
						lls = append(lls, p.LogLikelihood)
					}}, c.squarem)
					if err != nil {
						t.Fatal(err)
					}
					x0 := m.Init(d)
					l0 := m.LogLikelihood(d, x0, make([]float64, len(x0)), 1)
					lls = append([]float64{l0}, lls...)
					for i := 1; i < len(lls); i++ {
						if lls[i] < lls[i-1]-1e-9*math.Abs(lls[i-1]) {
							t.Errorf("iteration %d: log-likelihood fell from %.12g to %.12g", i, lls[i-1], lls[i])
						}
					}
					if r.LogLikelihood != lls[len(lls)-1] {
						t.Errorf("result log-likelihood %.12g, last iteration %.12g", r.LogLikelihood, lls[len(lls)-1])
					}
				})
			}
		}
	}
}

// TestEMMatchesLBFGS checks that EM reaches a maximum of the
// log-likelihood at least as high as L-BFGS's (up to 10⁻⁶ per label) and,
// where the two maxima agree, the same consensus labels. On DA-DS EM often
// ends higher: the maximum lies on the boundary (some q_j(z) and π_w(z, y)
// at 0), which EM's M-step reaches directly while L-BFGS has to push
// logits towards -∞.
func TestEMMatchesLBFGS(t *testing.T) {
	forEMCases(t, func(t *testing.T, m Model, d *data.Dataset) {
		em, err := m.Fit(context.Background(), d, &Settings{Method: EM, FunctionTol: 1e-12, MaxIterations: 5000})
		if err != nil {
			t.Fatal(err)
		}
		lb, err := m.Fit(context.Background(), d, &Settings{Method: LBFGS})
		if err != nil {
			t.Fatal(err)
		}
		n := float64(d.NumLabels())
		t.Logf("EM %d iterations, L/N %.9f; L-BFGS %d iterations, L/N %.9f", em.Iterations, em.LogLikelihood/n, lb.Iterations, lb.LogLikelihood/n)
		if em.LogLikelihood/n < lb.LogLikelihood/n-1e-6 {
			t.Errorf("log-likelihood per label: EM %.9f below L-BFGS %.9f", em.LogLikelihood/n, lb.LogLikelihood/n)
		}
		if math.Abs(em.LogLikelihood-lb.LogLikelihood)/n < 1e-7 {
			if agree := agreementOf(em.Labels(1), lb.Labels(1)); agree < 0.99 {
				t.Errorf("EM and L-BFGS consensus labels agree on %.3f of objects", agree)
			}
		}
	})
}

// forEMCases runs f as a subtest for every model of emModels and K = 2, 3,
// on 500 objects with 6 labels each simulated from the model.
func forEMCases(t *testing.T, f func(t *testing.T, m Model, d *data.Dataset)) {
	for _, k := range []int{2, 3} {
		for _, m := range emModels() {
			t.Run(fmt.Sprintf("%s/prior=%v/K=%d", m.Name(), m.Latent.GlobalDim(k) > 0, k), func(t *testing.T) {
				d, _, err := sim.Simulate(sim.Settings{Tasks: 500, Workers: 30, LabelsPerTask: 6, Classes: k, Noise: noise.DS{}, Latent: m.Latent, Seed: 5})
				if err != nil {
					t.Fatal(err)
				}
				f(t, m, d)
			})
		}
	}
}

func agreementOf(a, b []int) float64 {
	n := 0
	for i := range a {
		if a[i] == b[i] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// TestEMThreadsIdentical checks that the result of EM, plain or with
// SQUAREM, does not depend on the number of goroutines, bit for bit.
func TestEMThreadsIdentical(t *testing.T) {
	for _, k := range []int{2, 3} {
		d := noisetest.Data(t, 4, 20000, 50, k)
		for _, m := range emModels() {
			for _, squarem := range []bool{false, true} {
				r1, err := fitEMWith(m, d, &Settings{MaxIterations: 40, Threads: 1}, squarem)
				if err != nil {
					t.Fatal(err)
				}
				r2, err := fitEMWith(m, d, &Settings{MaxIterations: 40, Threads: 2}, squarem)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s/K=%d/squarem=%v", m.Name(), k, squarem)
				if r1.LogLikelihood != r2.LogLikelihood || r1.Evaluations != r2.Evaluations {
					t.Errorf("%s: log-likelihood %v after %d passes with 1 thread, %v after %d with 2", name,
						r1.LogLikelihood, r1.Evaluations, r2.LogLikelihood, r2.Evaluations)
				}
				if !slices.Equal(r1.Params, r2.Params) || !slices.Equal(r1.Probs, r2.Probs) {
					t.Errorf("%s: parameters or consensus differ between 1 and 2 threads", name)
				}
			}
		}
	}
}

// TestEMUnsupported checks the errors for models and settings EM cannot
// handle.
func TestEMUnsupported(t *testing.T) {
	d := noisetest.Data(t, 1, 30, 5, 2)
	for _, m := range []Model{
		{Noise: noise.GLAD{}, Latent: latent.LA{}},
		{Noise: noise.GLAD{}, Latent: latent.DA{}},
		{Noise: noise.MME{}, Latent: latent.DA{}},
	} {
		if _, err := m.Fit(context.Background(), d, &Settings{Method: EM}); !errors.Is(err, ErrNoMStep) {
			t.Errorf("%s: error %v, want ErrNoMStep", m.Name(), err)
		}
	}
	ds := Model{Noise: noise.DS{}, Latent: latent.DA{}}
	if _, err := ds.Fit(context.Background(), d, &Settings{Method: EM, Ridge: 1}); err == nil {
		t.Error("EM with a ridge: no error")
	}
}

// TestEMFixed checks that EM holds the parameters Settings.Fixed marks (here
// the confusion matrices of half the workers, set to other values than a
// fit gives them) at their start values, bit for bit, and gets at least as
// high as L-BFGS with them held.
func TestEMFixed(t *testing.T) {
	d := noisetest.Data(t, 3, 200, 8, 3)
	for _, m := range []Model{
		{Noise: noise.DS{}, Latent: latent.DA{}},
		{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}},
	} {
		x := m.Init(d)
		k := d.NumClasses()
		vals := make([]float64, k*k)
		for z := range k {
			for y := range k {
				vals[z*k+y] = 0.1 / float64(k-1)
				if y == z {
					vals[z*k+y] = 0.9
				}
			}
		}
		var even []int
		for w := 0; w < d.NumWorkers(); w += 2 {
			if err := m.SetWorker(d, x, w, vals); err != nil {
				t.Fatal(err)
			}
			even = append(even, w)
		}
		fixed := FixedWorkers(m, d, x, even)
		start := slices.Clone(x)
		em, err := m.Fit(context.Background(), d, &Settings{Method: EM, Start: x, Fixed: fixed, FunctionTol: 1e-13})
		if err != nil {
			t.Fatal(err)
		}
		if em.Method != "em" || !em.Converged {
			t.Errorf("%s: method %s, converged %v", m.Name(), em.Method, em.Converged)
		}
		if !slices.Equal(x, start) {
			t.Errorf("%s: the start vector was changed", m.Name())
		}
		for i, f := range fixed {
			if f && em.Params[i] != start[i] {
				t.Fatalf("%s: held parameter %d moved from %v to %v", m.Name(), i, start[i], em.Params[i])
			}
		}
		free := 0
		for i := range fixed {
			if !fixed[i] && em.Params[i] != start[i] {
				free++
			}
		}
		if free == 0 {
			t.Errorf("%s: no free parameter moved", m.Name())
		}
		lb, err := m.Fit(context.Background(), d, &Settings{Method: LBFGS, Start: x, Fixed: fixed, GradientTol: 1e-10})
		if err != nil {
			t.Fatal(err)
		}
		// Under DA L-BFGS stops short of the boundary maximum (many
		// q_j(z) → 0), where EM goes on: EM is never below it.
		if em.LogLikelihood < lb.LogLikelihood-1e-9*math.Abs(lb.LogLikelihood) {
			t.Errorf("%s: EM reached L = %v, below L-BFGS's %v", m.Name(), em.LogLikelihood, lb.LogLikelihood)
		}
		t.Logf("%s: L = %v by EM, %v by L-BFGS", m.Name(), em.LogLikelihood, lb.LogLikelihood)
	}
}

// TestParseMethodEM checks the solver names.
func TestParseMethodEM(t *testing.T) {
	for _, c := range []struct {
		s    string
		want Method
	}{{"auto", Auto}, {"lbfgs", LBFGS}, {"cg", CG}, {"em", EM}, {"", Auto}} {
		got, err := ParseMethod(c.s)
		if err != nil || got != c.want {
			t.Errorf("ParseMethod(%q) = %v, %v", c.s, got, err)
		}
		if c.s != "" && got.String() != c.s {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
}

// TestAutoMethod checks the default solver: EM for Dawid-Skene (with
// fixed parameters too), L-BFGS for the others and for DS with a ridge.
func TestAutoMethod(t *testing.T) {
	d := noisetest.Data(t, 2, 50, 5, 2)
	ds := Model{Noise: noise.DS{}, Latent: latent.DA{}}
	for _, c := range []struct {
		m    Model
		s    *Settings
		want string
	}{
		{ds, nil, "em"},
		{Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}}, &Settings{}, "em"},
		{ds, &Settings{Ridge: 1e-3}, "lbfgs"},
		{ds, &Settings{Fixed: make([]bool, ds.Layout(d).Dim())}, "em"},
		{Model{Noise: noise.GLAD{}, Latent: latent.DA{}}, nil, "lbfgs"},
		{Model{Noise: noise.MME{}, Latent: latent.LA{}}, &Settings{MaxIterations: 5}, "lbfgs"},
	} {
		r, err := c.m.Fit(context.Background(), d, c.s)
		if err != nil {
			t.Fatal(err)
		}
		if r.Method != c.want {
			t.Errorf("%s with %+v: method %s, want %s", c.m.Name(), c.s, r.Method, c.want)
		}
	}
}
