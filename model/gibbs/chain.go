package gibbs

import (
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// The kinds of worker.
const (
	full = iota
	spammer
	adversary
	coin
	perClass
	numKinds
)

// chain is one chain of the collapsed Gibbs sampler: every task's class
// and every worker's kind, with the counts they give.
type chain struct {
	d    *data.Dataset
	k    int
	rng  *rand.Rand
	z    []int   // every task's class
	kind []uint8 // every worker's kind
	// n holds every worker's counts n_w(z, y), W×K×K, and rs their row
	// sums n_w(z), W×K; nc the tasks of each class and nk the workers of
	// each kind.
	n, rs []int32
	// cw and nw hold every worker's labels that name their tasks'
	// classes, and all its labels.
	cw, nw []int32
	nc     []int
	nk     [numKinds]int
	// beta is the full kind's prior rows β_z (K×K) and bsum their
	// sums; gam and gsum the adversary kind's.
	beta, bsum, gam, gsum []float64
	// a and b are the one-coin kind's prior on the accuracy,
	// Beta(a, b); its errors follow the crowd's pattern mu.
	a, b float64
	// ac and bc are the per-class kind's prior on every class's
	// accuracy, Beta(ac, bc); its errors follow mu too.
	ac, bc float64
	// mu holds the crowd's pattern of errors μ_z(y), K×K (0 on the
	// diagonal), which the one-coin and per-class kinds' errors follow,
	// and lmu its logarithms.
	mu, lmu []float64
	// spamEv holds every worker's log evidence as a spammer, fixed.
	spamEv []float64
	// post accumulates every task's conditional class probabilities over
	// the kept sweeps, and kinds every worker's kind indicators.
	post, kinds []float64
	lp          []float64 // scratch of K
}

// spamAlpha is the pseudo-count of every class in a spammer's prior on
// its label distribution: Dirichlet(1, …, 1), as package plan's worker
// flags take it.
const spamAlpha = 1

// adversaryDiag and adversaryOff are the pseudo-counts of the adversary
// kind's rows: on the diagonal, and shared by the K − 1 others.
const (
	adversaryDiag = 0.5
	adversaryOff  = 2
)

// newChain returns a chain on d drawing from the stream (seed, stream):
// every task at a class drawn from init (J×K), or without it at the class
// most of its labels name (ties drawn), and every worker of the full
// kind, whose prior rows start at 2 on the diagonal and 1 elsewhere, the
// one-coin and per-class kinds' at Beta(2, 1).
func newChain(d *data.Dataset, seed, stream uint64, init []float64) *chain {
	k := d.NumClasses()
	nw := d.NumWorkers()
	c := &chain{d: d, k: k, rng: rand.New(rand.NewPCG(seed, stream)),
		z: make([]int, d.NumTasks()), kind: make([]uint8, nw),
		n: make([]int32, nw*k*k), rs: make([]int32, nw*k), nc: make([]int, k), cw: make([]int32, nw), nw: make([]int32, nw), a: 2, b: 1, ac: 2, bc: 1,
		beta: make([]float64, k*k), bsum: make([]float64, k), gam: make([]float64, k*k), gsum: make([]float64, k),
		spamEv: make([]float64, nw), post: make([]float64, d.NumTasks()*k), kinds: make([]float64, nw*numKinds),
		lp: make([]float64, k), mu: make([]float64, k*k), lmu: make([]float64, k*k)}
	for z := range k {
		for y := range k {
			c.beta[z*k+y], c.gam[z*k+y] = 1, adversaryOff/float64(k-1)
			if y == z {
				c.beta[z*k+y], c.gam[z*k+y] = 2, adversaryDiag
			}
			c.bsum[z] += c.beta[z*k+y]
			c.gsum[z] += c.gam[z*k+y]
			if y != z {
				c.mu[z*k+y], c.lmu[z*k+y] = 1/float64(k-1), -math.Log(float64(k-1))
			}
		}
	}
	// The spammer's evidence: its labels' counts m_w(y) under
	// Dirichlet(1, …, 1), log B(1 + m_w) − log B(1).
	m := make([]float64, nw*k)
	for i, w := range d.Worker {
		m[int(w)*k+int(d.Label[i])]++
	}
	const al = spamAlpha
	l1, _ := math.Lgamma(al)
	lk, _ := math.Lgamma(float64(k) * al)
	for w := range nw {
		var tot, ev float64
		for _, v := range m[w*k : (w+1)*k] {
			lg, _ := math.Lgamma(al + v)
			ev += lg - l1
			tot += v
		}
		lg, _ := math.Lgamma(float64(k)*al + tot)
		c.spamEv[w] = ev - lg + lk
	}
	votes := make([]float64, k)
	for j := range c.z {
		if init != nil {
			c.z[j] = num.Pick(c.rng, init[j*k:(j+1)*k], 1)
			c.add(j, 1)
			continue
		}
		clear(votes)
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			votes[d.Label[i]]++
		}
		top := 0.0
		for _, v := range votes {
			top = max(top, v)
		}
		var ties float64
		for y, v := range votes {
			votes[y] = 0
			if v == top {
				votes[y] = 1
				ties++
			}
		}
		c.z[j] = num.Pick(c.rng, votes, ties)
		c.add(j, 1)
	}
	c.nk[full] = nw
	return c
}

