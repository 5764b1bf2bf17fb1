package vb

import (
	"fmt"
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/mem"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/internal/unvoted"
	"github.com/consensuslab/consensus/model/internal/fitting"
	"github.com/consensuslab/consensus/noise"
	"gonum.org/v1/gonum/floats"
)

// vbLA is the latent label assumption in a variational fit (IBCC when the
// noise model is Dawid-Skene): the class prior p ~ Dirichlet(ν) with ν = 1,
// and every object's true class has the factor q(z_j) = Cat(ρ_j),
//
//	ρ_j(z) ∝ exp( E[log p_z] + Σ_{i ∈ j} E[log P(y_i | z)] ),
//
// with q(p) = Dirichlet(ν + Σ_j ρ_j). The output is ρ_j.
type vbLA struct {
	d     *data.Dataset
	k     int
	gold  []int     // every object's known class, -1 for none; nil for none at all
	post  []float64 // ν' = ν + Σ_j ρ_j
	elogp []float64 // E[log p_z] under Dirichlet(ν')
	rho   []float64 // J×K
	// generic makes every K take the generic loop on the noise model's Prob
	// and Accumulate instead of vb_la_gen.go's scalar forms (K ≤ 4) and the
	// tables; untabled the scalar forms without the tables (for the tests).
	generic, untabled bool
	// held, if not empty, says why the class prior is held: uniform where
	// no two workers label one task, which leaves it unidentified (a
	// learned one ran to one class), or at shares, the labels', where
	// Bayes.held says why.
	held   string
	shares []float64
}

// newVBLA returns the LA side on d with the objects of gold (nil: none)
// clamped to their known class: ρ_j = e_g, whose term of the bound is
// Σ_i E[log P(y_i | g)]; as in latent.WithGold they do not inform the class
// prior.
func newVBLA(d *data.Dataset, gold []int) *vbLA {
	k := d.NumClasses()
	la := &vbLA{d: d, k: k, gold: gold, post: make([]float64, k), elogp: make([]float64, k), rho: mem.Make[float64](d.NumTasks() * k)}
	if !d.Crossed() {
		la.held = "no task has labels of two workers"
	}
	return la
}

// newLA returns the LA side of b's fit on d: newVBLA, its class prior
// held at unvoted.HeldShares (the labels' shares; at K = 2 the shares
// they imply) also where b.held says why.
func (b Bayes) newLA(d *data.Dataset) *vbLA {
	la := newVBLA(d, b.Gold)
	if la.held == "" && b.held != "" {
		la.held, la.shares = b.held, unvoted.HeldShares(d)
	}
	return la
}

// droppedNote is Bayes.held where a learned class prior all but dropped a
// class the labels give and agree on (unvoted.Dropped).
const droppedNote = "a learned one all but dropped a class the labels give"

// hdaDroppedNote ends the method of a hierarchical fit redone (Bayes).
const hdaDroppedNote = "the learned prior held every q_j at p or dropped a class the labels give: refitted with q_j ~ Dirichlet(1/2)"

// driftedNote is Bayes.held where keepHeld keeps a refit after a drift.
const driftedNote = "a learned one drifted from the shares the labels imply; held, the consensus sides with the votes on more tasks"

// goldOf returns the known class of object j, or -1.
func goldOf(gold []int, j int) int {
	if gold == nil {
		return -1
	}
	return gold[j]
}

// setOneHot writes e_g into row.
func setOneHot(row []float64, g int) {
	clear(row)
	row[g] = 1
}

// start sets ν' = 1 + J·(class frequencies among all labels).
func (v *vbLA) start(d *data.Dataset, _ int) {
	n := make([]float64, v.k)
	for _, y := range d.Label {
		n[y]++
	}
	for z := range v.post {
		v.post[z] = 1 + float64(d.NumTasks())*n[z]/float64(max(d.NumLabels(), 1))
	}
	num.DirichletExpLog(v.elogp, v.post)
	freq := d.FrequencyWeights()
	for j := range d.Tasks {
		row := v.rho[j*v.k : (j+1)*v.k]
		copy(row, freq.Row(j, row))
		if g := goldOf(v.gold, j); g >= 0 {
			setOneHot(row, g)
		}
	}
}

// tabled is implemented by a noise posterior whose expected probabilities
// are a table per worker, as noise.Tabled's, and whose Accumulate adds a
// label's weights at the place of its probabilities in the table: DS's.
type tabled interface {
	Table() []float64
}

