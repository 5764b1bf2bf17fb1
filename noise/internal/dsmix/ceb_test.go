package dsmix

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/floats"
)

// cebCrowd returns a CavityEB of workers drawn from a two-kind crowd at
// K = 2: a share full of full workers, each row's accuracy ~ Beta(8, 2),
// the others one-coin with accuracy ~ Beta(3, 2); every worker has
// between 1 and maxN labels (and the first few 100, which enter with
// their expected counts), each task's cavity probability of its class
// drawn around its true class.
func cebCrowd(seed uint64, workers, maxN int, full float64) *CavityEB {
	rng := rand.New(rand.NewPCG(seed, 7))
	beta := func(a, b float64) float64 { // by the ratio of two gammas of integer shape
		g := func(s float64) float64 {
			var x float64
			for range int(s) {
				x -= math.Log(rng.Float64())
			}
			return x
		}
		x := g(a)
		return x / (x + g(b))
	}
	var e CavityEB
	for w := range workers {
		n := 1 + rng.IntN(maxN)
		if w < 3 {
			n = 100
		}
		var acc [2]float64
		if rng.Float64() < full {
			acc = [2]float64{beta(8, 2), beta(8, 2)}
		} else {
			a := beta(3, 2)
			acc = [2]float64{a, a}
		}
		y, q0 := make([]int, n), make([]float64, n)
		for i := range n {
			z := rng.IntN(2)
			y[i] = z
			if rng.Float64() > acc[z] {
				y[i] = 1 - z
			}
			sure := 0.6 + 0.4*rng.Float64()
			q0[i] = sure
			if z == 1 {
				q0[i] = 1 - sure
			}
		}
		e.Add(y, q0)
	}
	return &e
}

// TestCavityEBGradient checks the gradients of LogLik and of its tied
// form (Maximise's) against central finite differences (gonum's fd) at
// points of the parameter space, on a crowd
// whose workers enter with their counts' distributions and with their
// expected counts.
func TestCavityEBGradient(t *testing.T) {
	e := cebCrowd(1, 200, 12, 0.4)
	for _, st := range [][]float64{
		{2, 1, 1, 2, 0.5, 2, 1},
		{30, 20, 10, 40, 0.9, 40, 10},
		{0.5, 3, 4, 0.7, 0.1, 1.5, 6},
	} {
		for _, c := range []struct {
			name string
			f    func(x, grad []float64) float64
			x    []float64
		}{{"free", e.LogLik, cebPoint(st)}, {"tied", e.tiedLogLik, tiedStart(st)}} {
			got := make([]float64, len(c.x))
			c.f(c.x, got)
			want := fd.Gradient(nil, func(x []float64) float64 { return c.f(x, nil) }, c.x, &fd.Settings{Formula: fd.Central, Step: 1e-5})
			if !floats.EqualApprox(got, want, 1e-5*(1+floats.Norm(want, math.Inf(1)))) {
				t.Errorf("state %v, %s: gradient %.6g, finite differences %.6g", st, c.name, got, want)
			}
		}
	}
}

// TestCavityEBMaximise checks Maximise on a crowd of two kinds (cebCrowd,
// its cavity probabilities noisy, so that the truth is not the
// maximiser): the state it returns is within the bounds, its objective is
// at least the start's and the truth's tied forms' (ρ at its floor, as
// Maximise holds it), and no step of 0.05
// along any coordinate of the tied parameters (a direct search around it)
// raises the objective by more than 10⁻⁶ of itself.
func TestCavityEBMaximise(t *testing.T) {
	e := cebCrowd(2, 2000, 10, 0.3)
	start := []float64{35, 15, 15, 35, 0.98, 35, 15} // a collapsed fit's
	truth := []float64{8, 2, 2, 8, 0.3, 6, 4}        // Beta(3, 2) at the rows' concentration
	st, ok := e.Maximise(start)
	if !ok {
		t.Fatal("Maximise failed")
	}
	x := tiedStart(st)
	f := e.tiedLogLik(x, nil)
	t.Logf("state %.4g, objective %.6g; start %.6g, truth %.6g", st, f, e.tiedLogLik(tiedStart(start), nil), e.tiedLogLik(tiedStart(truth), nil))
	for _, s := range [][]float64{start, truth} {
		if g := e.tiedLogLik(tiedStart(s), nil); g > f {
			t.Errorf("objective %.6g at %v, above the maximiser's %.6g", g, s, f)
		}
	}
	if st[0]+st[1] > MaxConcentration*(1+1e-12) || st[4] != minMixShare || min(st[5], st[6]) < MinPrior {
		t.Errorf("state %v out of bounds", st)
	}
	for i := range x {
		for _, h := range []float64{-0.05, 0.05} {
			y := append([]float64(nil), x...)
			y[i] += h
			if g := e.tiedLogLik(y, nil); g > f+1e-6*math.Abs(f) {
				t.Errorf("coordinate %d moved by %g: objective %.8g, above the maximiser's %.8g", i, h, g, f)
			}
		}
	}
}

// cebPoint returns LogLik's vector of the state st.
func cebPoint(st []float64) []float64 {
	r := min(max(st[4], minMixShare), 1-minMixShare)
	return []float64{math.Log(r / (1 - r)), math.Log(st[5]), math.Log(st[6]), math.Log(st[0]), math.Log(st[1]), math.Log(st[2]), math.Log(st[3])}
}
