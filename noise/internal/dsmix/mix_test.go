package dsmix

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// mixCounts returns the expected counts (laid out as dsVB's accumulator)
// of a crowd at K = 3 whose true classes are known: one-coin workers of
// accuracy a_w ~ Beta(8, 2), errors uniform, perRow labels a class each
// (the first sparse of them with one label a class), then structured
// workers who call class 0 class 1 with probability 0.7 and are right
// with probability 0.9 on the other classes.
func mixCounts(coin, sparse, structured, perRow int) (acc []float64, k int) {
	k = 3
	rng := rand.New(rand.NewPCG(3, 4))
	acc = make([]float64, (coin+structured)*k*k)
	acc0 := distuv.Beta{Alpha: 8, Beta: 2, Src: rng}
	for w := range coin + structured {
		base := w * k * k
		a := acc0.Rand()
		n := perRow
		if w < sparse {
			n = 1
		}
		for z := range k {
			for range n {
				y := z
				switch {
				case w >= coin && z == 0:
					if rng.Float64() < 0.7 {
						y = 1
					}
				case w >= coin:
					if rng.Float64() > 0.9 {
						y = (z + 1 + rng.IntN(k-1)) % k
					}
				case rng.Float64() > a:
					y = (z + 1 + rng.IntN(k-1)) % k
				}
				acc[countAt(base, k, z, y)]++
			}
		}
	}
	return acc, k
}

// TestMixKinds checks DS.Averaged's kinds on a crowd of known classes:
// the workers with a systematic confusion are of the full kind, the
// one-coin workers (busy or with one label a class) of the one-coin kind,
// and the one-coin prior's mean is the one-coin workers' mean accuracy,
// 0.8, within the sampling error of 300 workers.
func TestMixKinds(t *testing.T) {
	const coin, sparse, structured = 300, 100, 40
	acc, k := mixCounts(coin, sparse, structured, 60)
	x := New(coin+structured, k, DefaultPriorDiag, DefaultPriorOff)
	prior := func(z, y int) float64 {
		if z == y {
			return DefaultPriorDiag
		}
		return DefaultPriorOff
	}
	x.Counts(acc, k, prior, prior)
	x.Learn(k)
	mean := func(lo, hi int) float64 {
		var s float64
		for _, m := range x.m[lo:hi] {
			s += m
		}
		return s / float64(hi-lo)
	}
	sp, busy, st := mean(0, sparse), mean(sparse, coin), mean(coin, coin+structured)
	t.Logf("mean m: sparse one-coin %.3f, busy one-coin %.3f, structured %.3f; ρ %.3f, prior Beta(%.2f, %.2f)", sp, busy, st, x.rho, x.a, x.b)
	if st < 0.99 || busy > 0.05 || sp > 0.5 {
		t.Errorf("kinds: structured workers %.3f full, busy one-coin %.3f, sparse one-coin %.3f", st, busy, sp)
	}
	if got := x.a / (x.a + x.b); math.Abs(got-0.8) > 0.02 {
		t.Errorf("one-coin prior mean %.3f, want 0.8", got)
	}
}

// TestMixPriorGradient checks that learn, over passes, ends at a
// stationary point of the Beta priors' objective (at K = 3, the one-coin
// and the per-class kinds' joint one, checkPriorsStationary).
func TestMixPriorGradient(t *testing.T) {
	acc, k := mixCounts(200, 50, 20, 30)
	x := New(220, k, DefaultPriorDiag, DefaultPriorOff)
	x.Counts(acc, k, func(z, y int) float64 { return 1 }, func(z, y int) float64 { return 1 })
	// A pass takes at most classSteps steps at K > 2; the fit carries the
	// values over its passes.
	for range 30 {
		x.Learn(k)
	}
	checkPriorsStationary(t, x)
}

// The fixed prior's pseudo-counts of noise.DS, which the tests start from.
const (
	DefaultPriorDiag = 2
	DefaultPriorOff  = 1
)

// sum returns the sum of x.
func sum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}
