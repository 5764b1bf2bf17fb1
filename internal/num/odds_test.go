package num

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOddsPairs checks OddsPairs against its scalar loop bit for bit for
// every object with a positive n_j, on blocks of every length up to 70:
// logits of both signs, at the sigmoid's ends and equal, NaN logits and
// gradients, gradients that take a weight below 0 (to -0 and to a small
// negative number) or both to 0 (odds 1), counts of 0 with and without a
// pseudo-count, and a floor that raises a small weight.
func TestOddsPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	const floor = 1e-30
	for n := range 71 {
		for trial := range 20 {
			pseudo := 0.0
			if trial%4 == 1 {
				pseudo = 0.5
			}
			b := make([]float64, 2*n)
			g := make([]float64, 2*n)
			ex := make([]float64, n)
			off := make([]int, n+1)
			for j := range n {
				off[j+1] = off[j] + rng.IntN(7)
				b[2*j], b[2*j+1] = rng.NormFloat64(), 4*rng.NormFloat64()
				g[2*j], g[2*j+1] = rng.NormFloat64()*0.2, rng.NormFloat64()*0.2
				switch rng.IntN(12) {
				case 0:
					b[2*j+1] = 800
				case 1:
					b[2*j+1] = b[2*j]
				case 2:
					b[2*j] = math.NaN()
				case 3:
					g[2*j+1] = math.NaN()
				case 4: // both weights 0: odds 1
					b[2*j+1] = -800
					g[2*j] = -float64(off[j+1]-off[j]) - pseudo
				case 5: // w₁ exactly 0 from a negative zero, or below floor·s
					b[2*j+1] = -800
					g[2*j+1] = math.Copysign(0, -1)
				case 6:
					g[2*j] = -1e-17
				}
				ex[j] = math.Exp(-math.Abs(b[2*j+1] - b[2*j]))
			}
			got := make([]float64, n)
			want := make([]float64, n)
			OddsPairs(got, b, g, ex, off, pseudo, floor)
			oddsPairs(want, b, g, ex, off, pseudo, floor)
			for j := range n {
				if float64(off[j+1]-off[j])+pseudo == 0 {
					continue
				}
				if !sameBits(got[j], want[j]) {
					t.Fatalf("n=%d: object %d (b %v %v, g %v %v, %d labels): odds %v, the scalar loop %v",
						n, j, b[2*j], b[2*j+1], g[2*j], g[2*j+1], off[j+1]-off[j], got[j], want[j])
				}
			}
		}
	}
}
