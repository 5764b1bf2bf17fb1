package dirichlet

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestSampledPrecision draws every worker's errors from Dirichlet(κ μ_z)
// and counts from them, and checks that Sampled.Precision recovers κ
// within 15%, and returns the upper bound where the errors are all alike
// (κ = ∞).
func TestSampledPrecision(t *testing.T) {
	const k, workers, labels = 4, 3000, 12
	mu := make([]float64, k*k)
	for z := range k {
		for y := range k {
			if y != z {
				mu[z*k+y] = []float64{0.5, 0.3, 0.2}[(y-z+k)%k-1]
			}
		}
	}
	for i, kap := range []float64{0.5, 3, 20, math.Inf(1)} {
		rng := rand.New(rand.NewPCG(1, uint64(i)))
		var s Sampled
		off := make([]int32, k*k)
		eps := make([]float64, k)
		for range workers {
			clear(off)
			for z := range k {
				var sum float64
				for y := range k {
					eps[y] = 0
					if y == z {
						continue
					}
					eps[y] = mu[z*k+y]
					if !math.IsInf(kap, 1) {
						eps[y] = distuv.Gamma{Alpha: kap * mu[z*k+y], Beta: 1, Src: rng}.Rand()
					}
					sum += eps[y]
				}
				for range labels {
					u := rng.Float64() * sum
					for y := range k {
						if u -= eps[y]; u < 0 && y != z {
							off[z*k+y]++
							break
						}
					}
				}
			}
			s.Add(k, off, 1)
		}
		const lo, hi = 0.05, 50
		got := s.Precision(mu, lo, hi)
		want := min(kap, hi)
		t.Logf("κ %g: estimated %.3f", kap, got)
		if math.Abs(got-want) > 0.15*want {
			t.Errorf("κ %g: estimated %.3f, want within 15%% of %g", kap, got, want)
		}
	}
}
