package dsmix

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/noise/internal/betaprior"
)

// checkPriorsStationary checks by central differences that the Beta
// priors x learned are a stationary point of their objective: at K = 2
// the one-coin counts' likelihood in (a, b); at K > 2 priorsStep's
// penalised one (package betaprior), ℓ_o(θ_o) + ℓ_c(θ_c) − p(λ_c − λ_o)²/2 with p the
// empirical Bayes precision at the learned values, in (η_o, λ_o, η_c,
// λ_c), or in (η_o, λ, η_c) where p is +Inf (tied). Each likelihood weighs
// a worker's counts by its probability of the kind; the tolerance is 10⁻⁴
// per worker, as the probabilities are those after learn's last step.
// Priors at their bounds (a or b at minSharedPrior, a + b at
// maxSharedConcentration) are not checked.
func checkPriorsStationary(t *testing.T, x *Mix) {
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
		tO := betaprior.Theta(x.a, x.b)
		f, at = lo, tO[:]
	} else {
		k := cl.k
		lc := func(th []float64) float64 {
			a, b := beta(th)
			return lik(a, b, cl.cz, cl.ez, func(i int) float64 { return cl.m[i/k] })
		}
		tO, tC := betaprior.Theta(x.a, x.b), betaprior.Theta(cl.a, cl.b)
		gO, hO := betaprior.Derivs(x.a, x.b, x.c, x.e, coin)
		u := make([]float64, len(cl.cz))
		for i := range u {
			u[i] = cl.m[i/k]
		}
		gC, hC := betaprior.Derivs(cl.a, cl.b, cl.cz, cl.ez, u)
		p := betaprior.ConcPrecision(tC[1]-tO[1], gO, gC, hO, hC)
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
