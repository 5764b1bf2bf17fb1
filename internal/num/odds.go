package num

// OddsPairs is the M-step of the latent distribution assumption at K = 2
// for a block of objects, up to its logarithms. Object j has the logits
// b[2j], b[2j+1], ex[j] = e^-|d_j| for d_j = b[2j+1] - b[2j] (so that
// SigmoidPair(d_j, ex[j]) gives its q_j), the gradient g[2j], g[2j+1] of a
// pass at those logits and the labels [off[j], off[j+1]); with
// n_j = (off[j+1] - off[j]) + pseudo it writes
//
//	w_z = max(q_j(z) + g[2j+z]·(1/n_j), 0),  s = w_0 + w_1,
//	odds[j] = max(w_1, floor·s) / max(w_0, floor·s),
//
// or 1 where s is not positive: the odds of the new q_j ∝ w, each class
// raised to at least floor, whose logarithm is the new logit. The product
// g·(1/n) is rounded before the sum, and max is Go's. For an object with
// n_j = 0 the odds written are unspecified (its caller keeps its logits).
// The number of objects is len(ex); odds, b, g and off must be long enough
// for them, or it panics.
//
// The results are the scalar loop's bit for bit on every build; on amd64
// with AVX2 (Vectorised) four objects are taken at a time.
func OddsPairs(odds, b, g, ex []float64, off []int, pseudo, floor float64) {
	n := len(ex)
	if len(odds) < n || len(b) < 2*n || len(g) < 2*n || len(off) < n+1 {
		panic("num: OddsPairs: slices too short")
	}
	i := 0
	if haveAVX2 && n >= 4 {
		i = n &^ 3
		oddsPairsAVX(odds, b, g, ex, off, pseudo, floor, i)
	}
	oddsPairs(odds[i:n], b[2*i:2*n], g[2*i:2*n], ex[i:n], off[i:n+1], pseudo, floor)
}

// oddsPairs is OddsPairs' scalar loop.
func oddsPairs(odds, b, g, ex []float64, off []int, pseudo, floor float64) {
	for j := range ex {
		n := float64(off[j+1]-off[j]) + pseudo
		if n == 0 {
			continue
		}
		q1, q0 := SigmoidPair(b[2*j+1]-b[2*j], ex[j])
		inv := 1 / n
		// The products are rounded before the sums (float64), so that no
		// build fuses them into a multiply-add, whose exact residual would
		// replace a 0 here.
		odds[j] = oddsRatio(q0+float64(g[2*j]*inv), q1+float64(g[2*j+1]*inv), floor)
	}
}

// oddsRatio returns p₁/p₀ for the distribution (p₀, p₁) ∝ (w₀, w₁) of
// two nonnegative weights (which may have rounded slightly below zero),
// each probability raised to at least floor; 1 if both weights are zero.
func oddsRatio(w0, w1, floor float64) float64 {
	w0, w1 = max(w0, 0), max(w1, 0)
	s := w0 + w1
	if !(s > 0) {
		return 1
	}
	return max(w1, floor*s) / max(w0, floor*s)
}
