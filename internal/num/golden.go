package num

import "math"

// goldenRatio is (√5 − 1)/2, the share of the bracket a golden-section
// step keeps.
var goldenRatio = (math.Sqrt(5) - 1) / 2

// GoldenMax searches [lo, hi] for the maximiser of a unimodal f by
// golden-section search: two evaluations of f to start, then steps steps
// of one evaluation each, every step keeping the share goldenRatio of the
// bracket on the side of the larger of its two inner points. It returns
// the better of the final two inner points, x and f(x), and the final
// bracket [a, b], whose midpoint some callers take instead.
func GoldenMax(lo, hi float64, steps int, f func(float64) float64) (x, fx, a, b float64) {
	x1, x2 := hi-goldenRatio*(hi-lo), lo+goldenRatio*(hi-lo)
	f1, f2 := f(x1), f(x2)
	for range steps {
		if f1 > f2 {
			hi, x2, f2 = x2, x1, f1
			x1 = hi - goldenRatio*(hi-lo)
			f1 = f(x1)
		} else {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + goldenRatio*(hi-lo)
			f2 = f(x2)
		}
	}
	if f1 > f2 {
		return x1, f1, lo, hi
	}
	return x2, f2, lo, hi
}
