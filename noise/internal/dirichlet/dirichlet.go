// Package dirichlet holds the Dirichlet errors of the one-coin and
// per-class kinds of worker of noise.DS.Averaged: a worker's errors in row
// z, ε_wz over the classes y ≠ z, are drawn from Dirichlet(κ μ_z) around
// the crowd's pattern μ_z, and Errors keeps, for every worker, the values
// of the special functions that their evidence, expectations and
// precision read, computed for all workers at once in vectorised batches
// (num.LgammaDigammaTo).
package dirichlet

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// Counts is what the errors read of W workers' expected counts at K
// classes: Off holds every worker's counts C_w(z, y) off the diagonal,
// W×K×K row-major (0 on the diagonal), and E every row's sum of them,
// e_wz = Σ_{y≠z} C_w(z, y), W×K.
type Counts struct {
	K      int
	Off, E []float64
}

// Errors is one kind's errors, ε_wz ~ Dirichlet(Kap μ_z), and their values
// for the counts of the last Fill.
type Errors struct {
	Kap float64 // the precision κ
	// p0 holds the prior's pseudo-counts, κ μ_z(y) at z·K + y for y ≠ z
	// and κ at z·K + z; lg0, ps0 and tr0 their log Γ, ψ and ψ'.
	p0, lg0, ps0, tr0 []float64
	lim               []float64 // small's bound of every p0
	// lg and ps hold log Γ and ψ of every worker's posterior
	// pseudo-counts: κ μ_z(y) + C_w(z, y) at w·K² + z·K + y for y ≠ z,
	// and κ + e_wz at w·K² + z·K + z.
	lg, ps []float64
	// Ev holds every worker's log evidence of its errors,
	//
	//	E_w(κ) = Σ_z log B(κ μ_z + C_w(z, ≠z)) − log B(κ μ_z).
	Ev []float64
}

// Scratch is the memory Fill works in; its zero value is ready, and one
// Scratch serves Errors of any size, one Fill at a time.
type Scratch struct {
	args, vals []float64
	at         []int32
}

// New returns the errors of precision kap of w workers at K = k, with no
// values yet (Fill).
func New(kap float64, k, w int) *Errors {
	k2 := k * k
	return &Errors{Kap: kap, p0: make([]float64, k2), lg0: make([]float64, k2), ps0: make([]float64, k2),
		tr0: make([]float64, k2), lim: make([]float64, k2), lg: make([]float64, w*k2), ps: make([]float64, w*k2), Ev: make([]float64, w)}
}

// small reports whether a count n is small enough beside the pseudo-count
// p, n ≤ smallBound(p) = 10⁻⁶·p·min(1, p), that log Γ(p + n) ≈ log Γ(p) +
// n ψ(p) and ψ(p + n) ≈ ψ(p) + n ψ'(p) hold within about 10⁻¹²: most of
// the counts of workers with few labels.
func small(n, p float64) bool { return n <= smallBound(p) }

// smallBound is small's largest count beside the pseudo-count p.
func smallBound(p float64) float64 { return 1e-6 * p * min(1, p) }

// Fill sets e's values at its precision for the counts c and the
// pattern's logarithms lpat (log μ_z(y) at z·K + y, K×K), and every
// worker's evidence,
//
//	E_w(κ) = Σ_z [log Γ(κ) − log Γ(κ + e_wz) + Σ_{y≠z} log Γ(κ μ_z(y) + C_w(z, y)) − log Γ(κ μ_z(y))].
func (e *Errors) Fill(c Counts, lpat []float64, s *Scratch) { FillAll(c, lpat, s, e) }

// fillValues is about the number of values of a block of workers that
// FillAll takes at a time, so that a block's values are read again from
// the cache.
const fillValues = 8192

// FillAll is Fill of every errors of es for the same counts and pattern,
// a block of workers at a time.
func FillAll(c Counts, lpat []float64, s *Scratch, es ...*Errors) {
	k := c.K
	for _, e := range es {
		e.prepare(k, lpat)
	}
	w := len(c.E) / k
	step := max(1, fillValues/(k*k))
	for lo := 0; lo < w; lo += step {
		hi := min(lo+step, w)
		for _, e := range es {
			e.fill(c, lo, hi, s)
		}
	}
}

// prepare sets the prior's pseudo-counts for the precision and the
// pattern, their special functions and small's bounds of them.
func (e *Errors) prepare(k int, lpat []float64) {
	for i := range e.p0 {
		e.p0[i] = e.Kap
		if i/k != i%k {
			e.p0[i] = e.Kap * math.Exp(lpat[i])
		}
		e.tr0[i] = num.Trigamma(e.p0[i])
		e.lim[i] = smallBound(e.p0[i])
	}
	num.LgammaDigammaTo(e.lg0, e.ps0, e.p0)
}

