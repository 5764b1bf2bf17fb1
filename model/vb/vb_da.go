package vb

import (
	"fmt"
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/mem"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/model/internal/fitting"
	"github.com/consensuslab/consensus/noise"
)

// vbDA is the latent distribution assumption in a variational fit: every
// object's distribution q_j ~ Dirichlet(a), a = α p, and every label i of
// object j has its own subjective class with the factor q(z_i) = Cat(φ_i),
//
//	φ_i(z) ∝ exp( E[log q_j(z)] + E[log P(y_i | z)] ),
//	q(q_j) = Dirichlet(γ_j),  γ_j = a + Σ_{i ∈ j} φ_i,
//
// the latent Dirichlet allocation of the design note
// (docs/models.md), with objects as documents and labels as tokens. With
// hier set, a is re-estimated after every iteration by empirical Bayes
// (Minka's fixed point for Σ_j E[log Dirichlet(q_j | a)]); otherwise it
// stays at its start. The output is the posterior mean γ_j / Σ_z γ_j(z).
//
// Within one E-step every object alternates its φ and γ_j (SQUAREM) until
// γ_j moves by less than innerTol (at most maxInner times): its factors
// keep up with the workers' in few global iterations (two when frozen).
type vbDA struct {
	d     *data.Dataset
	k     int
	gold  []int // every object's known class, -1 for none; nil for none at all
	free  int   // the number of objects without a known class
	hier  bool
	a     []float64 // α p
	normA float64   // num.DirichletLogNorm(a)
	sumA  float64   // Σ_z a_z
	lgS   []float64 // without hier, log Γ(Σa + n) for every object's label count n
	gamma []float64 // J×K, within store
	// store holds gamma with room before it for the numbers that start
	// was told of and K after it, so that params can return the fit's
	// parameters (the noise posterior's, γ, a) without a copy of γ's J×K
	// numbers.
	store []float64
	// generic makes K = 2, 3 and 4 take the generic loop instead of
	// object2, object3 and object4 (for the test that compares them).
	generic bool
	// squarem makes K = 2 with the workers frozen take object2 instead of
	// object2Newton, and K ≥ 3 with distOnly the generic loop (or object3
	// and object4) instead of objectNewton (for the benchmarks that
	// compare them).
	squarem bool
	// distOnly says that only the q_j of one pass are wanted: neither the
	// bound nor the largest change of the outputs (the stopping rule's,
	// which one pass does not read) is taken for the free objects, whose
	// rows settleAll only moves, and the fit's LogLikelihood holds only
	// the clamped objects' terms. The default's one pass given the
	// workers sets it (fitTruth).
	distOnly bool
	// first holds the numbers of object2Newton's first step from the
	// start of a task of few labels (setFirst), with a fixed at K = 2.
	first [][2]float64
	// firstK holds exp ψ and ψ' of objectNewton's first step from the
	// start of a task of few labels (setFirstK), at K ≥ 3 with distOnly.
	firstK [][2]float64
}

// object2, object3 and object4 (vb_object_gen.go) are written out from
// vb_object.tmpl by TestObjectGenerated.

//go:generate go test -run TestObjectGenerated -update

// objects2, objects3 and objects4 of vbLA, and their table forms
// (vb_la_gen.go), are written out from vb_la.tmpl by the same test.

const (
	maxInner = 25
	innerTol = 1e-6
)

// newVBDA returns the DA side with the prior Dirichlet(a); nil a means
// Dirichlet(1, …, 1). The objects of gold (nil: none) are clamped to their
// known class g, q_j = e_g, as latent.WithGold does for DA: every label's
// subjective class is g, and the object's term of the bound is
// Σ_i E[log P(y_i | g)]; it takes no part in the estimate of the prior.
func newVBDA(d *data.Dataset, hier bool, a []float64, gold []int) *vbDA {
	k := d.NumClasses()
	v := &vbDA{d: d, k: k, gold: gold, free: d.NumTasks(), hier: hier, a: make([]float64, k)}
	for j := range d.Tasks {
		if goldOf(gold, j) >= 0 {
			v.free--
		}
	}
	for z := range v.a {
		v.a[z] = 1
		if a != nil {
			v.a[z] = a[z]
		}
	}
	return v
}

// start sets γ_j = a + (object j's label counts), the posterior of q_j when
// every worker is taken as perfect.
func (v *vbDA) start(d *data.Dataset, head int) {
	k := v.k
	n := d.NumTasks() * k
	v.store = mem.Make[float64](head + n + k)
	v.gamma = v.store[head : head+n : head+n]
	counts := make([]float64, k)
	for j := range d.Tasks {
		d.TaskCounts(j, counts)
		for z, c := range counts {
			v.gamma[j*k+z] = v.a[z] + c
		}
	}
}

