package vb

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// objectNewton is vbDA.objects' update of one object without a known class
// at K ≥ 3 with the workers frozen and only the q_j read (distOnly, the
// default's label distributions given the LA fit's workers, in one pass):
// the fixed point γ = F(γ) = a + Σ_i φ_i(γ) of the generic loop, found by
// Newton's method on G(γ) = F(γ) − γ instead of SQUAREM. It reports
// whether it found it; if not, gamma is unchanged and the object takes
// the generic loop.
//
// With φ_iz ∝ exp ψ(γ_z) P(y_i | z), S_z = Σ_i φ_iz and M = Σ_i φ_i φ_iᵀ,
//
//	∂F_z/∂γ_z' = (S_z δ_zz' − M_zz') ψ'(γ_z') = (A D)_zz',
//
// A = diag(S) − M, D = diag(ψ'(γ)), and Newton's step Δ solves
// (I − A D) Δ = G. A is symmetric and positive semi-definite (a sum of the
// labels' covariances diag(φ_i) − φ_i φ_iᵀ), so that with d = √ψ'(γ) the
// system is H y = d∘G, Δ = y/d, with H = I − diag(d) A diag(d) symmetric
// (newtonScratch.solve). The rows of A sum to zero, so that H d⁻¹ = d⁻¹,
// and d∘G is orthogonal to d⁻¹ (Σ_z G_z = 0 where Σγ = Σa + n_j, which F
// keeps): Σ_z Δ_z = 0, for H + μI as well.
//
// G is the gradient, in the metric D, of the object's bound given its
// weights' optimum, L(γ) = Σ_i log Σ_z exp ψ(γ_z) P(y_i | z) +
// Σ_z [log Γ(γ_z) − (γ_z − a_z) ψ(γ_z)] + const on Σγ = Σa + n_j
// (∇L = D G there), and −D^½ H D^½ its Hessian at a fixed point: the
// fixed points F's iteration reaches are L's maxima, where H is positive
// definite, and F's step raises L (it is coordinate ascent).
//
// The steps are Newton's while each lowers Σ_z G_z², stays within
// γ_z > a_z (every F_z lies in (a_z, a_z + n_j), and so does the fixed
// point) and H is positive definite; once max_z |G_z| < newtonTol, one
// last Newton step is taken without evaluating G after it, as in
// object2Newton. Where a step fails, the object turns to ascent on L
// (newtonAscent). The start γ_j = a + (label counts) takes exp ψ and ψ'
// from vbDA.firstK. A task of more than newtonMaxRank labels and classes
// takes the generic loop.
//
// On the K = 10 speed file (2·10⁵ labels, 5 a task) a task takes 3.7
// evaluations of G, where the generic loop took 7.9 of its step; on the
// shipped sets of more than two classes that loop left many tasks at its
// maxInner-th step short of the fixed point (q_j up to 0.36 off on
// trec2010), and this form's q_j are within 10⁻¹⁰ of it
// (TestObjectNewtonK).
func (v *vbDA) objectNewton(c *vbChunk, pj, gamma []float64) bool {
	k := v.k
	if min(k, len(pj)/k) > newtonMaxRank {
		return false
	}
	nk := c.newtonScratch(k, len(pj)/k)
	x, xn, y := nk.x[:k], nk.xn[:k], nk.y[:k]
	copy(x, gamma)
	r2, rmax, _ := v.newtonEval(nk, pj, x, v.firstKAt(len(pj)/k, gamma), false)
	for evals := 1; evals < maxInner && r2 <= math.MaxFloat64; evals++ {
		if !nk.solve(pj, 0) || !v.inside(x, y, 1) {
			return v.newtonAscent(nk, pj, gamma, evals)
		}
		if rmax < newtonTol {
			for z := range x {
				x[z] += y[z]
			}
			copy(gamma, x)
			return true
		}
		for z := range x {
			xn[z] = x[z] + y[z]
		}
		r2n, rmaxn, _ := v.newtonEval(nk, pj, xn, nil, false)
		if !(r2n < r2) {
			return v.newtonAscent(nk, pj, gamma, evals+1)
		}
		copy(x, xn)
		r2, rmax = r2n, rmaxn
	}
	return false
}

