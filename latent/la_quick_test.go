package latent

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPosteriorQuick checks that LA's quick product of an object's label
// probabilities, where it accepts an object, gives bit for bit the result
// of the checked product, and that it refuses the objects whose products
// the checked path rescales or loses, or whose probabilities are out of
// [0, 1]: for K = 3, 5 and 20, 1 to 300 labels, and probabilities from
// ordinary to tiny, zero, above 1 and NaN.
func TestPosteriorQuick(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	kinds := []struct {
		name string
		draw func() float64
	}{
		{"ordinary", func() float64 { return 0.05 + 0.9*rng.Float64() }},
		{"small", func() float64 { return math.Pow(10, -30*rng.Float64()) }},
		{"some zero", func() float64 {
			if rng.IntN(20) == 0 {
				return 0
			}
			return rng.Float64()
		}},
		{"some above 1", func() float64 {
			if rng.IntN(20) == 0 {
				return math.Nextafter(1, 2)
			}
			return rng.Float64()
		}},
		{"some NaN", func() float64 {
			if rng.IntN(20) == 0 {
				return math.NaN()
			}
			return rng.Float64()
		}},
	}
	for _, k := range []int{3, 5, 20} {
		for _, kind := range kinds {
			var quick, refused int
			for _, n := range []int{1, 2, 5, 40, 300} {
				for range 50 {
					e := &laEval{k: k, p: make([]float64, k)}
					total := 0.0
					for z := range e.p {
						e.p[z] = 0.1 + rng.Float64()
						total += e.p[z]
					}
					for z := range e.p {
						e.p[z] /= total
					}
					p := make([]float64, n*k)
					for i := range p {
						p[i] = kind.draw()
					}
					sq, sc := make([]float64, k), make([]float64, k)
					sum, ok := e.posteriorQuick(p, sq)
					want, scale, wok := e.posteriorChecked(p, sc)
					if !ok {
						refused++
						continue
					}
					quick++
					if !wok || scale != 0 || math.Float64bits(sum) != math.Float64bits(want) {
						t.Fatalf("K=%d %s n=%d: quick sum %v, checked %v·2^%d (ok %v)", k, kind.name, n, sum, want, scale, wok)
					}
					for z := range sq {
						if math.Float64bits(sq[z]) != math.Float64bits(sc[z]) {
							t.Fatalf("K=%d %s n=%d: quick posterior %v, checked %v", k, kind.name, n, sq, sc)
						}
					}
				}
			}
			if quick == 0 || refused == 0 && kind.name != "ordinary" {
				t.Errorf("K=%d %s: the quick path took %d objects and refused %d; the cases do not test both", k, kind.name, quick, refused)
			}
		}
	}
}
