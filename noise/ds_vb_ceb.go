package noise

import (
	"github.com/consensuslab/consensus/noise/internal/dsmix"
)

// CavityPriorer is an optional interface of a Variational posterior whose
// shared priors can be chosen by cavity empirical Bayes: for the labels'
// likelihood with every worker's confusion integrated out under the
// priors and each of its tasks' classes drawn from the task's posterior
// without the worker's label, which a mean-field fit counts twice.
type CavityPriorer interface {
	// CavityPrior returns the state of the shared priors (the tail of
	// Params after the worker rows) that maximises that likelihood given
	// the fit's task posteriors probs (J×K, the labels' expected counts)
	// and the tasks' cavity posteriors cav (J×K: the class prior times
	// every label's CavityProbs, normalised), and true; or nil and false
	// where the posterior has no such priors.
	CavityPrior(probs, cav []float64) ([]float64, bool)
	// Collapsed reports whether some concentration of the priors the fit
	// learned is at its cap: the collapse that CavityPrior undoes.
	Collapsed() bool
}

// Collapsed reports whether, at K = 2 under DS.Averaged with an
// estimated prior, a row of β or the one-coin prior has a concentration
// within 10⁻³ of dsmix.MaxConcentration (CavityPriorer).
func (v *dsVB) Collapsed() bool {
	if v.mix == nil || v.beta == nil || v.e.k != 2 {
		return false
	}
	// The state at K = 2: β_00, β_01, β_10, β_11, ρ, a, b.
	st := v.mixState(nil)
	return atCap(st[0]+st[1]) || atCap(st[2]+st[3]) || atCap(st[5]+st[6])
}

// atCap reports whether a concentration is within 10⁻³ of
// dsmix.MaxConcentration, the cap that a collapse runs it to.
func atCap(c float64) bool { return c >= (1-1e-3)*dsmix.MaxConcentration }

var _ CavityPriorer = (*dsVB)(nil)

// cavityWorkers bounds the workers whose labels CavityPrior's likelihood
// sums: at most this many, evenly spaced in the workers' order. Four
// hyperparameters are well determined by them, and the likelihood's cost
// grows with the workers: on 10⁵ tasks of 3 labels among 12,000 workers,
// CavityEB's searches took 45 of the fit's 80 CPU-seconds with all of them.
const cavityWorkers = 2000

// CavityPrior is the cavity empirical Bayes of the averaged posterior at
// K = 2 with an estimated prior (dsmix.CavityEB): each label's cavity
// probability of class 0 is its task's cavity posterior divided by the
// label's own factor, CavityProbs's, normalised (dsmix.LabelCavities); the
// likelihood is that of at most cavityWorkers workers. The state of any other posterior is not
// estimated so (nil, false).
func (v *dsVB) CavityPrior(probs, cav []float64) ([]float64, bool) {
	const k = 2
	if v.mix == nil || v.beta == nil || v.e.k != k {
		return nil, false
	}
	d := v.e.d
	q0 := make([]float64, d.NumLabels())
	dsmix.LabelCavities(d, k, probs, cav, v.CavityProbs, func(i int, q []float64) { q0[i] = q[0] })
	var eb dsmix.CavityEB
	var ys []int
	var qs []float64
	byWorker := d.LabelsByWorker()
	n := min(len(byWorker), cavityWorkers)
	for t := range n {
		idx := byWorker[t*len(byWorker)/n]
		ys, qs = ys[:0], qs[:0]
		for _, i := range idx {
			ys = append(ys, int(d.Label[i]))
			qs = append(qs, q0[i])
		}
		eb.Add(ys, qs)
	}
	st := v.mixState(nil)
	return eb.Maximise(st)
}
