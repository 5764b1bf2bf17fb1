package vb

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// object2Newton is vbDA.objects' update of one object without a known
// class at K = 2 with the workers frozen (the default's label
// distributions given the LA fit's workers, in one pass): the fixed point
// γ_j = F(γ_j) = a + Σ_i φ_i(γ_j) of the generic loop, found by Newton's
// method on its one free coordinate instead of SQUAREM. With x = γ_0 and
// S = γ_0 + γ_1 (a_0 + a_1 + n_j, which F keeps), the fixed point is the
// root of
//
//	g(x) = a_0 + Σ_i φ_i(0) − x,  φ_i(0) = p_i(0) / (p_i(0) + u p_i(1)),
//	u = exp(ψ(S − x) − ψ(x)),
//	g'(x) = (ψ'(x) + ψ'(S − x)) Σ_i φ_i(0) φ_i(1) − 1,
//
// each evaluation one exponential (u and ψ' from digammaParts, or from
// vbDA.first at the start) and a division a label, without the weights,
// the bound's product or exp ψ of each class that the generic step takes.
// g > 0 below every root and g < 0 above (g(a_0) = Σ_i φ_i(0) > 0,
// g(S − a_1) = Σ_i φ_i(0) − n_j < 0), so that the evaluations keep a
// bracket (lo, hi) of a root; a Newton step that leaves it is replaced by
// F's own step when that stays inside, or by the bracket's midpoint. Once
// |g| < newtonTol, one last Newton step is taken without evaluating g
// after it (or the steps end at the maxInner-th evaluation). The object
// then ends as in the generic loop (vbStep2 and settle): the weights and
// the bound's terms at γ_j = (x, S − x), and γ_j moves to F(γ_j); or with
// distOnly, where none of it is read, γ_j is set to (x, S − x).
//
// SQUAREM on one coordinate is Steffensen's method, two evaluations of F
// for each step of quadratic convergence. On 2·10⁶ labels (one-coin
// workers, 5 labels a task) this form takes 3.9 evaluations a task, the
// first from the table, where the generic loop took 6.4 of vbStep2. The
// generic loop stops at |F(γ) − γ| < innerTol, which leaves γ as far as
// innerTol/|g'| from the fixed point where F is flat (g' near 0), and at
// its maxInner-th evaluation where its residual stopped shrinking and it
// turned to plain updates: on those labels its q_j are up to 3·10⁻⁶ off
// the root, on the spammers and sparse regimes up to 0.015 (ten tasks of
// 4000 and six of 8000 off by more than 10⁻⁶), and this form's within
// 10⁻¹¹ on all of them (TestObject2Newton). Where the steps fail (a value
// that is not finite) the object takes object2.
func (v *vbDA) object2Newton(c *vbChunk, pj, gj, gamma []float64) {
	a0, a1 := v.a[0], v.a[1]
	x, s := gamma[0], gamma[0]+gamma[1]
	lo, hi := a0, s-a1
	first := v.firstAt(len(pj)/2, gamma)
	for it := 0; it+1 < maxInner; it++ {
		var u, tt float64
		if it == 0 && first >= 0 {
			u, tt = v.first[first][0], v.first[first][1]
		} else {
			s0, w0, t0 := digammaParts(x)
			s1, w1, t1 := digammaParts(s - x)
			u, tt = num.Exp(s1-s0)*(w1/w0), t0+t1
		}
		var f, h float64
		for i := 0; i+1 < len(pj); i += 2 {
			p0 := pj[i]
			phi := p0 / (p0 + u*pj[i+1])
			f += phi
			h += phi * (1 - phi)
		}
		g := a0 + f - x
		if g != g {
			x = math.NaN()
			break
		}
		if g > 0 {
			lo = x
		} else {
			hi = x
		}
		slope := tt*h - 1
		y := x - g/slope
		inside := slope < 0 && y > lo && y < hi
		if math.Abs(g) < newtonTol {
			// The last step, without its evaluation: from |g| below
			// newtonTol, one of quadratic convergence.
			if inside {
				x = y
			}
			break
		}
		if !inside {
			// Outside the bracket: F's step if it is inside, else the
			// bracket's midpoint.
			if y = x + g; !(y > lo && y < hi) {
				y = lo + (hi-lo)/2
			}
		}
		x = y
	}
	if math.IsNaN(x) {
		v.object2(c, pj, gj, gamma)
		return
	}
	if v.distOnly {
		// Neither the weights, the bound nor the change are read: γ_j
		// is the fixed point as Newton's steps leave it.
		gamma[0], gamma[1] = x, s-x
		return
	}
	old := [2]float64{gamma[0], gamma[1]}
	gamma[0], gamma[1] = x, s-x
	e0, e1, n0, n1, prod := vbStep2(pj, gj, gamma[0], gamma[1], a0, a1)
	e, next := [2]float64{e0, e1}, [2]float64{n0, n1}
	v.settle(c, len(pj)/2, prod, gamma, e[:], old[:], next[:])
}

