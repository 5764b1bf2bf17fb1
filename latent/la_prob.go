package latent

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// TaskProb is Task in probability space: the products
// p_z Π_{i ∈ j} P(y_i | z) are accumulated with a common power-of-two scale
// so that they do not underflow, and an object costs one division instead
// of K exponentials and a logarithm.
//
// A probability-space product cannot recover from a factor or a product
// that has underflowed, as the log-space sum can. A product that falls
// below 2⁻¹⁰²⁰, where it starts to lose precision, is replaced by 2⁻¹⁰¹⁹,
// an upper bound of its exact value, and marked as lost (see
// posteriorProb). When at the end every lost product is at most 2⁻⁶⁴ times
// the largest exact one, the lost classes get γ_j(z) = 0: their exact
// posteriors are below 2⁻⁶⁴, so the exact sum and the other posteriors
// round to the same numbers, and no weight is off by more than 2⁻⁶⁴.
// Otherwise (all products lost, or a lost one that is not negligible)
// TaskProb stops before the object. With the largest product kept above
// 2⁻²⁵⁶, a product is lost only when its class is more than about 10²³⁰
// times less likely than another, or when a probability the noise model
// gave has underflowed to zero.
func (e *laEval) TaskProb(lo, hi int, p, g []float64, gglob, _ []float64) (float64, int, int) {
	return e.taskProb(lo, hi, p, g, gglob, false)
}

// TaskProbShared is TaskProb writing γ_j once per object, the weights of
// all its labels (see SharedProbEvaluator).
func (e *laEval) TaskProbShared(lo, hi int, p, g []float64, gglob, _ []float64) (float64, int, int) {
	return e.taskProb(lo, hi, p, g, gglob, true)
}

// taskProb is TaskProb, or TaskProbShared if shared is set, in which case
// γ_j is written into its place in g directly.
func (e *laEval) taskProb(lo, hi int, p, g []float64, gglob []float64, shared bool) (float64, int, int) {
	k := e.k
	off := e.d.Offsets
	base := off[lo]
	var buf, gbuf num.Buf
	s := num.Scratch(&buf, k)
	gacc := num.Scratch(&gbuf, k)
	prod := num.NewProduct()
	var a0, a1 float64 // gacc for K = 2
	done := hi - lo
	for j := lo; j < hi; j++ {
		pj := p[(off[j]-base)*k : (off[j+1]-base)*k]
		if shared {
			s = g[(j-lo)*k : (j-lo+1)*k]
		}
		sum, scale, ok := e.posteriorProb(pj, s)
		if !ok {
			done = j - lo
			break
		}
		if !shared {
			fillRows(g[(off[j]-base)*k:(off[j+1]-base)*k], s)
		}
		if e.learn {
			if k == 2 {
				// In registers: through memory, each object's
				// additions would wait for the previous object's.
				a0 += s[0] - e.p[0]
				a1 += s[1] - e.p[1]
			} else {
				for z, v := range s {
					gacc[z] += v - e.p[z]
				}
			}
		}
		prod.Mul(sum)
		prod.Scale(scale)
	}
	if k == 2 {
		gacc[0], gacc[1] = a0, a1
	}
	e.addGlobal(gglob, gacc)
	return prod.M, prod.E, done
}

// fillRows copies the K values of s into every row of K values of g.
func fillRows(g, s []float64) {
	k := len(s)
	if k == 2 {
		s0, s1 := s[0], s[1]
		for i := 0; i+1 < len(g); i += 2 {
			g[i] = s0
			g[i+1] = s1
		}
		return
	}
	for i := 0; i < len(g); i += k {
		copy(g[i:i+k], s)
	}
}

// addGlobal adds the prior's gradient of a range of objects to gglob.
func (e *laEval) addGlobal(gglob, gacc []float64) {
	if e.learn {
		for z, v := range gacc {
			gglob[z] += v
		}
	}
}

// Bounds of posteriorProb: a product below lostBelow has lost precision
// and is replaced by lostBound, an upper bound of its exact value; lost
// products at most negligible times the largest exact one are dropped.
const (
	lostBelow  = 0x1p-1020
	lostBound  = 0x1p-1019
	negligible = 0x1p-64
)

// posteriorProb writes γ_j into s given the probabilities p of the labels of
// object j, and returns Σ_z p_z Π_i P(y_i | z) as sum·2^scale; ok is false
// when the products lost too much precision (see TaskProb).
func (e *laEval) posteriorProb(p, s []float64) (sum float64, scale int, ok bool) {
	if e.k > 2 {
		if sum, ok := e.posteriorQuick(p, s); ok {
			return sum, 0, true
		}
	}
	return e.posteriorChecked(p, s)
}

