package latent

import "math"

// The fast paths of the Dirichlet evaluator: DA's, with the prior's
// pseudo-count term added per object. Without them a hierarchical fit
// would take the log path (LogProb, Task) on every label, several times
// the cost of a DA pass.
var (
	_ ProbEvaluator  = (*dirEval)(nil)
	_ ObjectMStepper = (*dirEval)(nil)
)

// TaskProb is Task in probability space: DA's TaskProb for the labels,
// then for every object it processed the prior's term
// Σ_z α p_z log q_j(z), folded into the returned product, and its gradient
// α(p - q_j).
func (e *dirEval) TaskProb(lo, hi int, p, g []float64, gglob, gtask []float64) (float64, int, int) {
	m, ex, done := e.da.TaskProb(lo, hi, p, g, gglob, gtask)
	if e.alpha == 0 || done == 0 {
		return m, ex, done
	}
	var v float64
	for j := lo; j < lo+done; j++ {
		v += e.addPrior(j, gtask)
	}
	// m·2^ex·e^v = m·2^(ex + f)·2^(v/ln 2 - f), f = ⌊v/ln 2⌋.
	x := v / math.Ln2
	f := math.Floor(x)
	m, e2 := math.Frexp(m * math.Exp2(x-f))
	return m, ex + int(f) + e2, done
}

// MStep sets q_j = (Σ_{i ∈ j} r_i + α p)/(n_j + α) = q_j + gtask_j/(n_j + α),
// the maximiser of the expected complete-data objective.
func (e *dirEval) MStep(_, gtask []float64, _, t []float64) {
	e.MStepObjects(0, e.d.NumTasks(), gtask, t)
}

// MStepGlobal does nothing: α and p are settings, not fitted here.
func (e *dirEval) MStepGlobal(_, _ []float64) {}

// MStepObjects is MStep for the objects [lo, hi) only: DA's, with α
// added to every object's number of labels (the expected counts already
// hold the pseudo-counts α p, which Task and TaskProb add to gtask). An
// object without labels and with α = 0 keeps its distribution.
func (e *dirEval) MStepObjects(lo, hi int, gtask, t []float64) {
	e.da.MStepObjects(lo, hi, gtask, t)
}
