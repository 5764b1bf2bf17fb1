package vb

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// objects2 is objects for K = 2, with the two classes in scalars and the
// labels' weights written without calls to copy: the same operations in
// the same order, so that its fits are the generic loop's bit for bit
// (TestVBLAScalar). The E-step over the labels is the default model's
// main cost at K = 2, where the generic loop's slices and copies of two
// numbers cost more than the arithmetic.
func (v *vbLA) objects2(c *vbChunk, p, g []float64, lo, hi int, ep0, ep1 float64, prod *num.Product) {
	off := v.d.Offsets
	base := off[lo]
	for j := lo; j < hi; j++ {
		a, b := 2*(off[j]-base), 2*(off[j+1]-base)
		pj, gj := p[a:b], g[a:b]
		s0, s1 := ep0, ep1
		for i := 0; i+1 < len(pj); i += 2 {
			s0, s1 = times2(s0, s1, pj[i], pj[i+1], prod)
		}
		r0, r1 := v.end2(c, j, s0, s1, ep0, ep1, prod)
		for i := 0; i+1 < len(gj); i += 2 {
			gj[i], gj[i+1] = r0, r1
		}
	}
}

// objects2Table is objects2 for a noise model whose probabilities are a
// table (noise.Tabled, with Accumulate adding a label's weights where the
// table holds its probabilities, as DS's posterior does): every label's
// two probabilities are read from the table and its weights added to the
// chunk's counts in the one loop over the objects [lo, hi) of c, without
// writing them out and reading them back (the work of Prob, objects2 and
// Accumulate, with the same operations in the same order).
func (v *vbLA) objects2Table(c *vbChunk, t []float64, ep0, ep1 float64, prod *num.Product) {
	d := v.d
	off := d.Offsets
	acc := c.acc
	for j := c.lo; j < c.hi; j++ {
		a, b := off[j], off[j+1]
		workers, labels := d.Worker[a:b], d.Label[a:b]
		labels = labels[:len(workers)]
		s0, s1 := ep0, ep1
		for i, w := range workers {
			at := 4*int(w) + 2*int(labels[i]&1)
			s0, s1 = times2(s0, s1, t[at], t[at+1], prod)
		}
		r0, r1 := v.end2(c, j, s0, s1, ep0, ep1, prod)
		for i, w := range workers {
			at := 4*int(w) + 2*int(labels[i]&1)
			acc[at] += r0
			acc[at+1] += r1
		}
	}
}

// times2 returns (s0 p0, s1 p1), both multiplied by 2⁵⁰⁰ (and prod by
// 2⁻⁵⁰⁰) when the larger is below 2⁻⁵⁰⁰, as objects rescales.
func times2(s0, s1, p0, p1 float64, prod *num.Product) (float64, float64) {
	s0 *= p0
	s1 *= p1
	if max(max(0, s0), s1) < 0x1p-500 {
		s0 *= 0x1p500
		s1 *= 0x1p500
		prod.Scale(-500)
	}
	return s0, s1
}

// end2 ends object j's update at K = 2 from s_j = (s0, s1), as objects
// does: it sets ρ_j (unless the object is clamped to its known class), adds
// its part of the bound to prod and its change and ρ_j to c, and returns
// ρ_j, the weights of the object's labels.
func (v *vbLA) end2(c *vbChunk, j int, s0, s1, ep0, ep1 float64, prod *num.Product) (float64, float64) {
	rho := v.rho[2*j : 2*j+2]
	if gc := goldOf(v.gold, j); gc >= 0 {
		// Clamped, as in objects.
		if gc == 0 {
			prod.Mul(s0 / ep0)
		} else {
			prod.Mul(s1 / ep1)
		}
		return rho[0], rho[1]
	}
	m := s0 + s1
	inv := 1 / m
	r0, r1 := s0*inv, s1*inv
	c.change = max(c.change, math.Abs(r0-rho[0]))
	c.change = max(c.change, math.Abs(r1-rho[1]))
	rho[0], rho[1] = r0, r1
	c.glob[0] += r0
	c.glob[1] += r1
	prod.Mul(m)
	return r0, r1
}
