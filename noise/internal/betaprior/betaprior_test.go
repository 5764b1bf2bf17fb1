package betaprior

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/consensuslab/consensus/internal/num"
)

// TestDerivs checks the gradient and the Hessian of the Beta
// prior's log likelihood in θ = (logit μ, log s) against central
// differences of the likelihood itself.
func TestDerivs(t *testing.T) {
	c := []float64{3, 0, 7.5, 1, 0}
	e := []float64{1, 2, 0.5, 0, 0}
	u := []float64{1, 0.3, 0.8, 1, 1}
	for _, ab := range [][2]float64{{2, 1}, {0.7, 3}, {30, 12}} {
		lik := func(th []float64) float64 {
			s := math.Exp(th[1])
			mu := 1 / (1 + math.Exp(-th[0]))
			a, b := mu*s, (1-mu)*s
			var l float64
			for i := range c {
				l += u[i] * (num.LogBeta(a+c[i], b+e[i]) - num.LogBeta(a, b))
			}
			return l
		}
		th := Theta(ab[0], ab[1])
		g, h := Derivs(ab[0], ab[1], c, e, u)
		wantG := fd.Gradient(nil, lik, th[:], &fd.Settings{Formula: fd.Central, Step: 1e-5})
		wantH := mat.NewSymDense(2, nil)
		fd.Hessian(wantH, lik, th[:], &fd.Settings{Formula: fd.Central, Step: 1e-4})
		for i := range 2 {
			if math.Abs(g[i]-wantG[i]) > 1e-6*(1+math.Abs(wantG[i])) {
				t.Errorf("(a, b) = %v: gradient %d = %g, differences %g", ab, i, g[i], wantG[i])
			}
			for j := range 2 {
				if w := wantH.At(i, j); math.Abs(h[i][j]-w) > 1e-4*(1+math.Abs(w)) {
					t.Errorf("(a, b) = %v: Hessian %d,%d = %g, differences %g", ab, i, j, h[i][j], w)
				}
			}
		}
	}
}

// kinds holds the counts of the two kinds and the priors learned.
type kinds struct {
	c, e, u    []float64 // the one-coin workers' counts and weights
	cc, ec, uc []float64 // the per-class rows'
	a, b       float64
	ac, bc     float64
}

var testBounds = Bounds{Min: 0.05, MaxSum: 50}

// drawKinds returns w one-coin workers' counts (n labels each, accuracy
// ~ Beta(mu*s, (1 − mu)*s)) and 3w per-class rows' counts (nc labels a
// row, accuracy ~ Beta(muC*sC, (1 − muC)*sC)), every weight 1, with the
// priors at (1, 1).
func drawKinds(w, n, nc int, mu, s, muC, sC float64) *kinds {
	rng := rand.New(rand.NewPCG(7, 8))
	draw := func(mu, s float64, n int) (c, e float64) {
		p := distuv.Beta{Alpha: mu * s, Beta: (1 - mu) * s, Src: rng}.Rand()
		for range n {
			if rng.Float64() < p {
				c++
			} else {
				e++
			}
		}
		return c, e
	}
	x := &kinds{a: 1, b: 1, ac: 1, bc: 1}
	for range w {
		c, e := draw(mu, s, n)
		x.c, x.e, x.u = append(x.c, c), append(x.e, e), append(x.u, 1)
		for range 3 {
			c, e := draw(muC, sC, nc)
			x.cc, x.ec, x.uc = append(x.cc, c), append(x.ec, e), append(x.uc, 1)
		}
	}
	return x
}

// derivs returns both kinds' gradients and Hessians at the priors.
func (x *kinds) derivs() (gO, gC [2]float64, hO, hC [2][2]float64) {
	gO, hO = Derivs(x.a, x.b, x.c, x.e, x.u)
	gC, hC = Derivs(x.ac, x.bc, x.cc, x.ec, x.uc)
	return gO, gC, hO, hC
}

// toRest takes Steps until the priors move by less than 10⁻¹⁰ of
// themselves, at most 500, and reports whether they settled.
func (x *kinds) toRest() bool {
	for range 500 {
		gO, gC, hO, hC := x.derivs()
		a, b, ac, bc := testBounds.Step(x.a, x.b, x.ac, x.bc, gO, gC, hO, hC)
		done := true
		for _, p := range [][2]float64{{a, x.a}, {b, x.b}, {ac, x.ac}, {bc, x.bc}} {
			done = done && math.Abs(p[0]-p[1]) <= 1e-10*p[1]
		}
		x.a, x.b, x.ac, x.bc = a, b, ac, bc
		if done {
			return true
		}
	}
	return false
}

