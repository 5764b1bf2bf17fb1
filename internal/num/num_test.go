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
