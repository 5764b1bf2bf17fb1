package latent

import "math/rand/v2"

// Generator is implemented by assumptions that describe how latent classes
// are generated, for simulation.
type Generator interface {
	// Generate writes the latent class of each label of one object into
	// z, given the object's label distribution q.
	Generate(rng *rand.Rand, q []float64, z []int)
}

// Generate draws one true class z_j ~ q for the object and gives it to
// every label: the LA generative process.
func (LA) Generate(rng *rand.Rand, q []float64, z []int) {
	c := Draw(rng, q)
	for i := range z {
		z[i] = c
	}
}

// OneClassPerTask reports that LA generates one true class per object,
// which is what a consensus model under LA recovers (package sim).
func (LA) OneClassPerTask() bool { return true }

// Generate draws a fresh subjective class z ~ q for every label: the DA
// generative process.
func (DA) Generate(rng *rand.Rand, q []float64, z []int) {
	for i := range z {
		z[i] = Draw(rng, q)
	}
}

// Draw returns a class drawn from the distribution p by inversion of its
// cumulative sum.
func Draw(rng *rand.Rand, p []float64) int {
	u := rng.Float64()
	for c, v := range p {
		u -= v
		if u < 0 {
			return c
		}
	}
	return len(p) - 1
}
