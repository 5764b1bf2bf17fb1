package num

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLgammaTo checks LgammaTo against math.Lgamma bit for bit on values
// drawn from every branch (below 0.2316, 0.7316 and 0.9, up to 1.2316,
// 1.7316 and 2, each integer part from 2 to 7, from 8 on), on the
// branches' bounds and next to them, and on the values math.Lgamma treats
// specially, in slices of every length up to 9 so that MathLogTo's groups
// of four and its scalar tail are both taken, and in one long slice of
// the values above 2.
func TestLgammaTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var xs []float64
	for _, r := range [][2]float64{
		{1e-21, 1e-3}, {1e-3, 0.2316}, {0.2316, 0.7316}, {0.7316, 0.9}, {0.9, 1.2316},
		{1.2316, 1.7316}, {1.7316, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8},
		{8, 100}, {100, 1e10}, {1e10, 1e17},
	} {
		for range 2000 {
			xs = append(xs, r[0]+(r[1]-r[0])*rng.Float64())
		}
	}
	for _, b := range []float64{
		lgamTiny, lgamTwo58, 0.9, lgamYmin - 1 + 0.27, lgamYmin - 1 - 0.27, lgamYmin + 0.27, lgamYmin - 0.27,
		1, 2, 3, 4, 5, 6, 7, 8,
	} {
		xs = append(xs, b, math.Nextafter(b, 0), math.Nextafter(b, math.Inf(1)))
	}
	xs = append(xs, 0, math.Copysign(0, -1), -0.5, -3, math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, 1e300)
	rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	// Every value of a long slice above 2 (and below 2⁵⁸), in groups of
	// four that the AVX2 loops take (haveUnfusedAVX2), both branches mixed.
	var above []float64
	for _, x := range xs {
		if x > 2 && x < lgamTwo58 {
			above = append(above, x)
		}
	}
	long := make([]float64, len(above))
	LgammaTo(long, above)
	for i, v := range above {
		if want, _ := math.Lgamma(v); math.Float64bits(long[i]) != math.Float64bits(want) {
			t.Fatalf("LgammaTo(%v) = %v in a slice above 2, math.Lgamma %v", v, long[i], want)
		}
	}
	dst := make([]float64, 9)
	for n := 1; n <= 9; n++ {
		for lo := 0; lo+n <= len(xs); lo += n {
			x := xs[lo : lo+n]
			LgammaTo(dst, x)
			for i, v := range x {
				want, _ := math.Lgamma(v)
				if math.Float64bits(dst[i]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(dst[i])) {
					t.Fatalf("LgammaTo(%v) = %v, math.Lgamma %v", v, dst[i], want)
				}
			}
		}
	}
}

// BenchmarkLgammaTo times the bound's log Γ of 20 values a little above a
// Jeffreys prior's 0.5 (the variational DA fit's γ at K = 20): LgammaTo
// against a loop of math.Lgamma.
func BenchmarkLgammaTo(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := make([]float64, 20)
	for i := range x {
		x[i] = 0.5 + 0.6*rng.Float64()
	}
	dst := make([]float64, len(x))
	b.Run("LgammaTo", func(b *testing.B) {
		for b.Loop() {
			LgammaTo(dst, x)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
	})
	b.Run("math.Lgamma", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				dst[i], _ = math.Lgamma(v)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
	})
}

// BenchmarkLgammaToCounts times LgammaTo on 4096 values as the Dawid-Skene
// evidence takes them (prior pseudo-counts plus a worker's expected
// counts, 2 to 400), which its AVX2 loops take four at a time.
func BenchmarkLgammaToCounts(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	x := make([]float64, 4096)
	for i := range x {
		x[i] = 1 + math.Exp(rng.Float64()*6)
	}
	dst := make([]float64, len(x))
	for b.Loop() {
		LgammaTo(dst, x)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
}