// add adds task j's labels at its class to the counts (sign 1) or takes
// them out (−1).
func (c *chain) add(j int, sign int32) {
	k, z := c.k, c.z[j]
	d := c.d
	for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
		w, y := int(d.Worker[i]), int(d.Label[i])
		c.n[(w*k+z)*k+y] += sign
		c.rs[w*k+z] += sign
		c.nw[w] += sign
		if y == z {
			c.cw[w] += sign
		}
	}
	c.nc[z] += int(sign)
}

// labelProb returns worker w's posterior predictive P(y | z) of one label
// under kind (not spammer), from the chain's counts, the worker's
// matrices integrated out: a full or adversary worker's own row,
// (β_z(y) + n_w(z, y)) / (Σβ_z + r_w(z)) with β the kind's prior; a
// one-coin worker's accuracy (a + c_w) / (a + b + n_w) on the diagonal
// and its error rate times the crowd's pattern μ_z(y) off it; a per-class
// worker's the same with class z's counts and (a_c, b_c).
func (c *chain) labelProb(w, z, y int, kind uint8) float64 {
	k := c.k
	switch kind {
	case coin:
		tot := c.a + c.b + float64(c.nw[w])
		if z == y {
			return (c.a + float64(c.cw[w])) / tot
		}
		return (c.b + float64(c.nw[w]-c.cw[w])) / tot * c.mu[z*k+y]
	case perClass:
		tot := c.ac + c.bc + float64(c.rs[w*k+z])
		right := float64(c.n[(w*k+z)*k+z])
		if z == y {
			return (c.ac + right) / tot
		}
		return (c.bc + float64(c.rs[w*k+z]) - right) / tot * c.mu[z*k+y]
	default: // full or adversary: the worker's own rows
		pr, ps := c.beta, c.bsum
		if kind == adversary {
			pr, ps = c.gam, c.gsum
		}
		return (pr[z*k+y] + float64(c.n[(w*k+z)*k+y])) / (ps[z] + float64(c.rs[w*k+z]))
	}
}

// sweepTasks draws every task's class given the others' and the workers'
// kinds, the workers' matrices integrated out; keep adds the conditional
// probabilities to post.
func (c *chain) sweepTasks(keep bool) {
	k, d, lp := c.k, c.d, c.lp
	for j := range c.z {
		c.add(j, -1)
		for z := range k {
			lp[z] = float64(c.nc[z] + 1)
		}
		for i, n := d.Offsets[j], 0; i < d.Offsets[j+1]; i, n = i+1, n+1 {
			w, y := int(d.Worker[i]), int(d.Label[i])
			kind := c.kind[w]
			if kind == spammer { // a spammer's label is the same for every class
				continue
			}
			for z := range k {
				lp[z] *= c.labelProb(w, z, y, kind)
			}
			if n%16 == 15 {
				num.DivideByMax(lp)
			}
		}
		var s float64
		for _, v := range lp {
			s += v
		}
		c.z[j] = num.Pick(c.rng, lp, s)
		c.add(j, 1)
		if keep {
			row := c.post[j*k : (j+1)*k]
			for z, v := range lp {
				row[z] += v / s
			}
		}
	}
}

