package num

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestBetaBinomialStep checks that BetaBinomialStep, repeated, ends at a
// stationary point of the weighted Beta-binomial likelihood (its gradient
// by finite differences) near the Beta(6, 2) the counts were drawn from,
// for counts of every weight, including zero weights and empty counts.
func TestBetaBinomialStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 4000
	c, e, u := make([]float64, n), make([]float64, n), make([]float64, n)
	acc := distuv.Beta{Alpha: 6, Beta: 2, Src: rng}
	for i := range n {
		// A Beta(6, 2) accuracy, and up to 30 trials.
		p, trials := acc.Rand(), rng.IntN(31)
		for range trials {
			if rng.Float64() < p {
				c[i]++
			} else {
				e[i]++
			}
		}
		u[i] = float64(rng.IntN(3)) / 2 // 0, 0.5 or 1
	}
	a, b := 1.0, 1.0
	for range 200 {
		a, b = BetaBinomialStep(a, b, c, e, u)
	}
	lik := func(p []float64) float64 {
		var l float64
		for i := range u {
			if c[i]+e[i] > 0 {
				l += u[i] * (LogBeta(p[0]+c[i], p[1]+e[i]) - LogBeta(p[0], p[1]))
			}
		}
		return l
	}
	g := fd.Gradient(nil, lik, []float64{a, b}, &fd.Settings{Formula: fd.Central})
	t.Logf("Beta(%.3f, %.3f), gradient %.3g", a, b, g)
	for i, v := range g {
		if math.Abs(v) > 1e-6*n {
			t.Errorf("gradient[%d] = %g at the end", i, v)
		}
	}
	if math.Abs(a/(a+b)-0.75) > 0.02 || math.Abs(a+b-8) > 2 {
		t.Errorf("Beta(%.3f, %.3f), want about Beta(6, 2)", a, b)
	}
}
