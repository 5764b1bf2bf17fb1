package num

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

func TestExpDigamma(t *testing.T) {
	for _, x := range []float64{1e-3, 0.1, 0.5, 1, 1.5, 2, 3.7, 6.999, 7, 7.5, 10, 100, 1e4, 1e8} {
		want := math.Exp(mathext.Digamma(x))
		if got := ExpDigamma(x); math.Abs(got-want) > 1e-13*want {
			t.Errorf("ExpDigamma(%g) = %.17g, want exp(ψ) = %.17g", x, got, want)
		}
	}
}

func BenchmarkExpDigamma(b *testing.B) {
	var s float64
	for i := range b.N {
		s += ExpDigamma(1 + float64(i%64)/8)
	}
	_ = s
}

func BenchmarkExpOfDigamma(b *testing.B) {
	var s float64
	for i := range b.N {
		s += math.Exp(mathext.Digamma(1 + float64(i%64)/8))
	}
	_ = s
}

// TestExpDigammaOutsideDomain checks that ExpDigamma returns at 0 and
// below: 0 (the limit from above) at 0, NaN below and for NaN, where the
// shift would otherwise never end at -∞ or below -2⁵³.
func TestExpDigammaOutsideDomain(t *testing.T) {
	if v := ExpDigamma(0); v != 0 {
		t.Errorf("ExpDigamma(0) = %v, want 0", v)
	}
	for _, x := range []float64{-0.5, -3, -1e300, math.Inf(-1), math.NaN()} {
		if v := ExpDigamma(x); !math.IsNaN(v) {
			t.Errorf("ExpDigamma(%v) = %v, want NaN", x, v)
		}
		if v := ExpDigammaFast(x); !math.IsNaN(v) {
			t.Errorf("ExpDigammaFast(%v) = %v, want NaN", x, v)
		}
	}
}