// rowsEvidence returns Σ_z log B(p_z + n_w(z, ·)) − log B(p_z) of worker
// w under the prior rows p (sums ps), from their tables (lgTable).
func (c *chain) rowsEvidence(w int, p, ps *lgTable) float64 {
	k := c.k
	var ev float64
	for z := range k {
		r := c.rs[w*k+z]
		if r == 0 {
			continue
		}
		for y := range k {
			if n := c.n[(w*k+z)*k+y]; n > 0 {
				ev += p.at(z*k+y, n) - p.at(z*k+y, 0)
			}
		}
		ev -= ps.at(z, r) - ps.at(z, 0)
	}
	return ev
}

// lgTable holds log Γ(x_i + n) of values x_i for the counts n up to
// lgCounts, and computes it beyond: math.Lgamma's values either way.
type lgTable struct {
	x, t []float64
}

// lgCounts is the largest count lgTable holds.
const lgCounts = 64

// newLGTable returns the table of the values x.
func newLGTable(x []float64) *lgTable {
	t := &lgTable{x: x, t: make([]float64, len(x)*(lgCounts+1))}
	for i, v := range x {
		for n := range lgCounts + 1 {
			t.t[i*(lgCounts+1)+n], _ = math.Lgamma(v + float64(n))
		}
	}
	return t
}

// at returns log Γ(x_i + n).
func (t *lgTable) at(i int, n int32) float64 {
	if n <= lgCounts {
		return t.t[i*(lgCounts+1)+int(n)]
	}
	v, _ := math.Lgamma(t.x[i] + float64(n))
	return v
}

// sweepKinds draws every worker's kind given the others' and the tasks'
// classes; keep adds the kinds to kinds.
func (c *chain) sweepKinds(keep bool) {
	var lp [numKinds]float64
	// The priors' own values, the same for every worker.
	lb, lbs, lg, lgs := newLGTable(c.beta), newLGTable(c.bsum), newLGTable(c.gam), newLGTable(c.gsum)
	coinB, classB := num.LogBeta(c.a, c.b), num.LogBeta(c.ac, c.bc)
	for w := range c.kind {
		c.nk[c.kind[w]]--
		lp[full] = c.rowsEvidence(w, lb, lbs)
		lp[adversary] = c.rowsEvidence(w, lg, lgs)
		lp[spammer] = c.spamEv[w]
		cw, ew := float64(c.cw[w]), float64(c.nw[w]-c.cw[w])
		pat := c.patternEvidence(w)
		lp[coin] = num.LogBeta(c.a+cw, c.b+ew) - coinB + pat
		lp[perClass] = pat
		for z := range c.k {
			if r := float64(c.rs[w*c.k+z]); r > 0 {
				right := float64(c.n[(w*c.k+z)*c.k+z])
				lp[perClass] += num.LogBeta(c.ac+right, c.bc+r-right) - classB
			}
		}
		top := math.Inf(-1)
		for i := range lp {
			lp[i] += math.Log(float64(c.nk[i] + 1))
			top = max(top, lp[i])
		}
		var s float64
		for i := range lp {
			lp[i] = math.Exp(lp[i] - top)
			s += lp[i]
		}
		kind := num.Pick(c.rng, lp[:], s)
		c.kind[w] = uint8(kind)
		c.nk[kind]++
		if keep {
			c.kinds[w*numKinds+kind]++
		}
	}
}

// patternEvidence returns Σ_{z≠y} n_w(z, y) log μ_z(y) of worker w: the
// log-likelihood of its errors under the crowd's pattern.
func (c *chain) patternEvidence(w int) float64 {
	k := c.k
	var ev float64
	for z := range k {
		if c.rs[w*k+z] == 0 {
			continue
		}
		for y := range k {
			if n := c.n[(w*k+z)*k+y]; n > 0 && y != z {
				ev += float64(n) * c.lmu[z*k+y]
			}
		}
	}
	return ev
}

