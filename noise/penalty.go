package noise

import (
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
)

// Penalizer is an optional interface of an Evaluator whose model adds a
// penalty R(θ) on its own parameters to the objective: package model then
// maximises L(θ) - R(θ) instead of the log-likelihood L alone.
type Penalizer interface {
	// Penalty returns R at the worker block w and object block o and
	// subtracts ∂R/∂θ from gw and gobj, which hold ∂L/∂θ for the same
	// blocks, so that they hold the gradient of L - R afterwards.
	Penalty(w, o, gw, gobj []float64) float64
}

// RegMME is the minimax entropy noise model (MME) with the L2 penalties of
// the regularised minimax conditional entropy of Zhou et al. (2012, 2015):
// the objective is
//
//	L - (α/2) Σ_w ||e_w||² - (β/2) Σ_j ||d_j||²
//
// (Frobenius norms of the K×K matrices). Unregularised MME can fit every
// object's own confusion matrix d_j to its few labels and overfits; the
// penalties keep the object and worker matrices near 0 unless the data
// insist, and make the parameters identified (a constant added to a row of
// e_w and subtracted from the same row of d_j no longer leaves the objective
// unchanged).
//
// The defaults follow the published code of Zhou, Liu et al.
// (crowd_imcl14_demo, for Liu, Zhou and Platt 2014 "Aggregating ordinal
// labels from crowds by minimax conditional entropy"): α = K²/4 and
// β = α · (mean labels per worker)/(mean labels per object), so that each
// object's matrix is penalised as much as its share of the data warrants.
type RegMME struct {
	// Alpha is the weight α of the worker penalty; zero means K²/4,
	// negative means no worker penalty.
	Alpha float64
	// Beta is the weight β of the object penalty; zero means
	// α · (labels per worker)/(labels per object), negative means none.
	Beta float64
}

// Name returns "rmme".
func (RegMME) Name() string { return "rmme" }

// WorkerDim returns k², as MME.
func (RegMME) WorkerDim(k int) int { return k * k }

// TaskDim returns k², as MME.
func (RegMME) TaskDim(k int) int { return k * k }

// Init is MME's initialisation with every row of every matrix centred:
//
//	e_w(z, y) ← e_w(z, y) − (1/K) Σ_k e_w(z, k),  d_j(z, y) ← d_j(z, y) − (1/K) Σ_k d_j(z, k).
//
// P(y | z) is a softmax over y of e_w(z, ·) + d_j(z, ·), so the centred
// start gives exactly the same probabilities, posteriors and likelihood as
// MME's, and it is the start of least penalty among those that do. MME's
// own start is built from logarithms of counts, log(1 + C), whose row means
// are invisible to the likelihood but carry most of the penalty: on
// Duchenne the penalty at MME's start is 3.1e5 against a log-likelihood of
// −1.5e4 (1.1e4 at the centred start); the first L-BFGS steps follow the
// penalty, shrink the object matrices so far that the informative
// differences within the rows change sign, and the fit ends in the
// label-switched optimum (accuracy 0.26 instead of 0.74 at the same
// objective value: the likelihood with a uniform prior and the penalty are
// both invariant under permuting the classes). From the centred start it
// does not.
func (RegMME) Init(d *data.Dataset, freq data.TaskWeights, w, o []float64) {
	MME{}.Init(d, freq, w, o)
	k := d.NumClasses()
	centreRows(w, k)
	centreRows(o, k)
}

// centreRows subtracts from every k-long row of x its mean.
func centreRows(x []float64, k int) {
	for r := 0; r+k <= len(x); r += k {
		row := x[r : r+k]
		var mean float64
		for _, v := range row {
			mean += v
		}
		mean /= float64(k)
		for i := range row {
			row[i] -= mean
		}
	}
}

// SampleParams is MME's.
func (RegMME) SampleParams(rng *rand.Rand, k int, w, o []float64) { MME{}.SampleParams(rng, k, w, o) }

// Weights returns the penalty weights α and β in force on d: the fields,
// or their data-scaled defaults described at RegMME.
func (m RegMME) Weights(d *data.Dataset) (alpha, beta float64) {
	k := float64(d.NumClasses())
	alpha = m.Alpha
	if alpha == 0 {
		alpha = k * k / 4
	}
	beta = m.Beta
	if beta == 0 {
		n := float64(d.NumLabels())
		perWorker := n / float64(max(d.NumWorkers(), 1))
		perObject := n / float64(max(d.NumTasks(), 1))
		beta = max(alpha, 0) * perWorker / perObject
	}
	return max(alpha, 0), max(beta, 0)
}

// NewEvaluator returns an evaluator of MME on d that also implements
// Penalizer.
func (m RegMME) NewEvaluator(d *data.Dataset) Evaluator {
	a, b := m.Weights(d)
	return &regMMEEval{Evaluator: MME{}.NewEvaluator(d), alpha: a, beta: b}
}

type regMMEEval struct {
	Evaluator
	alpha, beta float64
}

func (e *regMMEEval) Penalty(w, o, gw, gobj []float64) float64 {
	return l2(e.alpha, 0, w, gw) + l2(e.beta, 0, o, gobj)
}

// l2 returns (λ/2) Σ (x - c)² and subtracts λ(x - c) from g: the penalty
// of a Gaussian prior N(c, 1/λ) on every element of x, up to a constant.
func l2(lambda, c float64, x, g []float64) float64 {
	if lambda == 0 {
		return 0
	}
	var s float64
	for i, v := range x {
		s += (v - c) * (v - c)
		g[i] -= lambda * (v - c)
	}
	return lambda / 2 * s
}

// Info declares regularised minimax entropy for the registry: like MME,
// its LA form keeps the class prior uniform.
func (RegMME) Info() Info {
	return Info{Summary: "minimax entropy with L2 penalties scaled to the data (Zhou et al.)", Solver: "lbfgs"}
}

// SetWorker is MME's.
func (RegMME) SetWorker(d *data.Dataset, vals, w []float64) error { return MME{}.SetWorker(d, vals, w) }

var _ WorkerSetter = RegMME{}
var _ Describer = RegMME{}
