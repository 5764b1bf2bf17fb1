package num

// ExpDigammaTo writes exp(ψ(x[z])) into dst[z] for every z of x (x[z] > 0),
// the factors exp E[log θ_z] of variational responsibilities up to their
// common factor exp(−ψ(Σθ)). It is ExpDigamma with the shift's sum
// Σ_{i<n} 1/(x+i) formed as P'/P from the product P = Π_{i<n} (x+i) and its
// derivative, so that one division and one Exp (this package's) serve each
// element: about a third of ExpDigamma's cost, within 10⁻¹⁴ relative of it.
// dst must be at least as long as x and may be x itself.
//
// It works in blocks of up to 64 values: first the shifts and the
// asymptotic series of the block, which leave w and s with exp ψ(x) =
// w·e^s, then the exponentials of the block in one ExpTo loop, whose
// iterations overlap in the processor where a call of Exp per value would
// wait for the shift loop before it. The results are ExpDigammaFast's, bit
// for bit.
func ExpDigammaTo(dst, x []float64) {
	dst = dst[:len(x)]
	var buf [64]float64
	for len(x) > 0 {
		n := min(len(x), len(buf))
		w := buf[:n]
		d := dst[:n]
		xs := x[:n]
		for z := 0; z < n; z++ {
			if haveAVX2 && n-z >= 4 {
				if z = expDigammaPartsAVX2(d, w, xs, z); z == n {
					break
				}
			}
			d[z], w[z] = ExpDigammaParts(xs[z])
		}
		ExpTo(d, d)
		for z, f := range w {
			d[z] *= f
		}
		x, dst = x[n:], dst[n:]
	}
}

// ExpDigammaFast is one element of ExpDigammaTo: exp(ψ(x)) for x > 0
// within 10⁻¹⁴ relative of ExpDigamma, at about a third of its cost.
func ExpDigammaFast(x float64) float64 {
	s, w := ExpDigammaParts(x)
	return w * Exp(s)
}

// ExpDigammaParts returns s and w with exp(ψ(x)) = Exp(s)·w, as
// ExpDigammaFast computes it: for x ≥ 10⁻¹⁰⁰, x is shifted to x + n ≥ 7
// with the shift's sum Σ_{i<n} 1/(x+i) = P'/P, and ψ(x + n) = log w + (the
// asymptotic series in 1/w²), w = x + n − ½; below (and for NaN), s = 0
// and w = ExpDigamma(x), since Exp(0) = 1 exactly. Taking the parts of
// several values before their exponentials lets the exponentials overlap.
func ExpDigammaParts(x float64) (s, w float64) {
	if !(x >= 1e-100) {
		return 0, ExpDigamma(x)
	}
	p, dp := 1.0, 0.0
	// Every product is rounded before the sum that takes it (float64),
	// so that no build fuses the two into a multiply-add: the vector
	// loop of ExpDigammaTo repeats these operations unfused.
	for ; x < 7; x++ {
		dp = float64(dp*x) + p
		p *= x
	}
	w = x - 0.5
	inv := 1 / (w * w * p)
	w2 := inv * p
	w4 := w2 * w2
	s = float64((1.0/24)*w2) - float64((7.0/960)*w4) + float64((31.0/8064)*w4*w2) - float64((127.0/30720)*w4*w4) - float64(dp*(w*w)*inv)
	return s, w
}
