package num

// ExpDigammaTo writes exp(ψ(x[z])) into dst[z] for every z of x (x[z] > 0),
// the factors exp E[log θ_z] of variational responsibilities up to their
// common factor exp(−ψ(Σθ)). It is ExpDigamma with the shift's sum
// Σ_{i<n} 1/(x+i) formed as P'/P from the product P = Π_{i<n} (x+i) and its
// derivative, so that one division and one Exp (this package's) serve each
// element: about a third of ExpDigamma's cost, within 10⁻¹⁴ relative of it.
// dst must be at least as long as x and may be x itself.
func ExpDigammaTo(dst, x []float64) {
	dst = dst[:len(x)]
	for z, v := range x {
		dst[z] = ExpDigammaFast(v)
	}
}

// ExpDigammaFast is one element of ExpDigammaTo: exp(ψ(x)) for x > 0
// within 10⁻¹⁴ relative of ExpDigamma, at about a third of its cost.
func ExpDigammaFast(x float64) float64 {
	if !(x >= 1e-100) {
		return ExpDigamma(x)
	}
	p, dp := 1.0, 0.0
	for ; x < 7; x++ {
		dp = dp*x + p
		p *= x
	}
	w := x - 0.5
	inv := 1 / (w * w * p)
	w2 := inv * p
	w4 := w2 * w2
	s := (1.0/24)*w2 - (7.0/960)*w4 + (31.0/8064)*w4*w2 - (127.0/30720)*w4*w4 - dp*(w*w)*inv
	return w * Exp(s)
}
