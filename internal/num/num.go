// Package num holds the small numerical kernels shared by the noise models
// and the latent assumptions: stable log-sum-exp, softmax and softplus.
package num

import "math"

// LogSumExp returns log Σ_i exp(x_i), computed stably. It returns -Inf for an
// empty slice or when every element is -Inf.
func LogSumExp(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		if v > m {
			m = v
		}
	}
	if math.IsInf(m, 0) {
		return m
	}
	var s float64
	if len(x) < 4 {
		for _, v := range x {
			s += math.Exp(v - m)
		}
		return m + math.Log(s)
	}
	// The exponentials of up to 64 at a time by MathExpTo, then their
	// sum in order: the same numbers as the loop above.
	var buf [64]float64
	for len(x) > 0 {
		b := buf[:min(len(x), len(buf))]
		for i, v := range x[:len(b)] {
			b[i] = v - m
		}
		MathExpTo(b, b)
		for _, e := range b {
			s += e
		}
		x = x[len(b):]
	}
	return m + math.Log(s)
}

// LogSumExpRows writes LogSumExp of each row of k values of x into dst
// (len(x)/k rows), bit for bit, with the exponentials of all rows taken in
// one MathExpTo call and the logarithms in one MathLogTo call instead of a
// call of each per row. exps must hold len(x) values; it is overwritten
// with exp(x_i - m) for the row's largest value m (garbage in a row whose m
// is infinite). dst must hold len(x)/k values, and k must be at least 1.
func LogSumExpRows(dst, x, exps []float64, k int) {
	rows := len(x) / k
	dst = dst[:rows]
	exps = exps[:rows*k]
	// Four rows at a time, each row's maximum and sum taken in its own
	// order: four independent chains instead of one.
	r := 0
	for ; r+4 <= rows; r += 4 {
		x0, x1, x2, x3 := x[r*k:(r+1)*k], x[(r+1)*k:(r+2)*k], x[(r+2)*k:(r+3)*k], x[(r+3)*k:(r+4)*k]
		m0, m1, m2, m3 := math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)
		for i := range x0 {
			if v := x0[i]; v > m0 {
				m0 = v
			}
			if v := x1[i]; v > m1 {
				m1 = v
			}
			if v := x2[i]; v > m2 {
				m2 = v
			}
			if v := x3[i]; v > m3 {
				m3 = v
			}
		}
		dst[r], dst[r+1], dst[r+2], dst[r+3] = m0, m1, m2, m3
	}
	for ; r < rows; r++ {
		m := math.Inf(-1)
		for _, v := range x[r*k : (r+1)*k] {
			if v > m {
				m = v
			}
		}
		dst[r] = m
	}
	for r, m := range dst {
		e := exps[r*k : (r+1)*k]
		for i, v := range x[r*k : (r+1)*k] {
			e[i] = v - m
		}
	}
	MathExpTo(exps, exps)
	var sbuf [64]float64
	for r0 := 0; r0 < rows; r0 += len(sbuf) {
		sums := sbuf[:min(rows-r0, len(sbuf))]
		SumRows(sums, exps[r0*k:(r0+len(sums))*k], k)
		MathLogTo(sums, sums)
		for r, l := range sums {
			if m := dst[r0+r]; !math.IsInf(m, 0) {
				dst[r0+r] = m + l
			}
		}
	}
}

// SoftmaxFrom writes the softmax of x into dst, given lse = LogSumExp(x):
// dst_i = exp(x_i - lse). dst and x may be the same slice.
//
// LogSumExp is rounded to the precision of its magnitude, 2⁻⁵³·|lse|, and
// that error multiplies every exp(x_i - lse); when |lse| > 2⁸ the sum could
// be off by more than 3·10⁻¹⁴, so dst is then divided by its sum.
func SoftmaxFrom(dst, x []float64, lse float64) {
	for i, v := range x {
		dst[i] = v - lse
	}
	MathExpTo(dst[:len(x)], dst[:len(x)]) // math.Exp of each, four at a time
	renormalise(dst[:len(x)], lse)
}

// SoftmaxRows overwrites each row of k values of x with its softmax, given
// the rows' log-sum-exps lse (from LogSumExpRows): x_i = exp(x_i - lse_r),
// bit for bit SoftmaxFrom(row, row, lse_r), with the exponentials of all
// rows taken in one MathExpTo call.
func SoftmaxRows(x, lse []float64, k int) {
	ExpLessRows(x, lse, k)
	for r, l := range lse {
		renormalise(x[r*k:(r+1)*k], l)
	}
}