// TestStep checks the joint step on the two kinds' Beta priors at its
// fixed point: the means are each kind's own (the gradient in each
// logit μ is zero); the log concentrations are tied where the data do not
// tell them apart (light workers of the same spread of accuracies and
// different means) and barely shrunk where they do (busy workers, spreads
// 40 and 3), the penalised objective's gradient zero in both cases.
func TestStep(t *testing.T) {
	cases := []struct {
		name         string
		n, nc        int
		mu, s        float64
		muC, sC      float64
		tied         bool
		wantS, wantC float64 // the concentrations, within 35%
	}{
		{"light, one spread", 4, 1, 0.8, 10, 0.6, 10, true, 10, 10},
		{"busy, two spreads", 60, 30, 0.3, 40, 0.8, 3, false, 40, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := drawKinds(400, c.n, c.nc, c.mu, c.s, c.muC, c.sC)
			if !x.toRest() {
				t.Fatalf("no fixed point: (a, b) = (%g, %g), (a_c, b_c) = (%g, %g)", x.a, x.b, x.ac, x.bc)
			}
			s, sc := x.a+x.b, x.ac+x.bc
			t.Logf("(a, b) = (%.3f, %.3f), (a_c, b_c) = (%.3f, %.3f)", x.a, x.b, x.ac, x.bc)
			if tied := math.Abs(s-sc) <= 1e-9*s; tied != c.tied {
				t.Errorf("concentrations %g and %g: tied %v, want %v", s, sc, tied, c.tied)
			}
			for _, p := range [][2]float64{{s, c.wantS}, {sc, c.wantC}} {
				if math.Abs(math.Log(p[0]/p[1])) > math.Log(1.35) {
					t.Errorf("concentration %g, want %g within 35%%", p[0], p[1])
				}
			}
			for _, p := range [][2]float64{{x.a / s, c.mu}, {x.ac / sc, c.muC}} {
				if math.Abs(p[0]-p[1]) > 0.05 {
					t.Errorf("mean %g, want %g", p[0], p[1])
				}
			}
			gO, gC, hO, hC := x.derivs()
			delta := math.Log(sc / s)
			prec := ConcPrecision(delta, gO, gC, hO, hC)
			grads := []float64{gO[0], gC[0], gO[1] + gC[1]}
			if !c.tied {
				grads = append(grads, gC[1]-prec*delta)
			}
			for i, g := range grads {
				if math.Abs(g) > 1e-6 {
					t.Errorf("gradient %d of the penalised objective = %g", i, g)
				}
			}
		})
	}
}

// TestBounds checks that Beta keeps a and b at least Min and a + b at
// most MaxSum, and that a tied step keeps one concentration within both
// kinds' bounds: a one-coin mean near 1 (b at its bound) raises the
// shared concentration of both.
func TestBounds(t *testing.T) {
	for _, th := range [][2]float64{{0, 10}, {8, 0}, {-9, -3}, {12, 1}, {0.5, -8}} {
		a, b := testBounds.Beta(th)
		if a < testBounds.Min*(1-1e-12) || b < testBounds.Min*(1-1e-12) || a+b > testBounds.MaxSum*(1+1e-12) {
			t.Errorf("θ = %v: (a, b) = (%g, %g) out of bounds", th, a, b)
		}
	}
	// Light one-coin workers nearly always right, light per-class rows of
	// accuracy 0.6: the concentrations are tied, with b at its bound.
	x := drawKinds(300, 4, 1, 0.995, 40, 0.6, 5)
	if !x.toRest() {
		t.Fatalf("no fixed point: (a, b) = (%g, %g), (a_c, b_c) = (%g, %g)", x.a, x.b, x.ac, x.bc)
	}
	t.Logf("(a, b) = (%.4g, %.4g), (a_c, b_c) = (%.4g, %.4g)", x.a, x.b, x.ac, x.bc)
	if min(x.a, x.b, x.ac, x.bc) < testBounds.Min*(1-1e-12) {
		t.Errorf("a prior below its bound")
	}
}

// TestConcPrecision checks the empirical Bayes precision of the
// difference of the log concentrations on quadratic likelihoods, where
// the free estimates are known: with curvatures −1/v_o and −1/v_c and
// maxima λ_o* and λ_c*, δ̂ = λ_c* − λ_o* wherever the step starts, and
// 1/τ² = 1/(δ̂² − v_o − v_c), or +Inf when that is not positive.
func TestConcPrecision(t *testing.T) {
	for _, c := range []struct{ lo, lc, vo, vc, at0, at1, want float64 }{
		{0, 2, 0.5, 0.5, 0, 0, 1.0 / 3},
		{0, 2, 0.5, 0.5, 1, 1.5, 1.0 / 3},
		{1, 1.5, 0.2, 0.1, 1, 1, math.Inf(1)},
		{3, 1, 0.01, 0.03, 2, 2, 1 / 3.96},
	} {
		// Quadratic in λ, and in η with unit curvature about 0.
		hO := [2][2]float64{{-1, 0}, {0, -1 / c.vo}}
		hC := [2][2]float64{{-1, 0}, {0, -1 / c.vc}}
		gO := [2]float64{0, (c.lo - c.at0) / c.vo}
		gC := [2]float64{0, (c.lc - c.at1) / c.vc}
		got := ConcPrecision(c.at1-c.at0, gO, gC, hO, hC)
		if math.IsInf(c.want, 1) != math.IsInf(got, 1) || (!math.IsInf(got, 1) && math.Abs(got-c.want) > 1e-12) {
			t.Errorf("%+v: precision %g, want %g", c, got, c.want)
		}
	}
	if p := ConcPrecision(0, [2]float64{}, [2]float64{}, [2][2]float64{{1, 0}, {0, -1}}, [2][2]float64{{-1, 0}, {0, -1}}); !math.IsInf(p, 1) {
		t.Errorf("no negative definite Hessian: precision %g, want +Inf (tied)", p)
	}
}
