package num

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLog checks Log against math.Log, to 4 ulp plus 2·10⁻¹⁶, on
// hand-picked and random arguments over the whole range of normal numbers,
// and on the arguments it hands to math.Log.
func TestLog(t *testing.T) {
	xs := []float64{1, 2, 0.5, math.E, 1 + 1.0/128, 1 - 1e-16, 1 + 2.2e-16, 1e-30, 1e30, 3, 0.3,
		math.SmallestNonzeroFloat64, 0x1p-1022, math.MaxFloat64, 0, math.Inf(1), math.NaN()}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		xs = append(xs, math.Exp(rng.Float64()*1400-700), 1+rng.Float64()*1e-6, rng.Float64()+0.5)
	}
	for _, x := range xs {
		got, want := Log(x), math.Log(x)
		if math.IsNaN(want) != math.IsNaN(got) || (!math.IsNaN(want) && got != want &&
			math.Abs(got-want) > 4*ulp(want)+2e-16) {
			t.Errorf("Log(%v) = %v, math.Log gives %v", x, got, want)
		}
	}
}

func ulp(x float64) float64 {
	x = math.Abs(x)
	if x < 1e-300 {
		return math.SmallestNonzeroFloat64
	}
	return math.Nextafter(x, math.Inf(1)) - x
}

var logArgs = func() []float64 {
	x := make([]float64, 4096)
	for i := range x {
		x[i] = 0.5 + float64(i)/1000
	}
	return x
}()

func BenchmarkLog(b *testing.B) {
	out := make([]float64, len(logArgs))
	for b.Loop() {
		for i, x := range logArgs {
			out[i] = Log(x)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(logArgs)), "ns/log")
}

func BenchmarkMathLog(b *testing.B) {
	out := make([]float64, len(logArgs))
	for b.Loop() {
		for i, x := range logArgs {
			out[i] = math.Log(x)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(logArgs)), "ns/log")
}

// TestMathLogTo checks MathLogTo against math.Log bit for bit: on a
// million arguments spread over every exponent (subnormals included) and
// on values near √2/2 and 1, where the reduction changes branch, and at
// every length up to 21 with an argument that sends its group to math.Log
// (zero, negative, infinite, NaN) at every position.
func TestMathLogTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	x := make([]float64, 1<<20)
	for i := range x {
		switch i % 4 {
		case 0:
			x[i] = math.Float64frombits(rng.Uint64() &^ (1 << 63)) // any positive bits, NaN and Inf included
		case 1:
			x[i] = math.Sqrt2 / 2 * (1 + (rng.Float64()-0.5)*1e-12)
		case 2:
			x[i] = 1 + (rng.Float64()-0.5)*1e-6
		default:
			x[i] = rng.Float64() * math.Pow(2, float64(rng.IntN(2100)-1074))
		}
	}
	x[5], x[9] = 0x1p-1074, math.Nextafter(math.Sqrt2/2, 1)
	x[13] = 0x1.6a09e667f3bcdp-1 // √2/2 rounded, the reduction's bound
	got := make([]float64, len(x))
	MathLogTo(got, x)
	for i, v := range x {
		if want := math.Log(v); !sameBits(got[i], want) {
			t.Fatalf("MathLogTo(%v) = %v, math.Log %v", v, got[i], want)
		}
	}
	specials := []float64{0, math.Copysign(0, -1), -1, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, math.MaxFloat64}
	checkGroups(t, "MathLogTo", MathLogTo, math.Log, rng.ExpFloat64, specials)
}

func BenchmarkMathLogTo(b *testing.B) {
	x := make([]float64, 256)
	for i := range x {
		x[i] = 0.001 + float64(i)/64
	}
	dst := make([]float64, len(x))
	b.Run("vector", func(b *testing.B) {
		for b.Loop() {
			MathLogTo(dst, x)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
	})
	b.Run("math.Log", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				dst[i] = math.Log(v)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
	})
}

// TestMathExpTo checks MathExpTo against math.Exp bit for bit: on a
// million arguments over the whole range, near the overflow bound and
// where the result turns subnormal, and at every length up to 21 with an
// argument that sends its group to math.Exp (infinite, NaN, too large,
// subnormal result) at every position.
func TestMathExpTo(t *testing.T) {
	t.Logf("vector loop: %v", haveMathExpAVX2)
	rng := rand.New(rand.NewPCG(15, 16))
	x := make([]float64, 1<<20)
	for i := range x {
		switch i % 4 {
		case 0:
			x[i] = (rng.Float64()*2 - 1) * 750
		case 1:
			x[i] = (rng.Float64()*2 - 1) * 3
		case 2:
			x[i] = -708 - rng.Float64()*40
		default:
			x[i] = 709.78 + rng.Float64()*0.01
		}
	}
	got := make([]float64, len(x))
	MathExpTo(got, x)
	for i, v := range x {
		if want := math.Exp(v); !sameBits(got[i], want) {
			t.Fatalf("MathExpTo(%v) = %v, math.Exp %v", v, got[i], want)
		}
	}
	specials := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 710, -745.2, -800, 7.09782712893384e+02, 0, math.Copysign(0, -1), -708.4}
	checkGroups(t, "MathExpTo", MathExpTo, math.Exp, func() float64 { return rng.NormFloat64() * 10 }, specials)
}

func BenchmarkMathExpTo(b *testing.B) {
	x := make([]float64, 256)
	for i := range x {
		x[i] = -20 + float64(i)/8
	}
	dst := make([]float64, len(x))
	b.Run("vector", func(b *testing.B) {
		for b.Loop() {
			MathExpTo(dst, x)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
	})
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				dst[i] = math.Exp(v)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
	})
}
