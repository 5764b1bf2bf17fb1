package vb

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// objectsTable is objects' generic loop (K > 4, or generic unset) for a
// noise model whose probabilities are a table (tabled, DS's posterior):
// every label's probabilities are read from the table t and its weights
// added to the chunk's counts in the one loop over the objects of c,
// without Prob writing them out and Accumulate reading them back. It makes
// the generic loop's operations in the same order, and Accumulate's
// additions to every count in the same order, so that its fits are the
// generic loop's bit for bit (TestVBLAScalar). ep holds exp E[log p_z];
// s is scratch of K.
//
// An object with labels and without a known class is first given to
// num.PosteriorRows (four classes an instruction on amd64 with AVX2, for
// K ≥ 4), which makes the same operations in the same order where no
// product comes near underflow: every s(z) at least 2⁻²⁵⁶ at the end, and
// so never below mulRescaled's 2⁻⁵⁰⁰ on the way, the table's values being
// probabilities. It adds the object's ρ_j to its labels' counts and
// multiplies prod by Σ_z s_j(z); an object it declines takes the loop
// below. Not on a build that fuses multiply-adds (num.UnfusedVectorised),
// where normalizeInto adds s(z)·(1/Σ s) to the chunk's sums unrounded.
func (v *vbLA) objectsTable(c *vbChunk, t, ep, s []float64, prod *num.Product) {
	k := v.k
	d := v.d
	off := d.Offsets
	acc := c.acc
	change, glob := c.change, c.glob
	vec := num.UnfusedVectorised() && k >= 4 && !c.frozen
	var ends [1]int
	for j := c.lo; j < c.hi; j++ {
		a, b := off[j], off[j+1]
		workers, labels := d.Worker[a:b], d.Label[a:b]
		labels = labels[:len(workers)]
		if vec && len(workers) > 0 && goldOf(v.gold, j) < 0 {
			ends[0] = len(workers)
			pr, done := num.PosteriorRows(t, acc, workers, labels, ends[:], ep, s, nil, *prod)
			if done == 1 {
				// normalizeInto's updates from ρ_j, which s now holds.
				*prod = pr
				rho := v.rho[j*k : (j+1)*k]
				for z, r := range s[:k] {
					change = maxNaN(change, math.Abs(r-rho[z]))
					rho[z] = r
					glob[z] += r
				}
				continue
			}
		}
		copy(s, ep)
		for i, w := range workers {
			at := (int(w)*k + int(labels[i])) * k
			mulRescaled(s, t[at:at+k], prod)
		}
		rho := v.rho[j*k : (j+1)*k]
		if g := goldOf(v.gold, j); g >= 0 {
			// Clamped, as in objects.
			prod.Mul(s[g] / ep[g])
		} else {
			m := normalizeInto(rho, s, glob, &change)
			prod.Mul(m)
		}
		if c.frozen {
			continue
		}
		for i, w := range workers {
			at := (int(w)*k + int(labels[i])) * k
			cw := acc[at : at+k]
			for z, r := range rho {
				cw[z] += r
			}
		}
	}
	c.change = change
}

// objects2Pairs is objects2Table (K = 2, DS's table, no known classes)
// by num.PosteriorPairsRho, both classes in one instruction on amd64 with
// AVX2, on the chunk's objects at once, given by the data set's offsets:
// for each object the products s_z of its labels' rows from
// exp E[log p_z], ρ_j = s·(1/(s_0 + s_1)) with its change and the chunk's
// sums as end2 moves them, ρ_j added to its labels' counts, and s_0 + s_1
// multiplied into prod: the same operations in the same order as
// objects2Table's, where no product falls below 2⁻²⁵⁶ (and so none below
// times2's 2⁻⁵⁰⁰, the table's values being probabilities), the sum is at
// most 2 and the change is a number (maxNaN's largest is then max's). An
// object it declines takes objects2Table, and the rest of the chunk
// num.PosteriorPairsRho again. The caller takes it only where
// num.UnfusedVectorised: a build that fuses multiply-adds adds
// s_z·(1/Σ s) to the chunk's sums unrounded in objects2Table.
func (v *vbLA) objects2Pairs(c *vbChunk, t, ep []float64, prod *num.Product) {
	d := v.d
	off := d.Offsets
	for j := c.lo; j < c.hi; {
		done := 0
		if c.change == c.change {
			*prod, c.change, done = num.PosteriorPairsRho(t, c.acc, d.Worker, d.Label, off[j:c.hi+1], ep[0], ep[1], v.rho[2*j:2*c.hi], c.glob, c.change, *prod)
		}
		j += done
		if j < c.hi {
			// Object j by objects2Table, on a chunk of it alone.
			one := *c
			one.lo, one.hi = j, j+1
			v.objects2Table(&one, t, ep, prod)
			c.change = one.change
			j++
		}
	}
}
