package model

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/noise"
)

// Result is a fitted consensus.
type Result struct {
	// Model is the name of the estimator, such as "da-glad".
	Model string
	// Data is the data set the result was fitted on.
	Data *data.Dataset
	// Probs holds the consensus distribution of every object, row-major
	// J×K: Probs[j·K+z] is the probability of class z for object j. For
	// an LA model it is the posterior of the true class, for a DA model
	// the estimated label distribution q_j, for RFE the label frequencies.
	Probs []float64
	// Distribution, for a model that estimates both, holds every object's
	// label distribution q_j (J×K, laid out as Probs) beside the posterior
	// of its true class in Probs: vb-ds and the other vb-X (see vb.Bayes.Both). It is nil
	// for the others, whose Probs is the one or the other.
	Distribution []float64
	// LogLikelihood is the log-likelihood of the data at the fitted
	// parameters (eq. 1 or eq. 3 of the paper); zero for RFE.
	LogLikelihood float64
	// Params is the fitted parameter vector of an iterative fit; nil for
	// the closed-form and heuristic estimators (see Solved).
	Params []float64
	// Method is the name of the solver used.
	Method string
	// Iterations and Evaluations count major iterations and evaluations
	// of the log-likelihood with its gradient.
	Iterations, Evaluations int
	// Status says why the fit stopped, such as "GradientThreshold".
	Status string
	// Stop is the error that stopped the fit before an optimum, if any,
	// such as ErrNonFinite or ErrLineSearch (Status ends with its text);
	// it is nil otherwise.
	Stop error
	// Converged is false when the fit stopped at a limit (iterations) or
	// failed rather than at an optimum.
	Converged bool
	// Runtime is the wall time of the fit.
	Runtime time.Duration

	baseline bool // the relative frequency estimator's: see Consensus

	model Model
	obj   *objective
	view  NoiseView // the fitted noise model of a fit without obj
	once  sync.Once // sets obj's parameters to Params, for the methods below
}

// Solved reports whether r comes from an iterative fit of a parameter
// vector (maximum likelihood, HDA or variational Bayes), whose solver
// statistics Method, Iterations, Evaluations, LogLikelihood and Status
// describe; false for the closed-form and heuristic estimators (rfe, mv,
// the Crowd-Kit methods), which have no parameter vector.
func (r *Result) Solved() bool { return r.Params != nil }

// NoiseView is what a result reads from its fitted noise model: the
// conditional distributions and the worker parameters. An estimator
// outside this package gives its result one with Result.SetNoise; the
// maximum-likelihood fits' results read their objective's.
type NoiseView interface {
	// Conditional writes P(y | z) for worker w labelling object j into
	// p[:K].
	Conditional(w int32, j int, z int, p []float64)
	// WorkerColumns names the per-worker numbers WorkerValues reports.
	WorkerColumns() []string
	// WorkerValues appends the fitted parameters of worker w, one per
	// WorkerColumns entry, to dst.
	WorkerValues(w int, dst []float64) []float64
}

// SkillReporter is a NoiseView with worker skills of its own, such as a
// skill-weighted vote's (package crowdkit): Result.WorkerSkills returns
// them instead of computing skills from the conditional distributions.
type SkillReporter interface {
	NoiseView
	// Skills returns a copy of every worker's skill.
	Skills() []float64
}

// SetNoise gives r its fitted noise model v, which WorkerColumns,
// WorkerValues, Conditional and WorkerSkills read, and returns r. An
// estimator calls it on the result it builds before returning it.
func (r *Result) SetNoise(v NoiseView) *Result {
	r.view = v
	return r
}

// SetBaseline marks r as the frequency baseline's result, whose consensus
// is scored by the paper's rule for the baseline (see Consensus), and
// returns r. RFE's results are so marked.
func (r *Result) SetBaseline() *Result {
	r.baseline = true
	return r
}

// skillsOf returns a copy of the skills of a result whose noise view
// reports skills of its own (SkillReporter), or nil for other results.
func skillsOf(r *Result) []float64 {
	if v, ok := r.view.(SkillReporter); ok {
		return v.Skills()
	}
	return nil
}

// ClosedForm returns the result of an estimator without iterations or
// fitted parameters (a vote) that estimated probs on d and took the time
// since start: Method and Status "closed form", converged.
func ClosedForm(name string, d *data.Dataset, probs []float64, start time.Time) *Result {
	return &Result{
		Model:     name,
		Data:      d,
		Probs:     probs,
		Method:    "closed form",
		Status:    "closed form",
		Converged: true,
		Runtime:   time.Since(start),
	}
}

