package latent

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// The fast paths of the Dirichlet evaluator: DA's, with the prior's
// pseudo-count term added per object. Without them a hierarchical fit
// would take the log path (LogProb, Task) on every label, several times
// the cost of a DA pass.
var (
	_ ProbEvaluator = (*dirEval)(nil)
	_ TaskMStepper  = (*dirEval)(nil)
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
	v := e.addPriors(lo, lo+done, gtask)
	// m·2^ex·e^v = m·2^(ex + f)·2^(v/ln 2 - f), f = ⌊v/ln 2⌋.
	x := v / math.Ln2
	f := math.Floor(x)
	m, e2 := math.Frexp(m * math.Exp2(x-f))
	return m, ex + int(f) + e2, done
}

// MStep sets q_j = (Σ_{i ∈ j} r_i + α p)/(n_j + α) = q_j + gtask_j/(n_j + α),
// the maximiser of the expected complete-data objective.
func (e *dirEval) MStep(_, gtask []float64, _, t []float64) {
	e.MStepTasks(0, e.d.NumTasks(), gtask, t)
}

// MStepGlobal does nothing: α and p are settings, not fitted here.
func (e *dirEval) MStepGlobal(_, _ []float64) {}

// MStepTasks is MStep for the objects [lo, hi) only: DA's, with α
// added to every object's number of labels (the expected counts already
// hold the pseudo-counts α p, which Task and TaskProb add to gtask). An
// object without labels and with α = 0 keeps its distribution.
func (e *dirEval) MStepTasks(lo, hi int, gtask, t []float64) {
	e.da.MStepTasks(lo, hi, gtask, t)
}

// addPriors is addPrior for the objects [lo, hi), with the exponentials
// and logarithms of a block of objects in one call of num.ExpTo and
// num.LogTo; it returns the sum of their terms.
func (e *dirEval) addPriors(lo, hi int, gtask []float64) float64 {
	k := e.k
	const size = 256
	if k > size/4 {
		var v float64
		for j := lo; j < hi; j++ {
			v += e.addPrior(j, gtask)
		}
		return v
	}
	var ex [size]float64
	var mx, sums, logs [size / 4]float64
	per := min(len(sums), size/k)
	var v float64
	for block := lo; block < hi; block += per {
		end := min(hi, block+per)
		for j := block; j < end; j++ {
			b := e.da.b[j*k : (j+1)*k]
			m := math.Inf(-1)
			for _, x := range b {
				m = max(m, x)
			}
			mx[j-block] = m
			for z, x := range b {
				ex[(j-block)*k+z] = x - m
			}
		}
		n := end - block
		num.ExpTo(ex[:n*k], ex[:n*k])
		for i := range n {
			var s float64
			for _, x := range ex[i*k : (i+1)*k] {
				s += x
			}
			sums[i] = s
		}
		num.LogTo(logs[:n], sums[:n])
		for j := block; j < end; j++ {
			i := j - block
			v = e.foldPrior(v, j, ex[i*k:(i+1)*k], mx[i]+logs[i], sums[i], gtask)
		}
	}
	return v
}