func (v *vbDA) objects(c *vbChunk, nv noise.Variational) {
	k := v.k
	off := v.d.Offsets
	var ebuf, nbuf, n2buf, g0buf num.Buf
	g0 := num.Scratch(&g0buf, k)
	e := num.Scratch(&ebuf, k)
	ng := num.Scratch(&nbuf, k)
	n2 := num.Scratch(&n2buf, k)
	c.batches(v.d, nv, func(lo, hi int, p, g []float64) {
		base := off[lo]
		for j := lo; j < hi; j++ {
			pj := p[(off[j]-base)*k : (off[j+1]-base)*k]
			gj := g[(off[j]-base)*k : (off[j+1]-base)*k]
			gamma := v.gamma[j*k : (j+1)*k]
			if gc := goldOf(v.gold, j); gc >= 0 {
				// Clamped: every φ_i = e_g, and the bound's term is
				// Σ_i E[log P(y_i | g)], added after the objects
				// before it.
				v.settleAll(c)
				prod := num.NewProduct()
				for i := 0; i < len(pj); i += k {
					setOneHot(gj[i:i+k], gc)
					prod.Mul(pj[i+gc])
				}
				c.bound += prod.Log()
				continue
			}
			if k == 2 && !v.generic && !v.squarem && c.frozen && !v.hier {
				v.object2Newton(c, pj, gj, gamma)
				continue
			}
			if k >= 3 && !v.generic && !v.squarem && c.frozen && !v.hier && v.distOnly && v.objectNewton(c, pj, gamma) {
				continue
			}
			if k == 2 && !v.generic {
				v.object2(c, pj, gj, gamma)
				continue
			}
			if k == 3 && !v.generic {
				v.object3(c, pj, gj, gamma)
				continue
			}
			if k == 4 && !v.generic {
				v.object4(c, pj, gj, gamma)
				continue
			}
			// step is the object's update γ → a + Σ_i φ_i(γ): it writes
			// the weights φ_i into gj and the new γ into dst, and returns
			// the product of the normalisers Σ_z exp ψ(γ_z) P(y_i | z).
			// exp ψ(γ_z) stands in for exp E[log q_z] = exp(ψ(γ_z) −
			// ψ(Σγ)): the weights do not see the common factor, and the
			// bound below takes it out.
			//
			// From K = 4 the labels' responsibilities are taken by
			// num.RespRows (four classes at a time), each label's
			// num.Responsibilities bit for bit (K = 4 takes it only when
			// generic is set; object4 makes the same operations). Below,
			// the plain loop (K = 2 and 3 take it only when generic is
			// set; object2 and object3 likewise): at K = 3 there is no
			// group of four, and it was faster than RespRows' own scalar
			// loop (the default's trec2010 fit: 2.64-2.69 against
			// 2.75-2.83 CPU-s, five alternating runs).
			var rows []int
			var sums []float64
			if k >= 4 {
				rows, sums = c.labelRows(len(pj)/k, k)
			}
			step := func(src, dst []float64) num.Product {
				num.ExpDigammaTo(e, src)
				copy(dst, v.a)
				prod := num.NewProduct()
				if k < 4 {
					for i := 0; i < len(pj); i += k {
						gi := gj[i : i+k]
						prod.Mul(num.Responsibilities(gi, e, pj[i:i+k]))
						for z, r := range gi {
							dst[z] += r
						}
					}
					return prod
				}
				num.RespRows(gj, e, pj, rows, sums)
				for i, m := range sums {
					prod.Mul(m)
					for z, r := range gj[i*k : (i+1)*k] {
						dst[z] += r
					}
				}
				return prod
			}
			copy(g0, gamma) // γ_j as the last pass left it
			accel, last := true, math.Inf(1)
			for it := 0; ; it++ {
				prod := step(gamma, ng)
				var diff float64
				for z := range ng {
					diff = max(diff, math.Abs(ng[z]-gamma[z]))
				}
				if diff >= innerTol && it+1 < maxInner {
					// SQUAREM on the object's update (Varadhan and
					// Roland 2008, step length S3): γ' = γ − 2α r + α² v
					// with r = F(γ) − γ, v = F(F(γ)) − 2F(γ) + γ and
					// α = −‖r‖/‖v‖ ≤ −1, which keeps Σγ (γ' is built in
					// e, free until the next step). A γ' with some
					// γ'_z < a_z is replaced by F(F(γ)); a residual that
					// did not shrink turns the object to plain updates.
					accel = accel && diff < last
					last = diff
					if !accel {
						copy(gamma, ng)
						continue
					}
					step(ng, n2)
					alpha := -squaremLength(gamma, ng, n2, math.Inf(1))
					ok := true
					for z := range ng {
						r := ng[z] - gamma[z]
						w := n2[z] - 2*ng[z] + gamma[z]
						e[z] = gamma[z] - float64(2*alpha*r) + float64(alpha*alpha*w)
						ok = ok && e[z] >= v.a[z]
					}
					if ok {
						copy(gamma, e)
					} else {
						copy(gamma, n2)
					}
					continue
				}
				// The weights gj are φ at the γ_j used for them: the
				// bound is evaluated there, and γ_j moves on to ng. With
				// S = Σ_z γ_z = Σ_z a_z + n_j, its terms are
				//
				//	Σ_i log Σ_z exp E[log q_z] P(y_i | z) − KL(Dir(γ) ‖ Dir(a))
				//	  = log prod − n_j ψ(S) − log Γ(S) + Σ log Γ(γ_z) + log B(a)
				//	    − Σ_z (γ_z − a_z)(ψ(γ_z) − ψ(S))
				//	  = log prod − log Γ(S) + normA + Σ_z [log Γ(γ_z) − (γ_z − a_z) ψ(γ_z)],
				//
				// where ψ(S) cancels and ψ(γ_z) = log e_z (e is exp ψ at
				// γ_j, from the last step).
				//
				// Under hier a has moved since γ_j was formed, Σγ_z
				// differs from Σa_z + n_j, and the bound keeps
				// (Σγ_z − Σa_z − n_j) ψ(S).
				v.settle(c, len(pj)/k, prod, gamma, e, g0, ng)
				break
			}
		}
		v.settleAll(c)
	})
}

