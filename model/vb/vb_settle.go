package vb

import (
	"math"
	"slices"

	"github.com/consensuslab/consensus/internal/num"
)

// vbSettles holds the ends of the object updates of a batch (vbDA.settle)
// until vbDA.settleAll takes them together: their logarithms (of the
// products of the label normalisers, inside log Γ of every class and in
// ψ from exp ψ) are then one call each over the whole batch, four at a
// time where the vector code runs, instead of calls of two to four values
// an object, with the results of taking them one object at a time bit for
// bit.
type vbSettles struct {
	rows [][]float64   // the objects' rows of vbDA.gamma, in order
	nj   []int         // their numbers of labels
	prod []num.Product // the products of their label normalisers
	// K values an object: γ_j where the bound is taken, exp ψ there,
	// γ_j as the last pass left it and where it moves.
	gamma, e, old, next []float64
	// Scratch: log of the products' mantissas, log Γ and ψ of gamma,
	// E[log q_j].
	logM, lg, psi, elog []float64
}

// settle ends an object's update in objects: the object's terms of the
// bound at γ_j = gamma (its row of v.gamma) (e = exp ψ(γ_j), prod the product of the label
// normalisers, nj the number of labels) and the largest change of its
// output from old (γ_j as the last pass left it) to next, γ_j's move to
// next, and under hier E[log q_j] in c.glob, which settleAll adds to c
// once the batch is done. It copies what it is given.
func (v *vbDA) settle(c *vbChunk, nj int, prod num.Product, gamma, e, old, next []float64) {
	q := &c.settles
	q.rows = append(q.rows, gamma)
	q.nj = append(q.nj, nj)
	q.prod = append(q.prod, prod)
	q.gamma = append(q.gamma, gamma...)
	q.e = append(q.e, e...)
	q.old = append(q.old, old...)
	q.next = append(q.next, next...)
}

// settleAll adds to c what the objects that settle queued give, in their
// order, as one call of the end of an object's update a time would:
//
//	Σ_i log Σ_z exp E[log q_z] P(y_i | z) − KL(Dir(γ) ‖ Dir(a))
//	  = log prod − log Γ(S) + normA + Σ_z [log Γ(γ_z) − (γ_z − a_z) ψ(γ_z)]
//
// (see objects), the largest change of an output, and under hier the sums
// of E[log q_j]; and it moves every γ_j to where its update ends.
func (v *vbDA) settleAll(c *vbChunk) {
	q := &c.settles
	n, k := len(q.rows), v.k
	if n == 0 {
		return
	}
	if v.distOnly && !v.hier {
		for i, row := range q.rows {
			copy(row, q.next[i*k:(i+1)*k])
		}
		q.reset()
		return
	}
	q.logM = slices.Grow(q.logM[:0], n)[:n]
	q.lg = slices.Grow(q.lg[:0], n*k)[:n*k]
	q.psi = slices.Grow(q.psi[:0], n*k)[:n*k]
	q.elog = slices.Grow(q.elog[:0], k)[:k]
	for i, p := range q.prod {
		q.logM[i] = p.M
	}
	num.MathLogTo(q.logM, q.logM) // math.Log of each, bit for bit
	num.LgammaTo(q.lg, q.gamma)
	vbPsi(q.psi, q.gamma, q.e)
	for i, row := range q.rows {
		gamma := q.gamma[i*k : (i+1)*k]
		t := q.prod[i].LogWith(q.logM[i]) + v.normA
		if v.hier {
			s := sum(gamma)
			lg, _ := math.Lgamma(s)
			t += (s-v.sumA-float64(q.nj[i]))*num.Digamma(s) - lg
		} else {
			t -= v.lgS[q.nj[i]]
		}
		lg, psi := q.lg[i*k:(i+1)*k], q.psi[i*k:(i+1)*k]
		for z, x := range gamma {
			t += vbBoundTerm(x, v.a[z], lg[z], psi[z])
		}
		c.bound += t
		next := q.next[i*k : (i+1)*k]
		v.move(c, row, q.old[i*k:(i+1)*k], next)
		if v.hier {
			num.DirichletExpLog(q.elog, next)
			for z, x := range q.elog {
				c.glob[z] += x
			}
		}
	}
	q.reset()
}

// move adds to c the largest change of an output from old to next and
// moves the row of γ_j to next.
func (v *vbDA) move(c *vbChunk, row, old, next []float64) {
	so, sn := sum(old), sum(next)
	for z := range next {
		c.change = max(c.change, math.Abs(next[z]/sn-old[z]/so))
	}
	copy(row, next)
}

// reset empties q for the next batch.
func (q *vbSettles) reset() {
	clear(q.rows) // no pointers into γ left behind
	q.rows, q.nj, q.prod = q.rows[:0], q.nj[:0], q.prod[:0]
	q.gamma, q.e, q.old, q.next = q.gamma[:0], q.e[:0], q.old[:0], q.next[:0]
}

// vbBoundTerm is one class's term log Γ(x) − (x − a) ψ(x) of the bound in
// objects, given lg = log Γ(x) and psi = ψ(x) (vbPsi).
func vbBoundTerm(x, a, lg, psi float64) float64 {
	return lg - (x-a)*psi
}

// vbPsi writes ψ(x_z) into psi for every class: log e_z from
// e_z = exp ψ(x_z) (num.LogTo, num.Log's values for all of them in one
// call), or ψ(x_z) itself where e_z underflows.
func vbPsi(psi, x, e []float64) {
	num.LogTo(psi, e)
	for z, ez := range e {
		if !(ez > 0x1p-1000) {
			psi[z] = num.Digamma(x[z])
		}
	}
}
