package num

import (
	"math"
	"testing"
)

// TestSigmoidPair checks σ(s) and σ(-s) against math.Exp, both to full
// relative precision, including the far tails where 1 - σ(|s|) would
// cancel.
func TestSigmoidPair(t *testing.T) {
	for _, s := range []float64{0, 1e-12, -1e-12, 0.5, -0.5, 3, -3, 40, -40, 700, -700} {
		a, na := SigmoidPair(s, Exp(-math.Abs(s)))
		wantA := 1 / (1 + math.Exp(-s))
		wantNA := 1 / (1 + math.Exp(s))
		for _, c := range []struct{ got, want float64 }{{a, wantA}, {na, wantNA}} {
			if math.Abs(c.got-c.want) > 4e-16*c.want {
				t.Errorf("SigmoidPair(%v) = (%v, %v), want (%v, %v)", s, a, na, wantA, wantNA)
			}
		}
	}
}

// TestSoftmaxFromSumsToOne checks that a softmax of far-from-zero values
// sums to 1: LogSumExp is then rounded to the precision of its magnitude
// (2⁻⁵³·|lse|), which would otherwise show in every exp(x_i - lse).
func TestSoftmaxFromSumsToOne(t *testing.T) {
	for _, c := range []struct {
		name string
		x    []float64
	}{
		{"near zero", []float64{-0.3, -1.2, -2}},
		{"large negative", []float64{-1e10, -1e10 + 0.5, -1e10 - 1}},
		{"large positive", []float64{3.5e9, 3.5e9 - 0.25}},
		{"one class left", []float64{-7e12, -7e12 - 1e6}},
	} {
		dst := make([]float64, len(c.x))
		SoftmaxFrom(dst, c.x, LogSumExp(c.x))
		var sum float64
		for _, v := range dst {
			if !(v >= 0 && v <= 1) {
				t.Errorf("%s: softmax %v", c.name, dst)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-14 {
			t.Errorf("%s: softmax %v sums to 1%+g", c.name, dst, sum-1)
		}
	}
}
