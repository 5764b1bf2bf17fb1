package noise

import (
	"math"
	"math/rand/v2"
)

// Sampler is implemented by noise models that can draw plausible random
// parameters, the ground truth of simulated data sets.
type Sampler interface {
	// SampleParams fills the worker block w and object block o with
	// random parameters for k classes.
	SampleParams(rng *rand.Rand, k int, w, o []float64)
}

// SampleParams draws every worker's confusion matrix: row z puts a mass
// a_{w,z} ~ U[0.55, 0.95] on the correct class and spreads the rest over the
// other classes with uniform random (Dirichlet(1)) weights.
func (DS) SampleParams(rng *rand.Rand, k int, w, _ []float64) {
	for r := 0; r < len(w); r += k {
		z := (r / k) % k
		row := w[r : r+k]
		var rest float64
		for y := range row {
			if y != z {
				row[y] = rng.ExpFloat64()
				rest += row[y]
			}
		}
		a := 0.55 + 0.4*rng.Float64()
		for y := range row {
			if y == z {
				row[y] = math.Log(a)
			} else {
				row[y] = math.Log((1 - a) * row[y] / rest)
			}
		}
	}
}

// SampleParams draws the parameters of the paper's synthetic experiment
// (section 6, after Whitehill et al. 2009): abilities e_w ~ U[0, 4] and log
// difficulties log d_j ~ U[0, 3].
func (GLAD) SampleParams(rng *rand.Rand, _ int, w, o []float64) {
	for i := range w {
		w[i] = 4 * rng.Float64()
	}
	for i := range o {
		o[i] = 3 * rng.Float64()
	}
}

// SampleParams draws diagonal-dominant matrices: a worker's e_w(z, y) is
// c_w·1[y = z] + N(0, 0.5²) with skill c_w ~ U[0, 3], an object's d_j(z, y)
// is 0.5·N(0, 1) noise around 0, so objects differ in how they confuse
// workers.
func (MME) SampleParams(rng *rand.Rand, k int, w, o []float64) {
	for r := 0; r < len(w); r += k * k {
		c := 3 * rng.Float64()
		for i := range k * k {
			w[r+i] = 0.5 * rng.NormFloat64()
			if i/k == i%k {
				w[r+i] += c
			}
		}
	}
	for i := range o {
		o[i] = 0.5 * rng.NormFloat64()
	}
}