// newtonAscent ends objectNewton from γ in nk.x, after evals evaluations,
// by ascent on L: every step is Newton's for H + μI (μ ≥ 0 the least of 0,
// 10⁻⁶, 10⁻⁵, … for which it is positive definite), an ascent direction of
// L, cut to stay within γ_z > a_z and halved until L rises by at least
// 10⁻⁴ of its slope (Armijo's rule) or Σ_z G_z² falls to a quarter; if
// no step does, F's own. Once max_z |G_z| < newtonTol and H is positive
// definite, the last Newton step is taken as in objectNewton. It gives up
// after newtonMaxEvals evaluations.
func (v *vbDA) newtonAscent(nk *newtonScratch, pj, gamma []float64, evals int) bool {
	k := v.k
	x, xn, g, y := nk.x[:k], nk.xn[:k], nk.g[:k], nk.y[:k]
	r2, rmax, l := v.newtonEval(nk, pj, x, nil, true)
	for evals++; evals < newtonMaxEvals && r2 <= math.MaxFloat64; {
		mu := 0.0
		for !nk.solve(pj, mu) {
			mu = max(10*mu, 1e-6)
			if mu > 1e6 {
				return false
			}
		}
		if rmax < newtonTol && mu == 0 && v.inside(x, y, 1) {
			for z := range x {
				x[z] += y[z]
			}
			copy(gamma, x)
			return true
		}
		var slope float64 // ∇L·Δ = Σ_z ψ'_z G_z Δ_z
		t := nk.t[:k]
		for z, d := range y {
			slope += t[z] * g[z] * d
		}
		step := 1.0
		for z, d := range y {
			if d < 0 {
				step = min(step, 0.9*(x[z]-v.a[z])/-d)
			}
		}
		accepted := false
		for ; step > 1e-10 && evals < newtonMaxEvals; step /= 2 {
			for z := range xn {
				xn[z] = x[z] + step*y[z]
			}
			r2n, rmaxn, ln := v.newtonEval(nk, pj, xn, nil, true)
			evals++
			if ln >= l+1e-4*step*slope || r2n < r2/4 {
				copy(x, xn)
				r2, rmax, l, accepted = r2n, rmaxn, ln, true
				break
			}
		}
		if !accepted {
			// F's step, from x's own evaluation.
			v.newtonEval(nk, pj, x, nil, false)
			for z := range x {
				x[z] += g[z]
			}
			r2, rmax, l = v.newtonEval(nk, pj, x, nil, true)
			evals += 2
		}
	}
	return false
}

// newtonMaxRank is the largest size of the system of a Newton step,
// min(n_j, K): a step takes about n_j min(n_j, K) K/2 multiplications and
// min(n_j, K)³/6 for the factorisation, against the 2 n_j K of each of the
// generic loop's (about 8) steps.
const newtonMaxRank = 32

// newtonMaxEvals is the most evaluations of G that objectNewton takes for
// an object.
const newtonMaxEvals = 200

// inside reports whether x + s·y lies within γ_z > a_z.
func (v *vbDA) inside(x, y []float64, s float64) bool {
	for z, az := range v.a {
		if !(x[z]+s*y[z] > az) {
			return false
		}
	}
	return true
}