// fill is Fill's work on the workers [lo, hi), after prepare: a small
// count takes the expansions, the others go to one batch.
func (e *Errors) fill(c Counts, lo, hi int, s *Scratch) {
	k := c.K
	k2 := k * k
	args, at := s.args[:0], s.at[:0]
	for r := lo * k; r < hi*k; r++ { // every worker's row r = w·K + z
		j0, i0, z := r*k, r%k*k, r%k
		off, lg, ps := c.Off[j0:j0+k], e.lg[j0:j0+k], e.ps[j0:j0+k]
		lim, p0, lg0, ps0, tr0 := e.lim[i0:i0+k], e.p0[i0:i0+k], e.lg0[i0:i0+k], e.ps0[i0:i0+k], e.tr0[i0:i0+k]
		for y, n := range off {
			if y == z {
				n = c.E[r]
			}
			if n <= lim[y] {
				lg[y], ps[y] = lg0[y]+n*ps0[y], ps0[y]+n*tr0[y]
			} else {
				args = append(args, p0[y]+n)
				at = append(at, int32(j0+y))
			}
		}
	}
	if cap(s.vals) < 2*len(args) {
		s.vals = make([]float64, 2*len(args))
	}
	lgs, pss := s.vals[:len(args)], s.vals[len(args):2*len(args)]
	num.LgammaDigammaTo(lgs, pss, args)
	for m, j := range at {
		e.lg[j], e.ps[j] = lgs[m], pss[m]
	}
	s.args, s.at = args, at
	for w := lo; w < hi; w++ {
		var f float64
		lg := e.lg[w*k2 : (w+1)*k2]
		for i, v := range lg {
			f += v - e.lg0[i]
		}
		for z := range k { // the diagonal's terms enter with the other sign
			f -= 2 * (lg[z*k+z] - e.lg0[z*k+z])
		}
		e.Ev[w] = f
	}
}

// Row writes into errs worker w's E[log ε_wz(y)] = ψ(κ μ_z(y) + C_w(z, y))
// − ψ(κ + e_wz) for y ≠ z (0 at y = z) under the errors' posterior
// Dirichlet(κ μ_z + C_w(z, ≠z)), and returns its divergence from the prior
// Dirichlet(κ μ_z), from the values of the last Fill with the counts c.
func (e *Errors) Row(c Counts, w, z int, errs []float64) float64 {
	k := c.K
	i0 := (w*k + z) * k
	lg, ps := e.lg[i0:i0+k], e.ps[i0:i0+k]
	kl := lg[z] - e.lg0[z*k+z]
	for y, n := range c.Off[i0 : i0+k] {
		if y == z {
			errs[y] = 0
			continue
		}
		errs[y] = ps[y] - ps[z]
		if n > 0 {
			kl += e.lg0[z*k+y] - lg[y] + n*errs[y]
		}
	}
	return kl
}

// PrecisionStep returns the precision after one step from e's towards the
// maximiser of the likelihood of the workers' errors of every row,
// weighted by u_w, under Dirichlet(κ μ_z) errors of the mean μ_z of the
// last Fill (with the counts c),
//
//	L(κ) = Σ_w u_w Σ_z [log Γ(κ) − log Γ(κ + e_wz) + Σ_{y≠z} log Γ(κ μ_z(y) + C_w(z, y)) − log Γ(κ μ_z(y))],
//
// with gradient g = Σ_w u_w Σ_z [ψ(κ) − ψ(κ + e_wz) + Σ_{y≠z} μ_z(y) (ψ(κ μ_z(y) + C_w(z, y)) − ψ(κ μ_z(y)))]
// and second derivative h, the same sums over trigammas with μ_z(y)²:
// Newton's step in t = log κ, t ← t − κg / (κg + κ²h), where that
// curvature is negative (Minka, Estimating a Dirichlet distribution, 2000,
// section 3.2), changing κ by at most a factor of e, and otherwise Minka's
// fixed point κ ← κ (g + D) / D with D = Σ_w u_w Σ_z [ψ(κ + e_wz) − ψ(κ)]
// (eq. 118); the result is clamped to [lo, hi]. The digammas are those of
// the last Fill; only trigammas are computed here, and none for a small
// count (whose term is below 10⁻⁶ of its digammas').
func (e *Errors) PrecisionStep(c Counts, u []float64, lo, hi float64) float64 {
	k := c.K
	kap := e.Kap
	var top, den, h float64
	pk, tk := e.ps0[0], e.tr0[0]
	for i, ez := range c.E {
		w, z := i/k, i%k
		if u[w] < 1e-12 || ez <= 0 {
			continue
		}
		ps := e.ps[i*k : (i+1)*k]
		den += u[w] * (ps[z] - pk)
		h += u[w] * (tk - num.Trigamma(kap+ez))
		var t, th float64
		for y, n := range c.Off[i*k : (i+1)*k] {
			if n <= 0 {
				continue
			}
			p := e.p0[z*k+y]
			m := p / kap
			t += m * (ps[y] - e.ps0[z*k+y])
			if !small(n, p) {
				th += m * m * (num.Trigamma(p+n) - e.tr0[z*k+y])
			}
		}
		top += u[w] * t
		h += u[w] * th
	}
	if den <= 0 || top <= 0 {
		return kap
	}
	g := top - den
	next := kap * top / den
	if cv := kap*g + kap*kap*h; cv < 0 {
		next = kap * math.Exp(max(min(-kap*g/cv, 1), -1))
	}
	return min(max(next, lo), hi)
}