// ExpLessRows overwrites each row r of k values of x with exp(x_i - c_r),
// math.Exp's results bit for bit, for the len(c) rows of x, with the
// exponentials of all rows taken in one MathExpTo call. With c the rows'
// log-sum-exps these are the softmaxes before SoftmaxRows' renormalisation.
func ExpLessRows(x, c []float64, k int) {
	x = x[:len(c)*k]
	for r, l := range c {
		row := x[r*k : (r+1)*k]
		for i, v := range row {
			row[i] = v - l
		}
	}
	MathExpTo(x, x)
}

// renormalise divides the exponentials exp(x_i - lse) in dst by their sum
// when |lse| > 2⁸, where the rounding of lse could leave them off a sum of
// 1 by more than 3·10⁻¹⁴ (see SoftmaxFrom).
func renormalise(dst []float64, lse float64) {
	if math.Abs(lse) <= 0x1p8 {
		return
	}
	var sum float64
	for _, v := range dst {
		sum += v
	}
	if sum > 0 { // false for NaN, from an infinite lse
		inv := 1 / sum
		for i := range dst {
			dst[i] *= inv
		}
	}
}

// LogSoftmax writes log softmax(x) into dst and returns LogSumExp(x).
// dst and x may be the same slice.
func LogSoftmax(dst, x []float64) float64 {
	lse := LogSumExp(x)
	for i, v := range x {
		dst[i] = v - lse
	}
	return lse
}

// Softplus returns log(1 + exp(x)) without overflow or loss of precision.
func Softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// LogSigmoid returns log σ(x) = -Softplus(-x), where σ(x) = 1/(1 + exp(-x)).
func LogSigmoid(x float64) float64 { return -Softplus(-x) }

// AllFinite reports whether every value of x is finite: neither NaN nor
// infinite.
func AllFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// Sigmoid returns σ(x) = 1/(1 + exp(-x)).
func Sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// SigmoidPair returns σ(s) and 1 - σ(s) = σ(-s), each to full relative
// precision, given ex = e^-|s| (from Exp or ExpTo): the larger is
// 1/(1 + ex), the smaller ex/(1 + ex), with no cancellation.
func SigmoidPair(s, ex float64) (a, na float64) {
	big := 1 / (1 + ex)
	small := ex * big
	if s >= 0 {
		return big, small
	}
	return small, big
}

// Buf is a stack buffer for Scratch.
type Buf [32]float64

// Scratch returns a buffer of length k that lives in buf when k is small
// enough, so that hot loops need not allocate.
func Scratch(buf *Buf, k int) []float64 {
	if k <= len(buf) {
		return buf[:k]
	}
	return make([]float64, k)
}

// Responsibilities writes r_z = q_z p_z / m into r for the K weights q and
// likelihoods p, with m = Σ_z q_z p_z, and returns m: the posterior of a
// latent class with prior q (or exp E[log q]) given one label's
// likelihoods p. When m is 0 or not finite, r holds its quotients as they
// come (the caller checks m).
func Responsibilities(r, q, p []float64) float64 {
	var m float64
	for z, qz := range q {
		t := float64(qz * p[z]) // rounded before the sum, on every build
		r[z] = t
		m += t
	}
	inv := 1 / m
	for z := range r {
		r[z] *= inv
	}
	return m
}

// Product accumulates a product of positive factors as M·2^E with M kept
// within [2⁻²⁵⁶, 2²⁵⁶], so that long products neither underflow nor
// overflow nor need a logarithm per factor: Log returns log(M) + E·log 2.
type Product struct {
	M float64
	E int
}

// NewProduct returns the empty product, 1.
func NewProduct() Product { return Product{M: 1} }

// Mul multiplies the product by x > 0. It is small enough to be inlined;
// the rare rescaling is a call.
func (p *Product) Mul(x float64) {
	p.M *= x
	if p.M < 0x1p-256 || p.M > 0x1p256 {
		p.rescale()
	}
}

// rescale brings M back to [½, 1), moving its exponent into E.
func (p *Product) rescale() {
	var e int
	p.M, e = math.Frexp(p.M)
	p.E += e
}

// Scale multiplies the product by 2^e.
func (p *Product) Scale(e int) { p.E += e }

