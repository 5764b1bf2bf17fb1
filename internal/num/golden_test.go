package num

import (
	"math"
	"testing"
)

// TestGoldenMax checks GoldenMax on unimodal functions against their known
// maximisers, within the final bracket, whose width is goldenRatio^steps
// of the first.
func TestGoldenMax(t *testing.T) {
	cases := []struct {
		name   string
		lo, hi float64
		f      func(float64) float64
		want   float64
	}{
		{"parabola", -3, 5, func(x float64) float64 { return -(x - 1.25) * (x - 1.25) }, 1.25},
		{"log-likelihood of a coin", 0.01, 0.99, func(p float64) float64 { return 7*math.Log(p) + 3*math.Log(1-p) }, 0.7},
		{"maximum at an end", 0, 1, func(x float64) float64 { return x }, 1},
	}
	for _, c := range cases {
		x, fx, a, b := GoldenMax(c.lo, c.hi, 40, c.f)
		width := (c.hi - c.lo) * math.Pow(goldenRatio, 40)
		if math.Abs(x-c.want) > 2*width || fx != c.f(x) || !(a <= x && x <= b) || b-a > 1.0001*width {
			t.Errorf("%s: x %g, f(x) %g, bracket [%g, %g]; want x near %g in a bracket of width %g", c.name, x, fx, a, b, c.want, width)
		}
	}
}
