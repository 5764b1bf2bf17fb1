package theory

import (
	"math"
	"testing"
)

// FuzzLAPosterior checks that the posterior is a probability, symmetric
// under swapping ones and zeros with the prior, and matches the direct
// formula where that does not underflow.
func FuzzLAPosterior(f *testing.F) {
	f.Add(uint16(110), uint16(210), 0.8, 0.5)
	f.Add(uint16(0), uint16(0), 0.3, 0.9)
	f.Fuzz(func(t *testing.T, n1, n uint16, a, r float64) {
		if n1 > n || !(a > 0 && a < 1) || !(r > 0 && r < 1) {
			return
		}
		p := LAPosterior(int(n1), int(n), a, r)
		if !(p >= 0 && p <= 1) {
			t.Fatalf("LAPosterior(%d, %d, %v, %v) = %v", n1, n, a, r, p)
		}
		s := LAPosterior(int(n-n1), int(n), a, 1-r)
		if math.Abs(p-(1-s)) > 1e-12 {
			t.Errorf("LAPosterior(%d, %d, %v, %v) = %v, but mirrored 1 - %v", n1, n, a, r, p, s)
		}
		if n <= 30 && a > 0.01 && a < 0.99 {
			if w := naivePosterior(int(n1), int(n), a, r); math.Abs(p-w) > 1e-10 {
				t.Errorf("LAPosterior(%d, %d, %v, %v) = %v, direct formula %v", n1, n, a, r, p, w)
			}
		}
	})
}