// FittedModel returns the model a maximum-likelihood result was fitted
// with (Model.Fit, Model.FitOnce), after any relabelling of the
// label-switching guard, and whether r is such a result.
func (r *Result) FittedModel() (Model, bool) {
	return r.model, r.obj != nil
}

// FittedNoise returns the noise model's evaluator of a maximum-likelihood
// result at its fitted parameters, for a family that reads more from it
// than NoiseView gives (such as package hda's marginal likelihood), or nil
// for a result without one.
func (r *Result) FittedNoise() noise.Evaluator {
	if !r.ready() {
		return nil
	}
	return r.obj.noise
}

// noiseView returns the fitted noise model, or nil for RFE.
// WorkerOnly reports whether r's conditionals (Conditional) depend on the
// worker alone, not on the task (noise.WorkerOnly): Dawid-Skene and its
// restrictions, but not GLAD.
func (r *Result) WorkerOnly() bool {
	_, ok := r.noiseView().(noise.WorkerOnly)
	return ok
}

func (r *Result) noiseView() NoiseView {
	if r.view != nil {
		return r.view
	}
	if !r.ready() {
		return nil
	}
	return r.obj.noise
}

// ready sets the evaluators to the fitted parameters once and reports
// whether the result has any (RFE has none).
func (r *Result) ready() bool {
	if r.obj == nil {
		return false
	}
	r.once.Do(func() { r.obj.setParams(r.Params) })
	return true
}

// Consensus returns the result for scoring on gold labels. The relative
// frequency estimator's (rfe, mv) is marked as the frequency baseline,
// with the label counts, so that it is scored by the paper's rule for the
// baseline (see metrics.Consensus); any other result is scored on Probs.
func (r *Result) Consensus() metrics.Consensus {
	c := metrics.Consensus{Probs: r.Probs, K: r.K()}
	if r.baseline {
		c.Counts = r.Data.Counts()
	}
	return c
}

// K returns the number of classes.
func (r *Result) K() int { return r.Data.NumClasses() }

// Dist returns the consensus distribution of object j. The slice aliases
// Probs.
func (r *Result) Dist(j int) []float64 {
	k := r.K()
	return r.Probs[j*k : (j+1)*k]
}

// Labels returns the consensus class of every object, the argmax of its
// distribution. Ties are broken uniformly at random by a generator seeded
// with (seed, j) for object j, so a tie's outcome depends on the seed and
// the object only, not on the order of evaluation.
func (r *Result) Labels(seed uint64) []int {
	return Argmax(r.Probs, r.K(), seed)
}

// Argmax returns the index of the largest entry of every K-long row of p.
// Exactly equal maxima are ties, broken as described at Result.Labels.
func Argmax(p []float64, k int, seed uint64) []int {
	out := make([]int, len(p)/k)
	var ties []int
	for j := range out {
		row := p[j*k : (j+1)*k]
		ties = ties[:0]
		best := row[0]
		for z, v := range row {
			switch {
			case v > best:
				best = v
				ties = append(ties[:0], z)
			case v == best:
				ties = append(ties, z)
			}
		}
		if len(ties) == 1 {
			out[j] = ties[0]
			continue
		}
		rng := rand.New(rand.NewPCG(seed, uint64(j)))
		out[j] = ties[rng.IntN(len(ties))]
	}
	return out
}

// WorkerColumns names the per-worker numbers WorkerValues reports (nil for
// RFE).
func (r *Result) WorkerColumns() []string {
	v := r.noiseView()
	if v == nil {
		return nil
	}
	return v.WorkerColumns()
}

// WorkerValues appends the fitted parameters of worker w, one per
// WorkerColumns entry, to dst.
func (r *Result) WorkerValues(w int, dst []float64) []float64 {
	v := r.noiseView()
	if v == nil {
		return dst
	}
	return v.WorkerValues(w, dst)
}

// Conditional writes P(y | z) for worker w labelling object j into p, at
// the fitted parameters. RFE has no noise model: its workers are taken as
// perfect, P(y | z) = 1[y = z].
func (r *Result) Conditional(w int32, j, z int, p []float64) {
	v := r.noiseView()
	if v == nil {
		clear(p[:r.K()])
		p[z] = 1
		return
	}
	v.Conditional(w, j, z, p)
}
