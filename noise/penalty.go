package noise

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"

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
// labels from crowds by minimax conditional entropy"), α = K²/4 and
// β = α · (mean labels per worker)/(mean labels per object), so that each
// object's matrix is penalised as much as its share of the data warrants;
// but α is at most a quarter of Lift(d), the weight above which the labels'
// agreement can no longer lift the fit off the point where every worker
// answers at random. Where the labels are few a worker and many classes,
// K²/4 is past that weight and the penalised likelihood's maximum is that
// point, every task's posterior uniform: on 8 crowds of K = 5 and 10, 1000
// tasks of 3 or 5 labels from 60 workers of accuracy U[0.45, 0.9] with 10%
// spammers, 5 came out uniform and one nearly (accuracy 0.20-0.58); at
// the cap, 0.67-0.91 (TestRegMMESparse). On the shipped data sets the cap
// does not bind.
type RegMME struct {
	// Alpha is the weight α of the worker penalty; zero means
	// min(K²/4, Lift(d)/4), negative means no worker penalty.
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
//
// Weights costs a pass over every pair of labels of a task for each of
// at most liftIterations steps of Lift where K²/4 might bind.
func (m RegMME) Weights(d *data.Dataset) (alpha, beta float64) {
	k := float64(d.NumClasses())
	alpha = m.Alpha
	if alpha == 0 {
		alpha = min(k*k/4, Lift(d, k*k)/4)
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

// liftIterations bounds Lift's power iteration.
const liftIterations = 100

// Lift returns the weight α* of the worker penalty of RegMME above which
// the point where every worker answers at random (all parameters 0, every
// posterior uniform) is a local maximum of the penalised log-likelihood of
// LA with a uniform class prior: the largest eigenvalue of H over K − 1,
// where H (W×W) is the curvature of the log-likelihood at that point in
// the direction that gives worker w the matrix a_w (I − 11ᵀ/K):
//
//	H_{ww'} = (1/K) Σ_j Σ_{i≠i' ∈ j, w_i = w, w_i' = w'} (1[y_i = y_i'] − 1/K),
//
// the agreement of the two workers' labels on shared tasks beyond chance,
// against the penalty's curvature α (K − 1) in the same direction
// (||I − 11ᵀ/K||² = K − 1). Labels on the same task that agree beyond
// chance make H positive; a penalty past its largest eigenvalue keeps
// every worker at chance. Lift returns the largest Rayleigh quotient of H
// over K − 1 along a power iteration from the all-ones vector (at most
// liftIterations steps, a lower bound of α*), and stops once that reaches
// enough, the largest α* the caller needs to tell apart: 24 ms on 10⁵
// labels of K = 10 on a 2-core machine (BenchmarkLift, enough infinite).
func Lift(d *data.Dataset, enough float64) float64 {
	k := d.NumClasses()
	if k < 2 || d.NumWorkers() == 0 {
		return 0
	}
	kf := float64(k)
	v := make([]float64, d.NumWorkers())
	hv := make([]float64, len(v))
	for i := range v {
		v[i] = 1
	}
	best := math.Inf(-1)
	for range liftIterations {
		clear(hv)
		for j := range d.Tasks {
			lo, hi := d.Offsets[j], d.Offsets[j+1]
			for i := lo; i < hi; i++ {
				for i2 := i + 1; i2 < hi; i2++ {
					h := -1 / kf
					if d.Label[i] == d.Label[i2] {
						h++
					}
					a, b := d.Worker[i], d.Worker[i2]
					hv[a] += h / kf * v[b]
					hv[b] += h / kf * v[a]
				}
			}
		}
		vv, vhv := floats.Dot(v, v), floats.Dot(v, hv)
		if vv == 0 {
			break
		}
		rq := vhv / vv / (kf - 1)
		if rq <= best*(1+1e-6) || rq >= enough {
			best = max(best, rq)
			break
		}
		best = rq
		n := floats.Norm(hv, 2)
		if n == 0 {
			break
		}
		floats.ScaleTo(v, 1/n, hv)
	}
	return max(best, 0)
}
