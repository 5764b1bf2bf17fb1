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
	rhos := v.rho[2*lo : 2*hi]
	for j := lo; j < hi; j++ {
		a, b := 2*(off[j]-base), 2*(off[j+1]-base)
		pj, gj := p[a:b], g[a:b]
		s0, s1 := ep0, ep1
		for i := 0; i+1 < len(pj); i += 2 {
			s0 *= pj[i]
			s1 *= pj[i+1]
			if max(max(0, s0), s1) < 0x1p-500 {
				s0 *= 0x1p500
				s1 *= 0x1p500
				prod.Scale(-500)
			}
		}
		rho := rhos[2*(j-lo) : 2*(j-lo)+2]
		if gc := goldOf(v.gold, j); gc >= 0 {
			// Clamped, as in objects.
			r0, r1 := rho[0], rho[1]
			for i := 0; i+1 < len(gj); i += 2 {
				gj[i], gj[i+1] = r0, r1
			}
			if gc == 0 {
				prod.Mul(s0 / ep0)
			} else {
				prod.Mul(s1 / ep1)
			}
			continue
		}
		m := s0 + s1
		inv := 1 / m
		r0, r1 := s0*inv, s1*inv
		c.change = max(c.change, math.Abs(r0-rho[0]))
		c.change = max(c.change, math.Abs(r1-rho[1]))
		rho[0], rho[1] = r0, r1
		c.glob[0] += r0
		c.glob[1] += r1
		for i := 0; i+1 < len(gj); i += 2 {
			gj[i], gj[i+1] = r0, r1
		}
		prod.Mul(m)
	}
}
