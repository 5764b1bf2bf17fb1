package noise

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/consensuslab/consensus/internal/num"
)

// TestBetaDerivs checks the gradient and the Hessian of the Beta
// prior's log likelihood in θ = (logit μ, log s) against central
// differences of the likelihood itself.
func TestBetaDerivs(t *testing.T) {
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
		th := betaTheta(ab[0], ab[1])
		g, h := betaDerivs(ab[0], ab[1], c, e, u)
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

// shrinkMix returns a dsMix at K = 3 whose one-coin workers' counts
// (n labels each, accuracy ~ Beta(mu*s, (1 − mu)*s)) and per-class rows'
// counts (nc labels a row, accuracy ~ Beta(muC*sC, (1 − muC)*sC)) are
// drawn, every worker of weight 1 in both kinds.
func shrinkMix(w, n, nc int, mu, s, muC, sC float64) *dsMix {
	const k = 3
	rng := rand.New(rand.NewPCG(7, 8))
	x := newDSMix(w, k, 1, 1)
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
	for i := range w {
		x.c[i], x.e[i] = draw(mu, s, n)
		for z := range k {
			x.cls.cz[i*k+z], x.cls.ez[i*k+z] = draw(muC, sC, nc)
			x.cls.u[i*k+z] = 1
		}
	}
	return x
}

// stepsToRest runs priorsStep from the mixture's values until they move by
// less than 10⁻¹⁰ of themselves, at most 500 times, and reports whether
// they settled.
func (x *dsMix) stepsToRest(u []float64) bool {
	for range 500 {
		a, b, ac, bc := x.priorsStep(u)
		done := true
		for _, p := range [][2]float64{{a, x.a}, {b, x.b}, {ac, x.cls.a}, {bc, x.cls.b}} {
			done = done && math.Abs(p[0]-p[1]) <= 1e-10*p[1]
		}
		x.a, x.b, x.cls.a, x.cls.b = a, b, ac, bc
		if done {
			return true
		}
	}
	return false
}

// TestPriorsStep checks the joint step on the two kinds' Beta priors at
// its fixed point: the means are each kind's own (the gradient in each
// logit μ is zero); the log concentrations are tied where the data do not
// tell them apart (light workers of the same spread of accuracies and
// different means) and barely shrunk where they do (busy workers, spreads
// 40 and 3), the penalised objective's gradient zero in both cases.
func TestPriorsStep(t *testing.T) {
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
			x := shrinkMix(400, c.n, c.nc, c.mu, c.s, c.muC, c.sC)
			u := make([]float64, len(x.c))
			for i := range u {
				u[i] = 1
			}
			if !x.stepsToRest(u) {
				t.Fatalf("no fixed point: (a, b) = (%g, %g), (a_c, b_c) = (%g, %g)", x.a, x.b, x.cls.a, x.cls.b)
			}
			cl := x.cls
			s, sc := x.a+x.b, cl.a+cl.b
			t.Logf("(a, b) = (%.3f, %.3f), (a_c, b_c) = (%.3f, %.3f)", x.a, x.b, cl.a, cl.b)
			if tied := math.Abs(s-sc) <= 1e-9*s; tied != c.tied {
				t.Errorf("concentrations %g and %g: tied %v, want %v", s, sc, tied, c.tied)
			}
			for _, p := range [][2]float64{{s, c.wantS}, {sc, c.wantC}} {
				if math.Abs(math.Log(p[0]/p[1])) > math.Log(1.35) {
					t.Errorf("concentration %g, want %g within 35%%", p[0], p[1])
				}
			}
			for _, p := range [][2]float64{{x.a / s, c.mu}, {cl.a / sc, c.muC}} {
				if math.Abs(p[0]-p[1]) > 0.05 {
					t.Errorf("mean %g, want %g", p[0], p[1])
				}
			}
			gO, hO := betaDerivs(x.a, x.b, x.c, x.e, u)
			gC, hC := betaDerivs(cl.a, cl.b, cl.cz, cl.ez, cl.u)
			delta := math.Log(sc / s)
			prec := concPrecision(delta, gO, gC, hO, hC)
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
		got := concPrecision(c.at1-c.at0, gO, gC, hO, hC)
		if math.IsInf(c.want, 1) != math.IsInf(got, 1) || (!math.IsInf(got, 1) && math.Abs(got-c.want) > 1e-12) {
			t.Errorf("%+v: precision %g, want %g", c, got, c.want)
		}
	}
	if p := concPrecision(0, [2]float64{}, [2]float64{}, [2][2]float64{{1, 0}, {0, -1}}, [2][2]float64{{-1, 0}, {0, -1}}); p != 0 {
		t.Errorf("no negative definite Hessian: precision %g, want 0 (free)", p)
	}
}

