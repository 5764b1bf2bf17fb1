package dsmix

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestCavityBeta checks that cavityBeta recovers the Beta prior of the
// workers' accuracies from labels on tasks of two labels at K = 3: 400
// workers of 20 labels each, accuracy a_w ~ Beta(6, 2) (mean 0.75,
// concentration 8), errors uniform, each label's task also labelled by a
// partner of accuracy 0.8, whose label alone gives the label's cavity
// posterior. Labels credited with their cavity probabilities as counts
// would read the crowd as less accurate than it is, since a label's cavity
// probability of being right is about its partner's accuracy times its
// own.
func TestCavityBeta(t *testing.T) {
	const k, workers, perWorker, partner = 3, 400, 20, 0.8
	rng := rand.New(rand.NewPCG(7, 8))
	acc := distuv.Beta{Alpha: 6, Beta: 2, Src: rng}
	labels := make([][][2]float64, workers)
	u := make([]float64, workers)
	draw := func(a float64, z int) int {
		if rng.Float64() < a {
			return z
		}
		return (z + 1 + rng.IntN(k-1)) % k
	}
	for w := range labels {
		u[w] = 1
		a := acc.Rand()
		for range perWorker {
			z := rng.IntN(k)
			y, p := draw(a, z), draw(partner, z)
			// The cavity posterior: the partner's label under a uniform
			// prior.
			var q [k]float64
			for c := range k {
				q[c] = (1 - partner) / (k - 1)
				if c == p {
					q[c] = partner
				}
			}
			var s float64
			for c := range k {
				if c != y {
					s += q[c] / (k - 1)
				}
			}
			labels[w] = append(labels[w], [2]float64{q[y], s})
		}
	}
	a, b := cavityBeta(labels, u, 30, 10)
	mean, conc := a/(a+b), a+b
	t.Logf("a %.3f b %.3f: mean %.3f, concentration %.2f", a, b, mean, conc)
	if math.Abs(mean-0.75) > 0.03 || conc < 4 || conc > 16 {
		t.Errorf("mean %.3f, concentration %.2f; want 0.75 ± 0.03 and 8 within a factor of 2", mean, conc)
	}
}
