package num

import "math"

// ExpDigamma returns exp(ψ(x)) for x > 0 with one exponential and no
// logarithm: ψ(x) = ψ(x+n) − Σ_{i<n} 1/(x+i) shifts x to y = x+n ≥ 7, and
// ψ(y) = log w + 1/(24w²) − 7/(960w⁴) + 31/(8064w⁶) − 127/(30720w⁸) with
// w = y − ½ (the asymptotic series gonum's mathext.Digamma uses), so that
//
//	exp(ψ(x)) = w · exp(1/(24w²) − 7/(960w⁴) + 31/(8064w⁶) − 127/(30720w⁸) − Σ_{i<n} 1/(x+i)).
//
// The variational fits need exp E[log θ_z] = exp(ψ(a_z) − ψ(Σa)) for the
// responsibilities, which are invariant to a common factor: exp(ψ(a_z))
// alone serves, at a third of the cost of a digamma and an exponential.
// ExpDigamma(0) is 0, the limit from above; for x < 0 (where the shift
// would cross ψ's poles, and from -∞ never end) and NaN it returns NaN.
func ExpDigamma(x float64) float64 {
	if !(x >= 0) {
		return math.NaN()
	}
	var s float64
	for ; x < 7; x++ {
		s -= 1 / x
	}
	w := x - 0.5
	w2 := 1 / (w * w)
	w4 := w2 * w2
	return w * math.Exp(s+(1.0/24)*w2-(7.0/960)*w4+(31.0/8064)*w4*w2-(127.0/30720)*w4*w4)
}
