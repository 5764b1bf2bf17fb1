package latent

import (
	"errors"
	"fmt"
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// Assumption is a latent assumption: it combines the log probabilities
// l_i(z) = log P(y_i | z) of a noise model into a log-likelihood.
//
// Its parameters are a global block of GlobalDim(K) values and a task block
// of J·TaskDim(K) values, object j's at [j·TaskDim(K), (j+1)·TaskDim(K)).
type Assumption interface {
	// Name returns the short name, "la" or "da".
	Name() string

	// GlobalDim returns the number of parameters shared by all objects.
	GlobalDim(k int) int
	// TaskDim returns the number of parameters per object.
	TaskDim(k int) int

	// Init writes the initial parameters into the global block g and the
	// task block t. freq gives each task's relative label frequencies, a
	// row at a time (data.Dataset.FrequencyWeights).
	Init(d *data.Dataset, freq data.TaskWeights, g, t []float64)

	// NewEvaluator returns an evaluator of the assumption on d, or an
	// error wrapping ErrUnsuited if the assumption's settings do not suit
	// d (Check) or d is nil.
	NewEvaluator(d *data.Dataset) (Evaluator, error)
}

// ErrUnsuited is wrapped by the errors of an assumption whose settings do
// not suit the data set (Check, NewEvaluator), such as a WithGold whose
// list of classes has the wrong length, and of a nil data set.
var ErrUnsuited = errors.New("latent: the assumption does not suit the data set")

// unsuited is an error wrapping ErrUnsuited with its own message.
type unsuited struct{ msg string }

func (e *unsuited) Error() string { return e.msg }
func (e *unsuited) Unwrap() error { return ErrUnsuited }

// unsuitedf returns an error wrapping ErrUnsuited whose message format
// gives.
func unsuitedf(format string, args ...any) error {
	return &unsuited{msg: fmt.Sprintf(format, args...)}
}

// checkData returns an error wrapping ErrUnsuited if d is nil.
func checkData(d *data.Dataset) error {
	if d == nil {
		return unsuitedf("latent: nil data set")
	}
	return nil
}

// Checker is an optional interface of an Assumption whose settings must
// suit the data set, such as WithGold's list of classes. Package model's
// fits call Check (the function) before they fit, so that an assumption
// that does not suit the data is an error rather than a panic.
type Checker interface {
	Assumption

	// Check returns an error if the assumption's settings do not suit d.
	Check(d *data.Dataset) error
}

// Check returns a's error for d if a is a Checker and nil otherwise, or
// an error if a is nil. NewEvaluator returns the error of an assumption
// that Check refuses.
func Check(a Assumption, d *data.Dataset) error {
	if a == nil {
		return errors.New("latent: no assumption")
	}
	if c, ok := a.(Checker); ok {
		return c.Check(d)
	}
	return nil
}

// Evaluator computes one object's part of the log-likelihood and gradient.
//
// SetParams must be called first and not concurrently with the other
// methods; Task and Output may be called concurrently for different
// objects, each with its own gglob slice.
type Evaluator interface {
	// SetParams transforms the parameters once per evaluation.
	SetParams(g, t []float64)

	// Task returns object j's term of the log-likelihood, given the log
	// probabilities l[i·K+z] = log P(y_i | z) of its labels. It writes the
	// weights g[i·K+z] = ∂L/∂l_i(z), adds the gradient of the global
	// parameters to gglob and the gradient of object j's parameters to its
	// rows of gtask.
	Task(j int, l, g []float64, gglob, gtask []float64) float64

	// FinishGrad completes gglob and gtask once Task has been called, and
	// its global results summed, for every object.
	FinishGrad(gglob, gtask []float64)

	// Output writes the consensus distribution of object j into out (K
	// values summing to 1), given the log probabilities of its labels as
	// for Task.
	Output(j int, l []float64, out []float64)
}

// ProbEvaluator is an optional interface of an Evaluator that can take the
// probabilities P(y_i | z) instead of their logarithms (see
// noise.ProbEvaluator), which saves most logarithms and exponentials per
// label. Like noise.ProbEvaluator it works on a range of objects [lo, hi)
// whose labels are contiguous: label i of the range has its K values at
// [i·K, (i+1)·K) of p and g.
type ProbEvaluator interface {
	Evaluator

	// TaskProb does the same as Task for the objects lo, lo+1, ... in
	// turn, up to hi, given p[i·K+z] = P(y_i | z) instead of
	// l[i·K+z] = log P(y_i | z). It returns the number done of objects
	// it processed, and the sum of their terms of the log-likelihood not
	// as a number but as m and e, the sum being log(m) + e·log 2 with m a
	// positive normal number, so that the caller can multiply the m of
	// many ranges before it takes one logarithm. When an object's
	// probabilities are too small to be combined accurately, TaskProb
	// stops before it with done < hi - lo, having written nothing for it
	// to gglob or gtask (it may have written to its part of g), and the
	// caller uses Task for that object.
	TaskProb(lo, hi int, p, g []float64, gglob, gtask []float64) (m float64, e, done int)
}

// SharedProbEvaluator is an optional interface of a ProbEvaluator whose
// weights are the same for every label of an object, as LA's are
// (g_i = γ_j): it writes them once per object instead of once per label.
// Package model uses it with a noise model that can take the weights so
// (noise.SharedBackpropper), which saves writing and reading K weights per
// label, and TaskProb with any other, so every noise model works with the
// assumption unchanged.
type SharedProbEvaluator interface {
	ProbEvaluator

	// TaskProbShared does the same as TaskProb, except that it writes the
	// weights of object j, shared by all its labels, once, at
	// g[(j-lo)·K, (j-lo+1)·K): g holds K values per object of the range,
	// not per label.
	TaskProbShared(lo, hi int, p, g []float64, gglob, gtask []float64) (m float64, e, done int)
}

// ProbOutputter is an optional interface of a ProbEvaluator whose
// consensus output can be computed from the probabilities P(y_i | z), as
// LA's posterior γ_j can, without the K exponentials and the logarithm of
// the log-space Output.
type ProbOutputter interface {
	ProbEvaluator

	// OutputProb does the same as Output for object j given
	// p[i·K+z] = P(y_i | z) for its labels instead of their logarithms,
	// to rounding. It reports false, having written nothing, when the
	// probabilities are too small to be combined accurately (as TaskProb
	// would stop); the caller then uses Output.
	OutputProb(j int, p, out []float64) bool
}

// TableEvaluator is an optional interface of a ProbEvaluator that can read
// the probabilities of a noise model given as a table per worker
// (noise.Tabled: P(y | z) = t[w·K² + y·K + z] for a label y of worker w)
// and add its weights where that noise model's BackpropProb would: g_i(z)
// to gw[w·K² + y·K + z]. Package model uses it when the noise model is
// Tabled, which saves writing every label's K probabilities and weights
// and reading them back. LA's evaluator has it for K = 2 and K ≥ 4, DA's
// for K ≥ 4 and, where num.Vectorised, for K = 2.
type TableEvaluator interface {
	ProbEvaluator

	// TaskTable does for the objects lo, lo+1, ... up to hi what Prob,
	// TaskProb and BackpropProb would do for them (TaskProbShared and
	// BackpropShared, if the evaluator is a SharedProbEvaluator), bit for
	// bit, given the table t of the noise model, and returns the same m,
	// e and done as TaskProb. It stops before an object that TaskProb
	// would stop before, having written nothing for it. p and g are
	// scratch that it may overwrite, each at least K numbers per label of
	// the object with the most labels among them, so that it need not
	// allocate.
	TaskTable(lo, hi int, t []float64, gw, gglob, gtask, p, g []float64) (m float64, e, done int)
}

// MStepper is an optional interface of an Evaluator whose assumption has a
// closed-form M-step, for the EM algorithm of package model: given the
// weights g_i(z) of the E-step at the current parameters, it sets its own
// parameters to the maximiser of the expected complete-data log-likelihood.
type MStepper interface {
	Evaluator

	// MStep writes the M-step's parameters into the global block g and
	// the task block t, given gglob and gtask as Task (or TaskProb) left
	// them at the current parameters, summed over every object, with
	// FinishGrad not called. It may overwrite gglob and gtask.
	MStep(gglob, gtask []float64, g, t []float64)
}

// TaskMStepper is an optional interface of an MStepper whose M-step is
// separable over objects: the new parameters of object j depend only on
// object j's rows of the accumulations and of the current parameters. The
// EM algorithm of package model then runs the per-object part on ranges of
// objects in parallel; the result does not depend on the ranges.
type TaskMStepper interface {
	MStepper

	// MStepGlobal writes the M-step's global parameters into g, given
	// gglob as for MStep.
	MStepGlobal(gglob, g []float64)

	// MStepTasks writes the M-step's parameters of the objects [lo, hi)
	// into their rows of the task block t, given their rows of gtask as
	// for MStep (t and gtask are whole task blocks). MStep(gglob, gtask,
	// g, t) is MStepGlobal(gglob, g) followed by MStepTasks over all
	// objects.
	MStepTasks(lo, hi int, gtask, t []float64)
}

// MinProb is the smallest probability an M-step writes: a probability of 0
// would make its logit -Inf. At 10⁻³⁰ a logit stays above about -69, in
// line with where the gradient solvers stop on boundary optima, and the
// log-likelihood differs from its value at the boundary by less than 10⁻³⁰
// per label.
const MinProb = 1e-30

// logNormalise replaces the K nonnegative weights in x (which may have
// rounded slightly below zero) by the logarithms of their normalised
// values, each raised to at least MinProb.
func logNormalise(x []float64) {
	var sum float64
	for i, v := range x {
		x[i] = max(v, 0)
		sum += x[i]
	}
	if !(sum > 0) {
		for i := range x {
			x[i] = -math.Log(float64(len(x)))
		}
		return
	}
	for i, v := range x {
		x[i] = max(v/sum, MinProb)
	}
	num.MathLogTo(x, x) // math.Log of each, four at a time
}
