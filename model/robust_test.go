package model

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/internal/race"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
)

// label is one noisy label in index form, for building test data sets.
type label struct {
	task, worker int32
	class        uint16
}

// build makes a data set of j tasks, w workers and k classes from labels.
func build(t testing.TB, j, w, k int, labels []label) *data.Dataset {
	t.Helper()
	task := make([]int32, len(labels))
	worker := make([]int32, len(labels))
	class := make([]uint16, len(labels))
	for i, l := range labels {
		task[i], worker[i], class[i] = l.task, l.worker, l.class
	}
	d, err := data.FromIndices(noisetest.Names("t", j), noisetest.Names("w", w), noisetest.Names("c", k), task, worker, class)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// edgeCase is a data set at a numerical edge, with the consensus class
// every model must find where it is obvious (nil: no such check).
type edgeCase struct {
	name string
	data func(t testing.TB) *data.Dataset
	want func(j int) int
}

func edgeCases() []edgeCase {
	return []edgeCase{
		{"worker gives every object the same label", func(t testing.TB) *data.Dataset {
			rng := rand.New(rand.NewPCG(1, 1))
			var ls []label
			for j := range int32(60) {
				ls = append(ls, label{j, 0, 0})
				for w := int32(1); w < 5; w++ {
					ls = append(ls, label{j, w, uint16(rng.IntN(3))})
				}
			}
			return build(t, 60, 5, 3, ls)
		}, nil},
		{"every worker has one label", func(t testing.TB) *data.Dataset {
			var ls []label
			for j := range int32(50) {
				for i := range int32(4) {
					ls = append(ls, label{j, j*4 + i, uint16((j + i/3) % 2)})
				}
			}
			return build(t, 50, 200, 2, ls)
		}, nil},
		{"every object has one label", func(t testing.TB) *data.Dataset {
			var ls []label
			for j := range int32(80) {
				ls = append(ls, label{j, j % 7, uint16(j % 3)})
			}
			return build(t, 80, 7, 3, ls)
		}, func(j int) int { return j % 3 }},
		{"all workers agree everywhere", func(t testing.TB) *data.Dataset {
			var ls []label
			for j := range int32(40) {
				for w := range int32(6) {
					ls = append(ls, label{j, w, uint16(j % 4)})
				}
			}
			return build(t, 40, 6, 4, ls)
		}, func(j int) int { return j % 4 }},
		{"perfectly adversarial workers", func(t testing.TB) *data.Dataset {
			// Workers 0-2 are always right, 3-4 always give the
			// other class.
			var ls []label
			for j := range int32(50) {
				for w := range int32(5) {
					c := uint16(j % 2)
					if w >= 3 {
						c = 1 - c
					}
					ls = append(ls, label{j, w, c})
				}
			}
			return build(t, 50, 5, 2, ls)
		}, nil},
		{"one object, one label, two classes", func(t testing.TB) *data.Dataset {
			return build(t, 1, 1, 2, []label{{0, 0, 1}})
		}, func(int) int { return 1 }},
		{"50 classes", func(t testing.TB) *data.Dataset {
			rng := rand.New(rand.NewPCG(2, 2))
			var ls []label
			for j := range int32(30) {
				for w := range int32(4) {
					c := uint16(j % 50)
					if rng.IntN(4) == 0 {
						c = uint16(rng.IntN(50))
					}
					ls = append(ls, label{j, w, c})
				}
			}
			return build(t, 30, 4, 50, ls)
		}, nil},
		{"very unbalanced classes", func(t testing.TB) *data.Dataset {
			// 999 objects of class 0 and one of class 1, all labels
			// right; class 2 is never used.
			var ls []label
			for j := range int32(1000) {
				c := uint16(0)
				if j == 500 {
					c = 1
				}
				for w := range int32(3) {
					ls = append(ls, label{j, w, c})
				}
			}
			return build(t, 1000, 3, 3, ls)
		}, func(j int) int {
			if j == 500 {
				return 1
			}
			return 0
		}},
	}
}

// paperEstimators returns the estimators of the paper: rfe, mv and the six
// parametric models (fuzzModels). Models added beyond the paper have their
// own tests.
func paperEstimators() []Estimator {
	es := []Estimator{RFE{}, RFE{Alias: "mv"}}
	for _, name := range fuzzModels {
		es = append(es, must(ByName(name)))
	}
	return es
}

// TestEdgeCases fits every model of the paper on data sets at numerical edges and checks
// that the results are finite distributions, and that the obvious consensus
// is found where there is one.
func TestEdgeCases(t *testing.T) {
	for _, c := range edgeCases() {
		d := c.data(t)
		for _, e := range paperEstimators() {
			t.Run(c.name+"/"+e.Name(), func(t *testing.T) {
				r, err := e.Fit(context.Background(), d, &Settings{MaxIterations: 200})
				if err != nil {
					t.Fatal(err)
				}
				checkResult(t, r)
				if c.want == nil {
					return
				}
				for j, z := range r.Labels(1) {
					// LA-MME's object matrices can absorb every label, leaving
					// a flat posterior (a property of the model, not a
					// numerical fault).
					if want := c.want(j); z != want && e.Name() != "la-mme" {
						t.Fatalf("task %d: consensus %d, want %d (distribution %v)", j, z, want, r.Dist(j))
					}
				}
			})
		}
	}
}

// TestBoundaryOptimum checks the policy at a boundary optimum (all workers
// agree, so the likelihood grows as confusion probabilities go to 0 or 1):
// without a ridge, the logits grow only while the gradient is above the
// tolerance, since it shrinks like exp(-|x|), and stop far from overflow;
// with a ridge, they stay small and the fit converges at a finite optimum.
func TestBoundaryOptimum(t *testing.T) {
	d := edgeCases()[3].data(t) // all workers agree everywhere
	for _, name := range []string{"la-ds", "da-ds", "la-glad", "da-glad", "la-mme", "da-mme"} {
		for _, ridge := range []float64{0, 0.01} {
			e, err := ByName(name)
			if err != nil {
				t.Fatal(err)
			}
			r, err := e.Fit(context.Background(), d, &Settings{Ridge: ridge})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, r)
			var big float64
			for _, v := range r.Params {
				big = math.Max(big, math.Abs(v))
			}
			limit := 100.0
			if ridge > 0 {
				limit = 20
			}
			t.Logf("%s ridge %g: %d iterations, %s, max |x| %.1f", name, ridge, r.Iterations, r.Status, big)
			if big > limit {
				t.Errorf("%s ridge %g: max |parameter| %.1f > %g after %d iterations (%s)", name, ridge, big, limit, r.Iterations, r.Status)
			}
			if ridge > 0 && !r.Converged {
				t.Errorf("%s ridge %g: did not converge: %s", name, ridge, r.Status)
			}
		}
	}
}