// learnPattern sets the crowd's pattern of errors μ_z(y) to the errors of
// the one-coin and per-class workers, with one pseudo-count a cell:
// μ_z(y) ∝ 1 + Σ_w n_w(z, y), y ≠ z.
func (c *chain) learnPattern() {
	k := c.k
	for z := range k {
		row := c.mu[z*k : (z+1)*k]
		for y := range row {
			row[y] = 0
			if y != z {
				row[y] = 1
			}
		}
		for w, kind := range c.kind {
			if (kind != coin && kind != perClass) || c.rs[w*k+z] == 0 {
				continue
			}
			for y := range k {
				if y != z {
					row[y] += float64(c.n[(w*k+z)*k+y])
				}
			}
		}
		var s float64
		for _, v := range row {
			s += v
		}
		for y, v := range row {
			row[y] /= s
			if y != z {
				c.lmu[z*k+y] = math.Log(v / s)
			}
		}
	}
}

// The empirical Bayes steps of the full kind's prior: the bounds of
// its pseudo-counts and the fixed point's steps a call.
const (
	minPrior = 0.05
	maxRow   = 200
	ebSteps  = 20
)

// learnPrior sets the full kind's rows β_z to the maximiser of the
// marginal likelihood of the full workers' counts (Minka's fixed
// point for a Dirichlet-multinomial), every pseudo-count at least
// minPrior and every row's sum at most maxRow.
func (c *chain) learnPrior() {
	k := c.k
	for z := range k {
		row := c.beta[z*k : (z+1)*k]
		for range ebSteps {
			var den float64
			num1 := make([]float64, k)
			s := c.bsum[z]
			ds := num.Digamma(s)
			for w, kind := range c.kind {
				r := c.rs[w*k+z]
				if kind != full || r == 0 {
					continue
				}
				den += num.Digamma(s+float64(r)) - ds
				for y := range k {
					if n := c.n[(w*k+z)*k+y]; n > 0 {
						num1[y] += num.Digamma(row[y]+float64(n)) - num.Digamma(row[y])
					}
				}
			}
			if den <= 0 {
				break
			}
			var sum float64
			for y := range k {
				row[y] = max(row[y]*num1[y]/den, minPrior)
				sum += row[y]
			}
			if sum > maxRow {
				for y := range k {
					row[y] *= maxRow / sum
				}
				sum = maxRow
			}
			c.bsum[z] = sum
		}
	}
	c.learnCoin()
	c.learnPerClass()
	c.learnPattern()
}

// learnPerClass is learnCoin for the per-class kind's prior, every row of
// its workers a draw.
func (c *chain) learnPerClass() {
	k := c.k
	var cs, es []float64
	for w, kind := range c.kind {
		if kind != perClass {
			continue
		}
		for z := range k {
			if r := c.rs[w*k+z]; r > 0 {
				right := c.n[(w*k+z)*k+z]
				cs, es = append(cs, float64(right)), append(es, float64(r-right))
			}
		}
	}
	c.ac, c.bc = betaFixedPoint(c.ac, c.bc, cs, es)
}

// learnCoin sets the one-coin kind's prior (a, b) to the maximiser of the
// marginal likelihood of its workers' counts of right and wrong labels
// (Minka's fixed point), within the bounds of learnPrior's.
func (c *chain) learnCoin() {
	var cs, es []float64
	for w, kind := range c.kind {
		if n := c.nw[w]; kind == coin && n > 0 {
			cs, es = append(cs, float64(c.cw[w])), append(es, float64(n-c.cw[w]))
		}
	}
	c.a, c.b = betaFixedPoint(c.a, c.b, cs, es)
}

// betaFixedPoint returns the Beta prior (a, b) that maximises the
// marginal likelihood of the counts (c_i, e_i) of right and wrong labels
// (Minka's fixed point, ebSteps steps from (a, b)), every pseudo-count at
// least minPrior and their sum at most maxRow.
func betaFixedPoint(a, b float64, cs, es []float64) (float64, float64) {
	for range ebSteps {
		var den, na, nb float64
		s := a + b
		ds, da, db := num.Digamma(s), num.Digamma(a), num.Digamma(b)
		for i, cw := range cs {
			ew := es[i]
			den += num.Digamma(s+cw+ew) - ds
			if cw > 0 {
				na += num.Digamma(a+cw) - da
			}
			if ew > 0 {
				nb += num.Digamma(b+ew) - db
			}
		}
		if den <= 0 {
			break
		}
		a, b = max(a*na/den, minPrior), max(b*nb/den, minPrior)
		if a+b > maxRow {
			a, b = a*maxRow/(a+b), b*maxRow/(a+b)
		}
	}
	return a, b
}