// Log returns the logarithm of the product.
func (p Product) Log() float64 { return p.LogWith(math.Log(p.M)) }

// LogWith returns the natural logarithm of the product given logM =
// math.Log(p.M), as Log does: for logarithms of many products taken in
// one call (MathLogTo).
func (p Product) LogWith(logM float64) float64 { return logM + float64(p.E)*math.Ln2 }

// SigmoidLimit is the largest |s| for which SigmoidPairOf computes σ(s)
// and σ(-s): 1022·log 2, beyond which the smaller of the two would be
// below the smallest normal number.
const SigmoidLimit = 1022 * math.Ln2

// SigmoidPairOf returns σ(s) and 1 - σ(s) = σ(-s), each to full relative
// precision, with one exponential (Exp): SigmoidPair(s, Exp(-|s|)). For
// |s| > SigmoidLimit, where the smaller would be a subnormal number (slow
// on x86, and imprecise) or zero, it returns exactly 0 and 1. A NaN gives
// two NaNs.
func SigmoidPairOf(s float64) (a, na float64) {
	if math.Abs(s) > SigmoidLimit { // false for NaN, which propagates
		if s > 0 {
			return 1, 0
		}
		return 0, 1
	}
	return SigmoidPair(s, Exp(-math.Abs(s)))
}

// SigmoidPairs writes SigmoidPairOf(s[i]) into dst[2i] and dst[2i+1] for
// every i of s, with the exponentials overlapped as in ExpTo (and four at
// a time with AVX2, bit for bit the same). dst must hold 2·len(s) numbers;
// s may be dst's first len(s), since each element is read before the
// pairs that overwrite it are written.
func SigmoidPairs(dst, s []float64) { pairsAt(dst, s, nil) }

// sigmoidPairs is SigmoidPairs' scalar loop: blocks of elements from the
// end, each copied out of s, its exponentials taken in one loop (expTo),
// then its pairs written.
func sigmoidPairs(dst, s []float64) {
	var sb, xb [32]float64
	for hi := len(s); hi > 0; {
		lo := max(hi-len(sb), 0)
		sv, xv := sb[:hi-lo], xb[:hi-lo]
		copy(sv, s[lo:hi])
		for j, v := range sv {
			xv[j] = -math.Abs(v)
			if math.Abs(v) > SigmoidLimit {
				xv[j] = 0 // not used
			}
		}
		expTo(xv, xv)
		for j, v := range sv {
			i := lo + j
			if math.Abs(v) > SigmoidLimit {
				dst[2*i], dst[2*i+1] = SigmoidPairOf(v)
				continue
			}
			dst[2*i], dst[2*i+1] = SigmoidPair(v, xv[j])
		}
		hi = lo
	}
}

// SigmoidPairsAt is SigmoidPairs with each pair in the order that y[i]'s
// lowest bit gives: σ(s_i) at dst[2i + y_i&1] and σ(-s_i) at the other of
// dst[2i] and dst[2i+1]. For a label y_i ∈ {0, 1} and a one-coin noise model
// at K = 2, that is P(y_i | z) for z = 0, 1, with σ(s_i) the probability
// of a correct label. y must be as long as s.
func SigmoidPairsAt(dst, s []float64, y []uint16) { pairsAt(dst, s, y[:len(s)]) }

// pairsAt is SigmoidPairsAt, or SigmoidPairs for a nil y.
func pairsAt(dst, s []float64, y []uint16) {
	n := len(s)
	dst = dst[:2*n]
	if !haveAVX2 {
		sigmoidPairs(dst, s)
		for i, l := range y {
			b := int(l) & 1
			a, na := dst[2*i], dst[2*i+1]
			dst[2*i+b] = a
			dst[2*i+1-b] = na
		}
		return
	}
	for i := n; i > 0; i-- {
		if i = sigmoidPairsAVX2(dst, s, y, i); i == 0 {
			return
		}
		b := 0
		if y != nil {
			b = int(y[i-1]) & 1
		}
		dst[2*i-2+b], dst[2*i-1-b] = SigmoidPairOf(s[i-1])
	}
}

// DivideByMax divides every value of x by the largest and returns it; x
// is left as it is if the largest is not positive.
func DivideByMax(x []float64) float64 {
	top := 0.0
	for _, v := range x {
		top = max(top, v)
	}
	if top > 0 {
		for i := range x {
			x[i] /= top
		}
	}
	return top
}
