package num

import (
	"math"
	"math/rand/v2"
	"testing"
)

var vbDigammaArgs = []float64{1e-90, 1e-8, 1e-3, 0.1, 0.5, 0.9, 1, 1.5, 2, 2.5, 3.7, 5, 6.999, 7, 7.5, 7.999, 8, 10, 33.3, 100, 1e4, 1e8, 1e14, 1e16}

func TestExpDigammaTo(t *testing.T) {
	got := make([]float64, len(vbDigammaArgs))
	ExpDigammaTo(got, vbDigammaArgs)
	for i, x := range vbDigammaArgs {
		want := ExpDigamma(x)
		if math.Abs(got[i]-want) > 1e-14*want {
			t.Errorf("ExpDigammaTo at %g = %.17g, want ExpDigamma = %.17g", x, got[i], want)
		}
	}
}

// ExpDigammaTo gives ExpDigammaFast's values bit for bit, in blocks of
// any length and in place.
func TestExpDigammaToFast(t *testing.T) {
	x := append([]float64{0, -1, math.NaN(), math.Inf(1), 1e-101}, vbDigammaArgs...)
	for len(x) < 150 {
		x = append(x, 0.37+float64(len(x))/9)
	}
	got := make([]float64, len(x))
	ExpDigammaTo(got, x)
	in := append([]float64(nil), x...)
	ExpDigammaTo(in, in)
	for i, v := range x {
		want := ExpDigammaFast(v)
		if math.Float64bits(got[i]) != math.Float64bits(want) || math.Float64bits(in[i]) != math.Float64bits(want) {
			t.Errorf("ExpDigammaTo at %g = %v (in place %v), ExpDigammaFast %v", v, got[i], in[i], want)
		}
	}
}

// TestExpDigammaToGroups checks ExpDigammaTo against ExpDigammaFast bit
// for bit at every length up to 21 and with an argument that the
// four-at-a-time loop must leave to the scalar code (below 10⁻¹⁰⁰, zero,
// negative, NaN) or that ends a group's shifts early or late (at 7, just
// below it, huge, infinite) at every position, so that every way of
// cutting a slice into groups is taken; the other arguments are spread
// over decades, so that the lanes of a group take different numbers of
// shifts.
func TestExpDigammaToGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	specials := []float64{1e-101, 1e-100, 0, -1, math.NaN(), 7, 6.999999, 1e300, math.Inf(1), 0.3}
	checkGroups(t, "ExpDigammaTo", ExpDigammaTo, ExpDigammaFast, func() float64 { return math.Pow(10, rng.Float64()*6-3) }, specials)
}

func BenchmarkExpDigammaTo(b *testing.B) {
	x := make([]float64, 64)
	for i := range x {
		x[i] = 0.5 + float64(i)/8
	}
	dst := make([]float64, len(x))
	for b.Loop() {
		ExpDigammaTo(dst, x)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
}