func (v *vbLA) objects(c *vbChunk, nv noise.Variational) {
	k := v.k
	off := v.d.Offsets
	var sbuf, ebuf num.Buf
	s := num.Scratch(&sbuf, k)
	ep := num.Scratch(&ebuf, k)
	for z, x := range v.elogp {
		ep[z] = math.Exp(x)
	}
	// The bound's terms log Σ_z s_j(z) are multiplied into one product,
	// with one logarithm per chunk, as the objective's are.
	prod := num.NewProduct()
	scalar := 2 <= k && k <= 4 && !v.generic // a form of vb_la_gen.go
	if t, ok := nv.(tabled); ok && scalar && !v.untabled {
		switch {
		case k == 2 && v.gold == nil && !c.frozen && num.UnfusedVectorised():
			v.objects2Pairs(c, t.Table(), ep, &prod)
		case k == 2:
			v.objects2Table(c, t.Table(), ep, &prod)
		case k == 3:
			v.objects3Table(c, t.Table(), ep, &prod)
		default:
			v.objects4Table(c, t.Table(), ep, &prod)
		}
		c.bound += prod.Log()
		return
	}
	if t, ok := nv.(tabled); ok && !scalar && !v.generic && !v.untabled {
		v.objectsTable(c, t.Table(), ep, s, &prod)
		c.bound += prod.Log()
		return
	}
	c.batches(v.d, nv, func(lo, hi int, p, g []float64) {
		if scalar {
			switch k {
			case 2:
				v.objects2(c, p, g, lo, hi, ep, &prod)
			case 3:
				v.objects3(c, p, g, lo, hi, ep, &prod)
			default:
				v.objects4(c, p, g, lo, hi, ep, &prod)
			}
			return
		}
		base := off[lo]
		// The largest change, kept in a register through the loop.
		change, glob := c.change, c.glob
		for j := lo; j < hi; j++ {
			pj := p[(off[j]-base)*k : (off[j+1]-base)*k]
			gj := g[(off[j]-base)*k : (off[j+1]-base)*k]
			// s_j(z) = exp E[log p_z] Π_i exp E[log π(z, y_i)], rescaled by
			// powers of two before it underflows.
			copy(s, ep)
			for i := 0; i < len(pj); i += k {
				mulRescaled(s, pj[i:i+k], &prod)
			}
			rho := v.rho[j*k : (j+1)*k]
			if g := goldOf(v.gold, j); g >= 0 {
				// Clamped: ρ_j = e_g, a factor without entropy; as
				// latent.WithGold's, the object does not inform the
				// class prior, so its term is Π_i exp E[log P(y_i | g)]
				// without exp E[log p_g].
				for i := 0; i < len(gj); i += k {
					copy(gj[i:i+k], rho)
				}
				prod.Mul(s[g] / ep[g])
				continue
			}
			m := normalizeInto(rho, s, glob, &change)
			for i := 0; i < len(gj); i += k {
				copy(gj[i:i+k], rho)
			}
			prod.Mul(m)
		}
		c.change = change
	})
	c.bound += prod.Log()
}

func (v *vbLA) global(chunks []vbChunk) {
	for z := range v.post {
		v.post[z] = 1
	}
	for i := range chunks {
		for z, x := range chunks[i].glob {
			v.post[z] += x
		}
	}
	if v.held != "" {
		t := floats.Sum(v.post) / float64(v.k)
		for z := range v.post {
			v.post[z] = t
			if v.shares != nil {
				v.post[z] *= float64(v.k) * v.shares[z]
			}
		}
	}
	num.DirichletExpLog(v.elogp, v.post)
}

func (v *vbLA) globals(dst []float64) []float64 { return append(dst, v.post...) }

// setGlobals sets ν' (at least ν = 1) and returns −KL(Dirichlet(ν') ‖ Dirichlet(ν)).
func (v *vbLA) setGlobals(x []float64) float64 {
	nu := make([]float64, v.k)
	for z := range nu {
		nu[z] = 1
		v.post[z] = max(x[z], 1)
	}
	num.DirichletExpLog(v.elogp, v.post)
	return -num.DirichletKL(v.post, nu, v.elogp, num.DirichletLogNorm(nu))
}

func (v *vbLA) output(probs []float64)         { copy(probs, v.rho) }
func (v *vbLA) params(dst []float64) []float64 { return append(dst, v.post...) }
func (v *vbLA) describe() string {
	switch {
	case v.shares != nil:
		return "class prior held at " + fitting.FmtVec(v.shares) + " (" + v.held + ")"
	case v.held != "":
		return "class prior held uniform (" + v.held + ")"
	}
	return fmt.Sprintf("class prior Dirichlet(1) with posterior mean %s", fitting.FmtVec(normalised(v.post)))
}

func sum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

func normalised(x []float64) []float64 {
	s := sum(x)
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v / s
	}
	return out
}

// maxNaN returns max(a, b) for a and b that are not −0: the larger, or NaN
// if either is NaN, as the built-in max; it is a compare and a branch
// where the built-in's handling of signed zeros takes several instructions,
// for the scalar updates' largest change, taken for every object.
func maxNaN(a, b float64) float64 {
	if b > a || b != b {
		return b
	}
	return a
}

// mulRescaled multiplies s by row element by element and, where every
// s(z) falls below 2⁻⁵⁰⁰ (none NaN: max(0, s(·)) < 2⁻⁵⁰⁰, tested without
// max's chain from one class to the next), scales s up by 2⁵⁰⁰ and prod
// down by as much, so that s never underflows.
func mulRescaled(s, row []float64, prod *num.Product) {
	under := true
	for z, y := range row {
		x := s[z] * y
		s[z] = x
		under = under && x < 0x1p-500
	}
	if under {
		for z := range s {
			s[z] *= 0x1p500
		}
		prod.Scale(-500)
	}
}

// normalizeInto sets rho to s normalised, adds it to glob, raises *change
// to the largest move of any rho(z) (NaN stays NaN), and returns the sum
// of s.
func normalizeInto(rho, s, glob []float64, change *float64) float64 {
	m := sum(s)
	inv := 1 / m
	for z := range s {
		r := s[z] * inv
		*change = maxNaN(*change, math.Abs(r-rho[z]))
		rho[z] = r
		glob[z] += r
	}
	return m
}
