package model

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// liftMatrix returns the dense W×W matrix H of noise.Lift, built label
// pair by label pair.
func liftMatrix(d *data.Dataset) *mat.SymDense {
	k := float64(d.NumClasses())
	h := mat.NewSymDense(d.NumWorkers(), nil)
	for j := range d.Tasks {
		lo, hi := d.Offsets[j], d.Offsets[j+1]
		for i := lo; i < hi; i++ {
			for i2 := lo; i2 < hi; i2++ {
				a, b := int(d.Worker[i]), int(d.Worker[i2])
				if i == i2 || a > b {
					continue
				}
				v := -1 / k
				if d.Label[i] == d.Label[i2] {
					v++
				}
				if a == b {
					v *= 2 // both orders of the pair fall on the diagonal
				}
				h.SetSym(a, b, h.At(a, b)+v/k)
			}
		}
	}
	return h
}

// TestLift checks noise.Lift two ways on small crowds: H is the curvature
// of the LA minimax-entropy log-likelihood at the point where every worker
// answers at random, in the direction that gives worker w the matrix
// a_w (I − 11ᵀ/K) (a second finite difference of Model.LogLikelihood), and
// Lift is H's largest eigenvalue over K − 1 (gonum mat.EigenSym).
func TestLift(t *testing.T) {
	for _, tc := range []struct {
		k, workers, perTask int
		seed                uint64
	}{{2, 6, 3, 1}, {3, 8, 4, 2}, {5, 10, 3, 3}, {10, 12, 5, 4}} {
		t.Run(fmt.Sprintf("K=%d", tc.k), func(t *testing.T) {
			d, _, err := sim.Simulate(sim.Settings{Tasks: 40, Workers: tc.workers, Classes: tc.k, LabelsPerTask: tc.perTask,
				Activity: 0.7, Noise: noise.DS{}, Latent: latent.LA{}, Seed: tc.seed})
			if err != nil {
				t.Fatal(err)
			}
			h := liftMatrix(d)
			m := Model{Noise: noise.MME{}, Latent: latent.LA{}}
			k := tc.k
			dir := make([]float64, d.NumWorkers())
			rng := rand.New(rand.NewPCG(tc.seed, 9))
			for w := range dir {
				dir[w] = rng.NormFloat64()
			}
			x := make([]float64, m.NumParams(d))
			f := func(s float64) float64 {
				clear(x)
				ew, _, _, _ := m.Layout(d).Split(x)
				for w, a := range dir {
					for z := range k {
						for y := range k {
							v := -s * a / float64(k)
							if y == z {
								v += s * a
							}
							ew[w*k*k+z*k+y] = v
						}
					}
				}
				return m.LogLikelihood(d, x, make([]float64, len(x)), 1)
			}
			got := fd.Derivative(f, 0, &fd.Settings{Formula: fd.Central2nd, Step: 1e-3})
			want := mat.Inner(mat.NewVecDense(len(dir), dir), h, mat.NewVecDense(len(dir), dir))
			if math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
				t.Errorf("curvature %.6g by finite differences, aᵀHa = %.6g", got, want)
			}
			var eig mat.EigenSym
			if !eig.Factorize(h, false) {
				t.Fatal("EigenSym failed")
			}
			vals := eig.Values(nil)
			top := max(vals[len(vals)-1], 0) / float64(k-1)
			if lift := noise.Lift(d, math.Inf(1)); math.Abs(lift-top) > 1e-3*math.Max(1, top) {
				t.Errorf("Lift %.6g, largest eigenvalue of H over K − 1 %.6g", lift, top)
			}
		})
	}
}

// TestRegMMESparse is the regression test for regularised minimax entropy
// on crowds of few labels a worker and many classes (1000 tasks of 3
// labels from 60 workers of accuracy U[0.45, 0.9], 10% spammers), where
// the published penalty α = K²/4 makes every task's posterior uniform: with
// α at most Lift/4, la-rmme must be at most 3 points below majority vote,
// and its log loss (base K) at most 0.8.
func TestRegMMESparse(t *testing.T) {
	acc, err := sim.ParseRanges("0.45:0.9")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{5, 10} {
		t.Run(fmt.Sprintf("K=%d", k), func(t *testing.T) {
			c, err := sim.Settings{Tasks: 1000, Workers: 60, Classes: k, LabelsPerTask: 3, Spammers: 0.1,
				Noise: noise.DS{}, Latent: latent.LA{}, Seed: uint64(k + 3)}.WithPopulation(sim.Population{Accuracy: acc})
			if err != nil {
				t.Fatal(err)
			}
			d, tr, err := sim.Simulate(c)
			if err != nil {
				t.Fatal(err)
			}
			gold := tr.Gold()
			mv := must(metrics.Accuracy(d.Frequencies(), k, gold, 1))
			for _, tc := range []struct {
				name string
				m    noise.RegMME
			}{{"default", noise.RegMME{}}, {"K²/4", noise.RegMME{Alpha: float64(k*k) / 4}}} {
				alpha, _ := tc.m.Weights(d)
				r, err := Model{Noise: tc.m, Latent: latent.LA{}}.Fit(context.Background(), d, &Settings{Threads: 1})
				if err != nil {
					t.Fatal(err)
				}
				acc := must(metrics.Accuracy(r.Probs, k, gold, 1))
				ll := must(metrics.LogLoss(r.Probs, k, gold))
				t.Logf("%s, alpha %.3f: accuracy %.4f, log loss %.4f; majority vote %.4f", tc.name, alpha, acc, ll, mv)
				switch uniform := ll > 0.99; {
				case tc.name == "default" && (acc < mv-0.03 || ll > 0.8):
					t.Errorf("accuracy %.4f (majority vote %.4f), log loss %.4f", acc, mv, ll)
				case tc.name != "default" && !uniform:
					t.Errorf("the published penalty no longer leaves the posteriors uniform: the crowd no longer shows what the cap is for")
				}
			}
		})
	}
}

// TestRegMMEWeightsDense checks that the cap of RegMME's default α leaves
// the published K²/4 on the shipped data sets (websearch, K = 5, has the
// least room: Lift 35 against K² = 25).
func TestRegMMEWeightsDense(t *testing.T) {
	for _, name := range []string{"adult", "duchenne", "rte", "temp", "trec2010", "websearch"} {
		d, _ := shippedData(t, name)
		k := float64(d.NumClasses())
		if alpha, _ := (noise.RegMME{}).Weights(d); alpha != k*k/4 {
			t.Errorf("%s: alpha %v, want K²/4 = %v", name, alpha, k*k/4)
		}
	}
}