// newtonStarts is the largest number of labels of a task whose start
// γ_j = a + (label counts) has the numbers of its first Newton step tabled
// (vbDA.first).
const newtonStarts = 32

// setFirst tables, for every n ≤ newtonStarts and c ≤ n at n(n+1)/2 + c,
// u = exp(ψ(a_1 + n − c) − ψ(a_0 + c)) and ψ'(a_0 + c) + ψ'(a_1 + n − c)
// as object2Newton computes them at γ_j = (a_0 + c, a_1 + n − c), the start
// of a task of n labels, c of class 0 (vbDA.start).
func (v *vbDA) setFirst() {
	a0, a1 := v.a[0], v.a[1]
	v.first = make([][2]float64, 0, (newtonStarts+1)*(newtonStarts+2)/2)
	for n := range newtonStarts + 1 {
		for c := range n + 1 {
			s0, w0, t0 := digammaParts(a0 + float64(c))
			s1, w1, t1 := digammaParts(a1 + float64(n-c))
			v.first = append(v.first, [2]float64{num.Exp(s1-s0) * (w1 / w0), t0 + t1})
		}
	}
}

// firstAt returns the index in vbDA.first of the start γ (gamma) of a task
// of n labels, or -1 if it is not tabled.
func (v *vbDA) firstAt(n int, gamma []float64) int {
	if v.first == nil || n > newtonStarts {
		return -1
	}
	c := math.Round(gamma[0] - v.a[0])
	if !(c >= 0 && c <= float64(n)) || gamma[0] != v.a[0]+c || gamma[1] != v.a[1]+(float64(n)-c) {
		return -1
	}
	return n*(n+1)/2 + int(c)
}

// newtonTol is the bound on |g| = |F_0(γ) − γ_0| below which
// object2Newton takes its last Newton step, without evaluating g after
// it: the generic loop's innerTol, from which a step of quadratic
// convergence leaves γ_j about (innerTol/g′)² |g″/2g′| from the fixed
// point.
const newtonTol = innerTol

// digammaParts returns s and w with exp ψ(x) = Exp(s)·w, as
// num.ExpDigammaParts does (to rounding), and t = ψ'(x) to about 10⁻⁸
// relative, for Newton's slope in object2Newton: x is shifted to
// x + n ≥ 7 with the product P = Π_{i<n} (x + i) and its first two
// derivatives, Σ_{i<n} 1/(x + i) = P'/P and Σ_{i<n} 1/(x + i)² =
// (P'/P)² − P”/P, and at w = x + n − ½ the asymptotic series ψ'(x + n) =
// 1/w − 1/(12w³) + 7/(240w⁵) − 31/(1344w⁷) + …, whose next term is below
// 10⁻⁸ of it.
// Below 10⁻¹⁰⁰ (and for NaN) it returns num.ExpDigammaParts' parts and
// num.Trigamma.
func digammaParts(x float64) (s, w, t float64) {
	if !(x >= 1e-100) {
		s, w = num.ExpDigammaParts(x)
		return s, w, num.Trigamma(x)
	}
	p, dp, ddp := 1.0, 0.0, 0.0
	for ; x < 7; x++ {
		ddp = ddp*x + 2*dp
		dp = dp*x + p
		p *= x
	}
	w = x - 0.5
	inv := 1 / (w * w * p) // 1/(w² P)
	w2 := inv * p          // 1/w²
	w4 := w2 * w2
	d1 := dp * (w * w) * inv // P'/P
	s = (1.0/24)*w2 - (7.0/960)*w4 + (31.0/8064)*w4*w2 - (127.0/30720)*w4*w4 - d1
	t = d1*d1 - ddp*(w*w)*inv + w*w2*(1-w2*(1.0/12-w2*(7.0/240-w2*(31.0/1344))))
	return s, w, t
}
