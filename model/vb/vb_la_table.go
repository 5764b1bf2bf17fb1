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
// below.
func (v *vbLA) objectsTable(c *vbChunk, t, ep, s []float64, prod *num.Product) {
	k := v.k
	d := v.d
	off := d.Offsets
	acc := c.acc
	change, glob := c.change, c.glob
	vec := num.Vectorised() && k >= 4 && !c.frozen
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

// pairsBatch is the number of objects objects2Pairs gives
// num.PosteriorPairsTo at a time.
const pairsBatch = 256

// objects2Pairs is objects2Table (K = 2, DS's table, no known classes)
// by num.PosteriorPairsTo, both classes in one instruction on amd64 with
// AVX2: for each object the products s_z of its labels' rows from
// exp E[log p_z], ρ_j = s·(1/(s_0 + s_1)) added to its labels' counts,
// and s_0 + s_1 multiplied into prod, the same operations in the same
// order as objects2Table's, where no product falls below 2⁻²⁵⁶ (and so
// none below times2's 2⁻⁵⁰⁰, the table's values being probabilities) and
// the sum is at most 2. It then moves ρ_j, its change and the chunk's
// sums as end2 does. An object it declines takes objects2Table.
func (v *vbLA) objects2Pairs(c *vbChunk, t, ep []float64, prod *num.Product) {
	d := v.d
	off := d.Offsets
	var ends [pairsBatch]int
	var g [2 * pairsBatch]float64
	pr, change := *prod, c.change
	g0, g1 := c.glob[0], c.glob[1]
	for j := c.lo; j < c.hi; {
		hi := min(j+pairsBatch, c.hi)
		base := off[j]
		for i := j; i < hi; i++ {
			ends[i-j] = off[i+1] - base
		}
		n := hi - j
		var done int
		pr, done = num.PosteriorPairsTo(t, c.acc, d.Worker[base:off[hi]], d.Label[base:off[hi]], ends[:n], ep[0], ep[1], g[:2*n], pr)
		for i := range done {
			rho := v.rho[2*(j+i) : 2*(j+i)+2]
			r0, r1 := g[2*i], g[2*i+1]
			change = maxNaN(change, math.Abs(r0-rho[0]))
			change = maxNaN(change, math.Abs(r1-rho[1]))
			rho[0], rho[1] = r0, r1
			g0 += r0
			g1 += r1
		}
		j += done
		if done < n {
			// Object j by objects2Table, on a chunk of it alone.
			one := *c
			one.lo, one.hi, one.change = j, j+1, change
			one.glob[0], one.glob[1] = g0, g1
			v.objects2Table(&one, t, ep, &pr)
			change, g0, g1 = one.change, one.glob[0], one.glob[1]
			j++
		}
	}
	*prod, c.change = pr, change
	c.glob[0], c.glob[1] = g0, g1
}