func (v *vbDA) global(chunks []vbChunk) {
	if !v.hier {
		return
	}
	s := make([]float64, v.k)
	for i := range chunks {
		for z, x := range chunks[i].glob {
			s[z] += x
		}
	}
	if v.free == 0 {
		return
	}
	for z := range s {
		s[z] /= float64(v.free)
	}
	num.DirichletFixedPoint(v.a, s, vbMinA, vbMaxA)
}

// The bounds of every a_z = α p_z of the hierarchical prior.
const (
	vbMinA = 1e-3
	vbMaxA = 100
)

// globals appends a, when it is estimated.
func (v *vbDA) globals(dst []float64) []float64 {
	if !v.hier {
		return dst
	}
	return append(dst, v.a...)
}

// setGlobals sets a, when it is estimated, within its bounds; the prior's
// part of the bound is in every object's KL term.
func (v *vbDA) setGlobals(x []float64) float64 {
	if v.hier {
		for z := range v.a {
			v.a[z] = min(max(x[z], vbMinA), vbMaxA)
		}
	}
	v.normA = num.DirichletLogNorm(v.a)
	v.sumA = sum(v.a)
	if !v.hier && v.lgS == nil {
		// a is fixed: log Γ(Σa + n) once for every label count n.
		off := v.d.Offsets
		most := 0
		for j := range v.d.Tasks {
			most = max(most, off[j+1]-off[j])
		}
		v.lgS = make([]float64, most+1)
		done := make([]bool, most+1)
		for j := range v.d.Tasks {
			if n := off[j+1] - off[j]; !done[n] {
				v.lgS[n], _ = math.Lgamma(v.sumA + float64(n))
				done[n] = true
			}
		}
		if v.k == 2 {
			v.setFirst()
		} else if v.distOnly {
			v.setFirstK()
		}
	}
	return 0
}

func (v *vbDA) output(probs []float64) {
	k := v.k
	for j := 0; j < len(v.gamma); j += k {
		if g := goldOf(v.gold, j/k); g >= 0 {
			setOneHot(probs[j:j+k], g)
			continue
		}
		row := v.gamma[j : j+k]
		s := sum(row)
		for z, x := range row {
			probs[j+z] = x / s
		}
	}
}

// params appends γ and a to dst. Given the head numbers that start was
// told of, it returns store with them before γ and a after it, which
// holds γ already.
func (v *vbDA) params(dst []float64) []float64 {
	head := len(v.store) - len(v.gamma) - len(v.a)
	if v.store == nil || len(dst) != head {
		return append(append(dst, v.gamma...), v.a...)
	}
	copy(v.store, dst)
	copy(v.store[head+len(v.gamma):], v.a)
	return v.store
}

func (v *vbDA) describe() string {
	a := sum(v.a)
	if v.hier {
		return fmt.Sprintf("q_j ~ Dirichlet(alpha p), empirical Bayes alpha %.4g p %s", a, fitting.FmtVec(normalised(v.a)))
	}
	return fmt.Sprintf("q_j ~ Dirichlet(alpha p), alpha %.4g p %s", a, fitting.FmtVec(normalised(v.a)))
}

// labelRows returns the offsets 0, K, 2K, ... of n labels' rows in a
// batch's probabilities and room for their n normalisers, in c's scratch.
func (c *vbChunk) labelRows(n, k int) ([]int, []float64) {
	if cap(c.rows) < n {
		size := max(n, 2*cap(c.rows))
		c.rows, c.sums = make([]int, size), make([]float64, size)
	}
	rows := c.rows[:n]
	for i := range rows {
		rows[i] = i * k
	}
	return rows, c.sums[:n]
}
