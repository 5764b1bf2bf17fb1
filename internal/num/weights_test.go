package num

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWeightsTo checks WeightsTo and DivMaxTo against their scalar loops
// bit for bit, the sum's bits included, at every length up to 21 with each
// special value (NaN, zeros of both signs, infinities, negative, tiny and
// huge numbers) at every position of x, of g and of both, for several
// scalars.
func TestWeightsTo(t *testing.T) {
	t.Logf("AVX2 loops: %v", haveAVX2)
	rng := rand.New(rand.NewPCG(17, 18))
	specials := []float64{math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), -1e-17, -3, 5e-324, 1e300}
	scalars := [][2]float64{{0.25, 5}, {1.0 / 3, 7}, {1, 0.5}, {0, 1}, {1e-300, 1e-300}, {math.Inf(1), 3}, {2, math.Copysign(0, -1)}}
	for n := range 22 {
		for _, special := range specials {
			for p := range max(n, 1) {
				for _, in := range []string{"x", "g", "both"} {
					x := make([]float64, n)
					g := make([]float64, n)
					for i := range x {
						x[i] = rng.Float64()
						g[i] = rng.NormFloat64() * 0.3
					}
					if n > 0 {
						switch in {
						case "x":
							x[p] = special
						case "g":
							g[p] = special
						default: // -0 + -0 is -0, which max turns into +0
							x[p], g[p] = special, special
						}
					}
					for _, c := range scalars {
						a, m := c[0], c[1]
						got := slices.Clone(x)
						sum := WeightsTo(got, g, a, m)
						want := slices.Clone(x)
						var wantSum float64
						for i := range want {
							want[i] = max(float64(want[i]*a)+g[i]/m, 0)
							wantSum += want[i]
						}
						for i := range want {
							if !sameBits(got[i], want[i]) {
								t.Fatalf("n=%d, %s[%d]=%v, a=%v, n=%v: WeightsTo gives %v at %d, want %v", n, in, p, special, a, m, got[i], i, want[i])
							}
						}
						if !sameBits(sum, wantSum) {
							t.Fatalf("n=%d, %s[%d]=%v: WeightsTo's sum %v, want %v", n, in, p, special, sum, wantSum)
						}
						for _, floor := range []float64{MinProbForTest, 1, 0, math.NaN()} {
							got := slices.Clone(x)
							DivMaxTo(got, m, floor)
							for i, v := range x {
								if want := max(v/m, floor); !sameBits(got[i], want) {
									t.Fatalf("n=%d: DivMaxTo(%v / %v, floor %v) = %v, want %v", n, v, m, floor, got[i], want)
								}
							}
						}
					}
				}
			}
		}
	}
}

// MinProbForTest is a floor as DA's M-step uses (latent.MinProb).
const MinProbForTest = 1e-30

// BenchmarkWeightsTo compares WeightsTo and DivMaxTo with their loops in
// Go on an object of K = 20 classes.
//
//	go test ./internal/num -run '^$' -bench WeightsTo
func BenchmarkWeightsTo(b *testing.B) {
	x := make([]float64, 20)
	g := make([]float64, len(x))
	for i := range x {
		x[i], g[i] = float64(i+1)/20, 0.01*float64(i%3-1)
	}
	y := make([]float64, len(x))
	b.Run("WeightsTo", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			WeightsTo(y, g, 0.3, 5)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/element")
	})
	b.Run("scalar WeightsTo", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			var s float64
			for i, v := range y {
				w := max(float64(v*0.3)+g[i]/5, 0)
				y[i] = w
				s += w
			}
			y[0] += s
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/element")
	})
	b.Run("DivMaxTo", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			DivMaxTo(y, 5, MinProbForTest)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/element")
	})
	b.Run("scalar DivMaxTo", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			for i, v := range y {
				y[i] = max(v/5, MinProbForTest)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/element")
	})
}
