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
