package num

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMixtureWeights checks MixtureWeights against the maximiser found by
// a fine search over the floored simplex (k = 3), on items drawn from a
// mixture of three components, on components that explain the items
// almost alike (where EM alone crawls), and with a weight held at the
// floor; and that ℓ at its result is at least the search's.
func TestMixtureWeights(t *testing.T) {
	const floor = 0.02
	for _, c := range []struct {
		name string
		// sep scales how far the components' likelihoods differ; share
		// is the share of items from each component.
		sep   float64
		share []float64
	}{
		{"distinct", 1, []float64{0.2, 0.5, 0.3}},
		{"alike", 0.02, []float64{0.1, 0.6, 0.3}},
		{"one absent", 1, []float64{0, 0.7, 0.3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 8))
			const n = 1000
			lik := make([]float64, 3*n)
			for i := range n {
				u, z := rng.Float64(), 0
				for z < 2 && u >= c.share[z] {
					u -= c.share[z]
					z++
				}
				for j := range 3 {
					v := rng.NormFloat64() * c.sep
					if j == z {
						v += 2 * c.sep
					}
					lik[3*i+j] = math.Exp(v)
				}
			}
			p := []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
			got := MixtureWeights(lik, 3, floor, p)
			// The search: a grid of step 0.005, then finer ones around its best.
			best, bp := math.Inf(-1), []float64{0, 0, 0}
			search := func(c1, c2, h float64, m int) {
				for a := -m; a <= m; a++ {
					for b := -m; b <= m; b++ {
						q := []float64{c1 + float64(a)*h, c2 + float64(b)*h, 0}
						q[2] = 1 - q[0] - q[1]
						if q[0] < floor || q[1] < floor || q[2] < floor {
							continue
						}
						if l := mixtureLogLik(lik, 3, q); l > best {
							best, bp = l, q
						}
					}
				}
			}
			search(0.5, 0.5, 0.005, 100)
			search(bp[0], bp[1], 2.5e-4, 20)
			search(bp[0], bp[1], 1e-5, 25)
			t.Logf("weights %.5f, ℓ %.6f; search %.5f, ℓ %.6f", p, got, bp, best)
			if got < best-1e-6 {
				t.Errorf("ℓ %.8f below the search's %.8f", got, best)
			}
			for z := range p {
				if math.Abs(p[z]-bp[z]) > 2e-4 || p[z] < floor-1e-15 {
					t.Errorf("weight %d: %.6f, search %.6f (floor %g)", z, p[z], bp[z], floor)
				}
			}
		})
	}
}