// newtonEval evaluates objectNewton's numbers at γ = x into nk: exp ψ(γ)
// and ψ'(γ) (from first, vbDA.firstK, if it is not nil), the labels'
// weights φ_i, S and G = a + S − γ, and returns Σ_z G_z², max_z |G_z|
// and, if bound is set, L(γ) but for its constant.
func (v *vbDA) newtonEval(nk *newtonScratch, pj, x []float64, first [][2]float64, bound bool) (r2, rmax, l float64) {
	k := v.k
	g, s, e, t, u := nk.g[:k], nk.s[:k], nk.e[:k], nk.t[:k], nk.u[:len(pj)]
	if first != nil {
		for z := range k {
			f := first[z*(newtonStarts+1)+int(math.Round(x[z]-v.a[z]))]
			e[z], t[z] = f[0], f[1]
		}
	} else {
		// Every class's parts, then their exponentials in one loop
		// (num.ExpTo), which the processor overlaps.
		wp := nk.wp[:k]
		for z, xz := range x {
			e[z], wp[z], t[z] = digammaParts(xz)
		}
		num.ExpTo(e, e)
		for z, wz := range wp {
			e[z] *= wz
		}
	}
	// The labels' weights φ_i, rows of u, and their sums S.
	clear(s)
	prod := num.NewProduct()
	for i := 0; i+k <= len(pj); i += k {
		p, ui := pj[i:i+k], u[i:i+k]
		ui, e := ui[:len(p)], e[:len(p)]
		// Two sums, so that they do not wait on each other.
		var m0, m1 float64
		z := 0
		for ; z+1 < len(p); z += 2 {
			w0, w1 := e[z]*p[z], e[z+1]*p[z+1]
			ui[z], ui[z+1] = w0, w1
			m0 += w0
			m1 += w1
		}
		if z < len(p) {
			w := e[z] * p[z]
			ui[z] = w
			m0 += w
		}
		m := m0 + m1
		if bound {
			prod.Mul(m)
		}
		inv := 1 / m
		for z, w := range ui {
			w *= inv
			ui[z] = w
			s[z] += w
		}
	}
	a := v.a[:k]
	for z := range g {
		gz := a[z] + s[z] - x[z]
		g[z] = gz
		r2 += gz * gz
		if gz = math.Abs(gz); gz > rmax || gz != gz {
			rmax = gz
		}
	}
	if !bound {
		return r2, rmax, 0
	}
	l = prod.Log()
	for z, xz := range x {
		psi := math.Log(e[z])
		if !(e[z] > 0x1p-1000) {
			psi = num.Digamma(xz)
		}
		lg, _ := math.Lgamma(xz)
		l += lg - (xz-v.a[z])*psi
	}
	return r2, rmax, l
}

// newtonScratch holds objectNewton's numbers for one object: K each for
// γ, a trial γ, G, S, exp ψ(γ), ψ'(γ), the step and a part of exp ψ; the
// labels' weights (n×K); and the system's
// matrix and its own vectors.
type newtonScratch struct {
	k                        int
	x, xn, g, s, e, t, y, wp []float64
	u, h, c, r, b, w, v      []float64
}

// newtonScratch returns c's scratch for objectNewton on an object of n
// labels and K classes.
func (c *vbChunk) newtonScratch(k, n int) *newtonScratch {
	nk := &c.newton
	if nk.k != k {
		nk.k = k
		for _, p := range []*[]float64{&nk.x, &nk.xn, &nk.g, &nk.s, &nk.e, &nk.t, &nk.y, &nk.wp, &nk.c, &nk.r, &nk.v} {
			*p = make([]float64, k)
		}
		nk.h = make([]float64, k*k)
	}
	if len(nk.u) < n*k {
		nk.u = make([]float64, max(n*k, 2*len(nk.u)))
	}
	if len(nk.b) < n {
		m := max(n, 2*len(nk.b))
		nk.b, nk.w = make([]float64, m), make([]float64, m)
	}
	if m := min(n, k); len(nk.h) < m*m {
		nk.h = make([]float64, m*m)
	}
	return nk
}

// setFirstK tables, for every class z and count c ≤ newtonStarts at
// z(newtonStarts+1) + c, exp ψ(a_z + c) and ψ'(a_z + c) as objectNewton
// computes them, for the start γ_j = a + (label counts) of a task of at
// most newtonStarts labels (vbDA.start).
func (v *vbDA) setFirstK() {
	v.firstK = make([][2]float64, 0, v.k*(newtonStarts+1))
	for _, az := range v.a {
		for c := range newtonStarts + 1 {
			s, w, t := digammaParts(az + float64(c))
			v.firstK = append(v.firstK, [2]float64{num.Exp(s) * w, t})
		}
	}
}

// firstKAt returns vbDA.firstK if gamma is the start of a task of n labels
// (every γ_z is a_z plus a whole count), or nil.
func (v *vbDA) firstKAt(n int, gamma []float64) [][2]float64 {
	if v.firstK == nil || n > newtonStarts {
		return nil
	}
	for z, x := range gamma {
		c := math.Round(x - v.a[z])
		if !(c >= 0 && c <= float64(n)) || x != v.a[z]+c {
			return nil
		}
	}
	return v.firstK
}