// posteriorChecked is posteriorProb for any object: it checks the products
// after every label, rescaling them and marking those lost.
func (e *laEval) posteriorChecked(p, s []float64) (sum float64, scale int, ok bool) {
	k := e.k
	if k == 2 {
		var q pair
		s0, s1 := e.p[0], e.p[1]
		for i := 0; i+1 < len(p); i += 2 {
			s0 *= p[i]
			s1 *= p[i+1]
			if !(s0 >= 0x1p-256 && s1 >= 0x1p-256) {
				if s0, s1, ok = q.check(s0, s1); !ok {
					return 0, 0, false
				}
			}
		}
		g0, g1, sum, ok := q.end(s0, s1)
		if !ok {
			return 0, 0, false
		}
		s[0], s[1] = g0, g1
		return sum, q.scale, true
	}
	// lost has bit z set when the product of class z is lost; beyond 64
	// classes any lost product sends the object to the log path.
	var lost uint64
	copy(s, e.p)
	for i := 0; i < len(p); i += k {
		pi := p[i : i+k]
		mx, mn := 0.0, math.Inf(1)
		for z := range s {
			s[z] *= pi[z]
			mx = max(mx, s[z])
			mn = min(mn, s[z])
		}
		if !(mn >= lostBelow) {
			if mn != mn || k > 64 {
				return 0, 0, false
			}
			for z, v := range s {
				if v < lostBelow {
					s[z] = lostBound
					lost |= 1 << z
				}
			}
			mx = max(mx, lostBound)
		}
		if mx < 0x1p-256 {
			_, ex := math.Frexp(mx)
			f := math.Ldexp(1, -ex)
			for z := range s {
				s[z] *= f
			}
			scale += ex
		}
	}
	var lostSum, exact float64
	for z, v := range s {
		if lost&(1<<z) != 0 {
			lostSum += v
			s[z] = 0
		} else {
			exact = max(exact, v)
			sum += v
		}
	}
	if lost != 0 && !(lostSum <= negligible*exact) {
		return 0, 0, false
	}
	inv := 1 / sum
	for z := range s {
		s[z] *= inv
	}
	return sum, scale, true
}

// pair is the state of an object's two products p_z Π_i P(y_i | z) at
// K = 2 besides their values, while posteriorChecked or TaskTable
// multiplies its labels in: the products are scaled by 2^-scale, and lost
// has bit z set when the product of class z is lost (replaced by lostBound,
// see TaskProb). The products themselves stay in the caller's variables, s0
// and s1, which the compiler keeps in registers; after each label the
// caller calls check unless both are at least 2⁻²⁵⁶:
//
//	s0 *= a
//	s1 *= b
//	if !(s0 >= 0x1p-256 && s1 >= 0x1p-256) {
//		if s0, s1, ok = q.check(s0, s1); !ok { ... }
//	}
type pair struct {
	lost  int
	scale int
}

// check returns the products s0 and s1 after a label when one is below
// 2⁻²⁵⁶ or NaN: a product that has lost precision is marked and replaced
// by lostBound, and both are rescaled when both are below 2⁻²⁵⁶. It
// reports false if a product is NaN.
func (q *pair) check(s0, s1 float64) (float64, float64, bool) {
	if !(s0 >= lostBelow && s1 >= lostBelow) { // or NaN
		if s0 != s0 || s1 != s1 {
			return s0, s1, false
		}
		if s0 < lostBelow {
			s0, q.lost = lostBound, q.lost|1
		}
		if s1 < lostBelow {
			s1, q.lost = lostBound, q.lost|2
		}
	}
	if s0 < 0x1p-256 && s1 < 0x1p-256 { // neither is NaN here
		_, ex := math.Frexp(max(s0, s1))
		f := math.Ldexp(1, -ex)
		s0 *= f
		s1 *= f
		q.scale += ex
	}
	return s0, s1, true
}

// end returns the posterior γ_j = (g0, g1) and the sum of the products
// s0 and s1, sum·2^scale; ok is false when the products lost too much
// precision (see TaskProb).
func (q *pair) end(s0, s1 float64) (g0, g1, sum float64, ok bool) {
	switch q.lost {
	case 3:
		return 0, 0, 0, false
	case 1:
		if !(s0 <= negligible*s1) {
			return 0, 0, 0, false
		}
		return 0, 1, s1, true
	case 2:
		if !(s1 <= negligible*s0) {
			return 0, 0, 0, false
		}
		return 1, 0, s0, true
	}
	sum = s0 + s1
	inv := 1 / sum
	return s0 * inv, s1 * inv, sum, true
}

// posteriorQuick is posteriorProb for the common object with K > 2 classes,
// without its checks per label: it multiplies the products through, and reports false unless
// every probability was in [0, 1] and every product ends at least 2⁻²⁵⁶.
// Then every product fell monotonically and stayed at least 2⁻²⁵⁶, so
// posteriorProb would have neither rescaled nor lost a product, and the
// result is bit for bit posteriorProb's, which the caller computes
// instead when it reports false. (For K = 2 the checks cost little, and an
// object refused would cost both products.)
func (e *laEval) posteriorQuick(p, s []float64) (float64, bool) {
	const one = 0x3FF0000000000000 // the bits of 1.0: a larger uint64 is > 1, NaN or negative
	var top uint64                 // the largest bits of a probability
	k := e.k
	s = s[:k]
	copy(s, e.p)
	for i := 0; i+k <= len(p); i += k {
		pi := p[i : i+k : i+k]
		for z, v := range pi {
			s[z] *= v
			top = max(top, math.Float64bits(v))
		}
	}
	if top > one {
		return 0, false
	}
	return quickEnd(s)
}

// quickEnd ends posteriorQuick given the products s, every probability
// in [0, 1]: unless a product is below 2⁻²⁵⁶ (or NaN), it divides them by
// their sum, which it returns.
func quickEnd(s []float64) (float64, bool) {
	sum := 0.0
	for _, v := range s {
		if !(v >= 0x1p-256) {
			return 0, false
		}
		sum += v
	}
	inv := 1 / sum
	for z := range s {
		s[z] *= inv
	}
	return sum, true
}
