package num

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

// TestDigammaTo holds DigammaTo to mathext.Digamma bit for bit, on
// arguments below and above the recurrence's bound, spanning many octaves,
// special values, and lengths that are not a multiple of the block or of
// four.
func TestDigammaTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := []float64{0, math.Copysign(0, -1), -1, -2.5, math.NaN(), math.Inf(1), math.Inf(-1), 1e-300, 5e-324, 1, 6.5, 6.999999999999999, 7, 7.5, 1e300}
	for range 10000 {
		x = append(x, math.Exp(rng.Float64()*60-20), rng.Float64()*20, 7+rng.Float64())
	}
	for _, n := range []int{0, 1, 3, 5, 63, 64, 65, 130, len(x)} {
		dst := make([]float64, n)
		DigammaTo(dst, x[:n])
		for i, v := range x[:n] {
			want := mathext.Digamma(v)
			if math.Float64bits(dst[i]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(dst[i])) {
				t.Fatalf("n=%d: DigammaTo(%v) = %v, want %v", n, v, dst[i], want)
			}
		}
	}
	// In place.
	y := append([]float64(nil), x...)
	DigammaTo(y, y)
	for i, v := range x {
		if want := mathext.Digamma(v); math.Float64bits(y[i]) != math.Float64bits(want) && !math.IsNaN(want) {
			t.Fatalf("in place: DigammaTo(%v) = %v, want %v", v, y[i], want)
		}
	}
}

func BenchmarkDigamma(b *testing.B) {
	x := make([]float64, 4096)
	for i := range x {
		x[i] = 7 + float64(i)/10
	}
	dst := make([]float64, len(x))
	b.Run("loop", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				dst[i] = Digamma(v)
			}
		}
	})
	b.Run("DigammaTo", func(b *testing.B) {
		for b.Loop() {
			DigammaTo(dst, x)
		}
	})
	// Arguments as the shared prior's fixed point takes them (noise's
	// learnPrior): expected counts plus pseudo-counts, most below the
	// recurrence's bound 7.
	small := make([]float64, len(x))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range small {
		small[i] = math.Exp(rng.Float64()*6 - 2)
	}
	b.Run("DigammaTo/small", func(b *testing.B) {
		for b.Loop() {
			DigammaTo(dst, small)
		}
	})
}
