package noise

// CavityProber is an optional interface of a Variational posterior whose
// workers' posterior predictive can be taken without one of their labels.
type CavityProber interface {
	// CavityProbs writes into p, for every label i of task j in the data
	// set's order, at p[i·K + z], the posterior mean of P(y_i | z) of the
	// label's worker with the label taken out of the worker's counts,
	// given the task's class posterior r (K values summing to 1, the
	// label's expected counts on the classes). The posterior must not
	// change between the first call and the last.
	CavityProbs(j int, r, p []float64)
}

var _ CavityProber = (*dsVB)(nil)

// cavityFloor bounds a count less a label's share below, against rounding.
const cavityFloor = 1e-12

// dsCavity holds what CavityProbs reads of every worker, computed once
// after a fit: the sums Σ_y λ_wz(y) of its rows and, under DS.Averaged,
// the one-coin kind's a + c_w and a + b + c_w + e_w.
type dsCavity struct {
	rowSum, pa, pab []float64
	// full holds every worker's probability of the full kind where the
	// average has two kinds only (K = 2, nothing held): CavityProbs's
	// fast path.
	full []float64
}

// cavity returns v's dsCavity, computing it on the first call after the
// posterior last changed.
func (v *dsVB) cavity() *dsCavity {
	if v.cav != nil {
		return v.cav
	}
	k := v.e.k
	nw := len(v.lam) / (k * k)
	c := &dsCavity{rowSum: make([]float64, nw*k)}
	for r := range c.rowSum {
		c.rowSum[r] = sum(v.lam[r*k : (r+1)*k])
	}
	if x := v.mix; x != nil {
		c.pa, c.pab = make([]float64, nw), make([]float64, nw)
		for w := range nw {
			c.pa[w], c.pab[w] = x.CoinCounts(w)
		}
		if k == 2 && v.fixed == nil {
			c.full = make([]float64, nw)
			for w := range nw {
				c.full[w], _ = x.Shares(w, false)
			}
		}
	}
	v.cav = c
	return c
}

// CavityProbs is the posterior mean of P(y | z) without the label (see
// CavityProber): the Dirichlet rows' (λ_wz(y) − r[z]) / (Σ_y' λ_wz(y') −
// r[z]), and under DS.Averaged each kind's mean of its counts less the
// label's, the kinds' probabilities held. A worker whose pseudo-counts
// are held gets its plain mean.
func (v *dsVB) CavityProbs(j int, r, p []float64) {
	k := v.e.k
	c := v.cavity()
	d := v.e.d
	lo := d.Offsets[j]
	if c.full != nil {
		// K = 2, a full and a one-coin kind, nothing held: the general
		// loop below, written out.
		for i := lo; i < d.Offsets[j+1]; i++ {
			w, y := int(d.Worker[i]), int(d.Label[i])
			right := max(c.pa[w]-r[y], cavityFloor) / max(c.pab[w]-1, cavityFloor)
			m := c.full[w]
			for z := range 2 {
				at := (2*w + z) * 2
				full := max(v.lam[at+y]-r[z], cavityFloor) / max(c.rowSum[2*w+z]-r[z], cavityFloor)
				coin := 1 - right
				if z == y {
					coin = right
				}
				p[2*(i-lo)+z] = m*full + (1-m)*coin
			}
		}
		return
	}
	for i := lo; i < d.Offsets[j+1]; i++ {
		w, y := int(d.Worker[i]), int(d.Label[i])
		out := p[(i-lo)*k : (i-lo+1)*k]
		held := v.mixHeld(w)
		for z := range k {
			at := (w*k + z) * k
			s, x := c.rowSum[w*k+z], v.lam[at+y]
			if !held && (v.fixed == nil || !v.fixed[at+y]) {
				s, x = max(s-r[z], cavityFloor), max(x-r[z], cavityFloor)
			}
			out[z] = x / s
		}
		if v.mix != nil && !held {
			right := max(c.pa[w]-r[y], cavityFloor) / max(c.pab[w]-1, cavityFloor)
			v.mix.CavityMean(w, y, right, r, out)
		}
	}
}