// checkPriorsStationary checks by central differences that the Beta
// priors x learned are a stationary point of their objective: at K = 2
// the one-coin counts' likelihood in (a, b); at K > 2 priorsStep's
// penalised one, ℓ_o(θ_o) + ℓ_c(θ_c) − p(λ_c − λ_o)²/2 with p the
// empirical Bayes precision at the learned values, in (η_o, λ_o, η_c,
// λ_c), or in (η_o, λ, η_c) where p is +Inf (tied). Each likelihood weighs
// a worker's counts by its probability of the kind; the tolerance is 10⁻⁴
// per worker, as the probabilities are those after learn's last step.
// Priors at their bounds (a or b at minSharedPrior, a + b at
// maxSharedConcentration) are not checked.
func checkPriorsStationary(t *testing.T, x *dsMix) {
	t.Helper()
	cl := x.cls
	coin := make([]float64, len(x.m))
	for w, m := range x.m {
		coin[w] = 1 - m
		if cl != nil {
			coin[w] = max(coin[w]-cl.m[w], 0)
		}
	}
	lik := func(a, b float64, c, e []float64, u func(i int) float64) float64 {
		var l float64
		for i := range c {
			if c[i]+e[i] > 0 {
				l += u(i) * (num.LogBeta(a+c[i], b+e[i]) - num.LogBeta(a, b))
			}
		}
		return l
	}
	beta := func(th []float64) (float64, float64) {
		s, mu := math.Exp(th[1]), 1/(1+math.Exp(-th[0]))
		return mu * s, (1 - mu) * s
	}
	lo := func(th []float64) float64 {
		a, b := beta(th)
		return lik(a, b, x.c, x.e, func(i int) float64 { return coin[i] })
	}
	var f func([]float64) float64
	var at []float64
	if cl == nil {
		tO := betaTheta(x.a, x.b)
		f, at = lo, tO[:]
	} else {
		k := cl.k
		lc := func(th []float64) float64 {
			a, b := beta(th)
			return lik(a, b, cl.cz, cl.ez, func(i int) float64 { return cl.m[i/k] })
		}
		tO, tC := betaTheta(x.a, x.b), betaTheta(cl.a, cl.b)
		gO, hO := betaDerivs(x.a, x.b, x.c, x.e, coin)
		u := make([]float64, len(cl.cz))
		for i := range u {
			u[i] = cl.m[i/k]
		}
		gC, hC := betaDerivs(cl.a, cl.b, cl.cz, cl.ez, u)
		p := concPrecision(tC[1]-tO[1], gO, gC, hO, hC)
		t.Logf("(a, b) = (%.4g, %.4g), (a_c, b_c) = (%.4g, %.4g), precision %.3g", x.a, x.b, cl.a, cl.b, p)
		if math.IsInf(p, 1) {
			if math.Abs(tC[1]-tO[1]) > 1e-9 {
				t.Errorf("tied concentrations %g and %g differ", x.a+x.b, cl.a+cl.b)
			}
			f = func(v []float64) float64 { return lo(v[0:2]) + lc([]float64{v[2], v[1]}) }
			at = []float64{tO[0], tO[1], tC[0]}
		} else {
			f = func(v []float64) float64 {
				d := v[3] - v[1]
				return lo(v[0:2]) + lc(v[2:4]) - p*d*d/2
			}
			at = []float64{tO[0], tO[1], tC[0], tC[1]}
		}
	}
	bound := x.a+x.b >= maxSharedConcentration*(1-1e-9) || min(x.a, x.b) <= minSharedPrior*(1+1e-9)
	if cl != nil {
		bound = bound || cl.a+cl.b >= maxSharedConcentration*(1-1e-9) || min(cl.a, cl.b) <= minSharedPrior*(1+1e-9)
	}
	if bound {
		t.Logf("a prior at its bounds: no stationary point to check")
		return
	}
	g := fd.Gradient(nil, f, at, &fd.Settings{Formula: fd.Central, Step: 1e-5})
	t.Logf("gradient %.3g at %.4g", g, at)
	for i, v := range g {
		if math.Abs(v) > 1e-4*float64(len(x.m)) {
			t.Errorf("gradient[%d] = %g at the learned priors", i, v)
		}
	}
}
