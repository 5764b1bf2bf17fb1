package num

import (
	"math"
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

func TestLogGammaDigamma(t *testing.T) {
	for _, x := range vbDigammaArgs {
		lg, psi := LogGammaDigamma(x)
		wantLg, _ := math.Lgamma(x)
		wantPsi := refDigamma(x)
		if math.Abs(lg-wantLg) > 3e-14*max(1, math.Abs(wantLg)) {
			t.Errorf("LogGammaDigamma(%g): log Γ = %.17g, want %.17g (diff %.3g)", x, lg, wantLg, lg-wantLg)
		}
		if math.Abs(psi-wantPsi) > 1e-14*max(1, math.Abs(wantPsi)) {
			t.Errorf("LogGammaDigamma(%g): ψ = %.17g, want %.17g (diff %.3g)", x, psi, wantPsi, psi-wantPsi)
		}
	}
}

// refDigamma is ψ(x) by the recurrence up to y = x + n ≥ 1000, summed
// with compensation, and the asymptotic series there, whose
// truncation error is below 10⁻³⁰: a reference independent of the shift
// to 8 it checks (gonum's mathext.Digamma is only within about 5·10⁻¹¹).
func refDigamma(x float64) float64 {
	var terms []float64
	for ; x < 1000; x++ {
		terms = append(terms, 1/x)
	}
	r := 1 / x
	r2 := r * r
	// Neumaier's compensated sum of the terms, negated.
	s := math.Log(x) - 0.5*r - r2*(1.0/12-r2*(1.0/120-r2/252))
	var c float64
	for i := len(terms) - 1; i >= 0; i-- {
		t := s - terms[i]
		if math.Abs(s) >= terms[i] {
			c += (s - t) - terms[i]
		} else {
			c += (-terms[i] - t) + s
		}
		s = t
	}
	return s + c
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

func BenchmarkLogGammaDigamma(b *testing.B) {
	var s float64
	for i := 0; b.Loop(); i++ {
		lg, psi := LogGammaDigamma(0.5 + float64(i%64)/8)
		s += lg + psi
	}
	_ = s
}

func BenchmarkLgammaAndDigamma(b *testing.B) {
	var s float64
	for i := 0; b.Loop(); i++ {
		lg, _ := math.Lgamma(0.5 + float64(i%64)/8)
		s += lg + Digamma(0.5+float64(i%64)/8)
	}
	_ = s
}