// TestOverflowStops starts GLAD with log difficulties in the range where
// exp overflows and checks that the fit neither hangs nor returns NaN: it
// stops at the last finite iterate with ErrNonFinite in its status, or, if
// the start itself is not finite, fails with an error.
func TestOverflowStops(t *testing.T) {
	d := edgeCases()[0].data(t)
	for _, name := range []string{"la-glad", "da-glad"} {
		m := must(ByName(name)).(Model)
		lay := m.Layout(d)
		for _, delta := range []float64{-1e5, 800, 1e5} {
			x := m.Init(d)
			for i := lay.O[0]; i < lay.O[1]; i++ {
				x[i] = delta * float64(1+i%3) / 3
			}
			start := time.Now()
			r, err := m.Fit(context.Background(), d, &Settings{Start: x, MaxIterations: 50})
			if time.Since(start) > 5*time.Second {
				t.Errorf("%s δ=%g: took %v", name, delta, time.Since(start))
			}
			if err != nil {
				if !strings.Contains(err.Error(), "not finite") {
					t.Errorf("%s δ=%g: error %v", name, delta, err)
				}
				continue
			}
			checkResult(t, r)
			if !r.Converged && strings.Contains(r.Status, ErrNonFinite.Error()) {
				t.Logf("%s δ=%g: stopped after %d iterations: %s", name, delta, r.Iterations, r.Status)
			}
		}
	}
	if !errors.Is(ErrNonFinite, ErrNonFinite) {
		t.Fatal("unreachable")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// manyWorkers returns a data set of n labels from n distinct workers, ten
// labels per object, two classes with 80% of labels right.
func manyWorkers(t testing.TB, n int) *data.Dataset {
	rng := rand.New(rand.NewPCG(3, 3))
	task := make([]int32, n)
	worker := make([]int32, n)
	class := make([]uint16, n)
	for i := range n {
		task[i] = int32(i / 10)
		worker[i] = int32(i)
		c := uint16(i / 10 % 2)
		if rng.IntN(5) == 0 {
			c = 1 - c
		}
		class[i] = c
	}
	d, err := data.FromIndices(noisetest.Names("t", n/10), noisetest.Names("w", n), noisetest.Names("c", 2), task, worker, class)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestManyOneLabelWorkers fits every model of the paper on 10^5 workers with one label
// each (10^6, about a minute and 2.7 GB, with CONSENSUS_LARGE=1) and checks the results are finite.
func TestManyOneLabelWorkers(t *testing.T) {
	n, iters := 50_000, 5
	switch {
	case os.Getenv("CONSENSUS_LARGE") != "":
		n = 1_000_000
	case race.Enabled:
		n = 10_000 // still 10,000 one-label workers, at a fifth of the cost
	}
	d := manyWorkers(t, n)
	for _, e := range paperEstimators() {
		start := time.Now()
		r, err := e.Fit(context.Background(), d, &Settings{MaxIterations: iters})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, r)
		t.Logf("%s: %d workers, %d iterations in %v, %s", e.Name(), d.NumWorkers(), r.Iterations, time.Since(start), r.Status)
	}
}

// TestNoiseParamsFinite checks that every noise model's conditional
// probabilities at a fitted result on edge data are finite distributions.
func TestNoiseParamsFinite(t *testing.T) {
	d := edgeCases()[4].data(t) // adversarial workers
	for _, n := range []noise.Model{noise.DS{}, noise.GLAD{}, noise.MME{}} {
		for _, name := range []string{"la-", "da-"} {
			m := must(ByName(name + n.Name())).(Model)
			r, err := m.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			p := make([]float64, d.NumClasses())
			for w := range int32(d.NumWorkers()) {
				for z := range d.NumClasses() {
					r.Conditional(w, 0, z, p)
					var s float64
					for _, v := range p {
						if !(v >= 0 && v <= 1) {
							t.Fatalf("%s: P(·|%d) of worker %d = %v", m.Name(), z, w, p)
						}
						s += v
					}
					if math.Abs(s-1) > 1e-9 {
						t.Fatalf("%s: P(·|%d) of worker %d sums to %v", m.Name(), z, w, s)
					}
				}
			}
		}
	}
}

// TestBoundaryDuchenne checks the boundary policy on real data: DA-DS on
// Duchenne has confusion probabilities at 0 or 1, and with the default
// settings its logits stop growing far from overflow (|x| of about 67).
func TestBoundaryDuchenne(t *testing.T) {
	d, _, err := datasets.Load("duchenne")
	if err != nil {
		t.Fatal(err)
	}
	r, err := must(ByName("da-ds")).Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, r)
	var big float64
	for _, v := range r.Params {
		big = math.Max(big, math.Abs(v))
	}
	t.Logf("da-ds on duchenne: %d iterations, %s, max |x| %.1f", r.Iterations, r.Status, big)
	if big > 100 {
		t.Errorf("max |parameter| %.1f", big)
	}
}
