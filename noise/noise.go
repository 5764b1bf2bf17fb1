package noise

import (
	"errors"
	"fmt"
	"math"

	"github.com/consensuslab/consensus/data"
)

// Model is a noise model: a family of conditional distributions P(y | z) of
// the observed class y given the latent class z, with parameters per worker
// and per object.
//
// The parameters of a data set with W workers and J objects are two slices:
// the worker block, W·WorkerDim(K) values with worker w's at
// [w·WorkerDim(K), (w+1)·WorkerDim(K)), and the object block, J·TaskDim(K)
// values laid out the same way.
type Model interface {
	// Name returns the short name of the model, such as "ds".
	Name() string

	// WorkerDim returns the number of parameters per worker for k classes.
	WorkerDim(k int) int
	// TaskDim returns the number of parameters per object for k classes.
	TaskDim(k int) int

	// Init writes the initial values of the paper's section 5 into the
	// worker block w and the object block o. freq gives the J×K relative
	// label frequencies of d (data.Dataset.FrequencyWeights), or other
	// weights of the classes per object in their place.
	Init(d *data.Dataset, freq data.TaskWeights, w, o []float64)

	// NewEvaluator returns an Evaluator of the model on d.
	NewEvaluator(d *data.Dataset) Evaluator
}

// Evaluator computes the log probabilities of a data set's labels and
// back-propagates gradients into the noise parameters.
//
// SetParams must be called before the other methods and must not run
// concurrently with them. LogProb, Backprop and Conditional may be called
// concurrently for different objects once SetParams has returned: they only
// read the evaluator's state and write to the slices they are given.
type Evaluator interface {
	// SetParams transforms the parameters once per evaluation (for example
	// confusion logits into log probabilities). The evaluator may keep
	// references to w and o until the next SetParams call.
	SetParams(w, o []float64)

	// LogProb writes, for every label i of object j in data set order,
	// l[i·K + z] = log P(y_i | z) for each class z. The label index i runs
	// from 0 to the object's number of labels.
	LogProb(j int, l []float64)

	// Backprop adds Σ_i Σ_z g[i·K+z] ∂l_i(z)/∂θ for the labels of object j:
	// the worker part into gw (laid out like the worker block) and the
	// object part into go (laid out like the object block). Some models
	// leave a part of the gradient to FinishGrad.
	Backprop(j int, g []float64, gw, gobj []float64)

	// FinishGrad completes gw and gobj once Backprop has been called, and
	// its results summed, for every object.
	FinishGrad(gw, gobj []float64)

	// Conditional writes p[y] = P(y | z) for all classes y, for worker w
	// labelling object j.
	Conditional(w int32, j int, z int, p []float64)

	// WorkerColumns names the numbers WorkerValues reports for each worker,
	// such as "p[a,b]" for the probability that a worker reports class b
	// when the latent class is a.
	WorkerColumns() []string

	// WorkerValues appends the interpretable parameters of worker w, one per
	// WorkerColumns entry, to dst and returns the result.
	WorkerValues(w int, dst []float64) []float64
}

// WorkerOnly is an optional interface of an Evaluator or a Variational
// whose conditional distributions P(y | z) depend on the worker alone:
// Conditional writes the same values for every object j (Dawid-Skene,
// one-coin, two-coin, MACE; not GLAD or minimax entropy, whose
// conditionals depend on the object too). A caller that needs P(y | z) for
// every label, such as model.Result.WorkerSkills, can then read each
// worker's once. WorkerOnly itself does nothing.
type WorkerOnly interface {
	WorkerOnly()
}

// ProbEvaluator is an optional interface of an Evaluator that works in
// probability space as well: it writes P(y | z) itself rather than its
// logarithm, which lets an assumption that also works in probability space
// (latent.ProbEvaluator) avoid most logarithms and exponentials per label.
// Package model uses it when both sides implement it and falls back to
// LogProb, latent.Evaluator.Task and Backprop otherwise, or for an object
// whose probabilities underflow. Both paths must agree to rounding.
//
// Its methods take a range of objects [lo, hi) at once, whose labels are
// the contiguous range [Offsets[lo], Offsets[hi]) of the data set, so that
// a model whose probabilities depend on the label only (as DS's) can run
// one flat loop over them. Label i of the range, the i-th label counting
// from Offsets[lo], has its K values at [i·K, (i+1)·K) of p and g.
type ProbEvaluator interface {
	Evaluator

	// Prob writes p[i·K + z] = P(y_i | z) = exp(l_i(z)) for every label i
	// of the objects [lo, hi) and each class z.
	Prob(lo, hi int, p []float64)

	// BackpropProb does the same as Backprop for every object in
	// [lo, hi), given also the probabilities p that Prob wrote for them,
	// which it may read instead of recomputing them.
	BackpropProb(lo, hi int, p, g []float64, gw, gobj []float64)
}

// SharedBackpropper is an optional interface of a ProbEvaluator that can
// accumulate weights shared by all the labels of an object, as an
// assumption that implements latent.SharedProbEvaluator writes them:
// one weight vector per object instead of one per label.
type SharedBackpropper interface {
	ProbEvaluator

	// BackpropShared does the same as BackpropProb for the objects
	// [lo, hi) when every label of object j has the weights
	// g[(j-lo)·K, (j-lo+1)·K): g holds K values per object of the range,
	// not per label. Its result must be bit for bit BackpropProb's with
	// those weights copied to every label.
	BackpropShared(lo, hi int, p, g []float64, gw, gobj []float64)
}

// Tabled is an optional interface of a ProbEvaluator whose probabilities
// are a table per worker, as DS's confusion matrices are: for a label y of
// worker w,
//
//	P(y | z) = Table()[w·K² + y·K + z],
//
// and BackpropProb adds the label's weight g(z) to gw[w·K² + y·K + z], the
// same place (as does BackpropShared, if it has one). An assumption that
// can read the table (latent.TableEvaluator) then does the work of Prob, of
// its own TaskProb and of BackpropProb in one loop over each object's
// labels, without writing the probabilities and the weights out and reading
// them back.
type Tabled interface {
	ProbEvaluator

	// Table returns the table at the parameters of the last SetParams.
	// The caller must not change it.
	Table() []float64
}

// MStepper is an optional interface of an Evaluator whose noise model has
// a closed-form M-step, for the EM algorithm of package model.
//
// Given weights g_i(z) ≥ 0 for every label (the E-step's responsibilities,
// the same weights the assumption hands to Backprop), the M-step sets the
// noise parameters to a maximiser of Σ_i Σ_z g_i(z) l_i(z). The weights
// reach it only through Backprop: MStep receives gw and gobj as Backprop
// left them after being called, and its results summed, for every object,
// with FinishGrad not called.
type MStepper interface {
	Evaluator

	// MStep writes the M-step's parameters into the worker block w and
	// the object block o, given the accumulations gw and gobj described
	// above. It may overwrite gw and gobj.
	MStep(gw, gobj []float64, w, o []float64)
}

// Info is what a noise model declares about itself for the registry of
// package model, which lists its LA, DA and hierarchical DA forms (and the
// variational forms of a Conjugate model) under the names "la-", "da-",
// "hda-" (and "vb-la-", "vb-da-", "vb-hda-") followed by its Name.
type Info struct {
	// Summary describes the model in a few words, such as "Dawid-Skene
	// (confusion matrix per worker)"; the registry adds the assumption.
	Summary string

	// LearnPrior is the class prior of the LA form: true learns it (as
	// Dawid and Skene's original does), false keeps it uniform (as the
	// papers of GLAD and minimax entropy do).
	LearnPrior bool

	// MinK and MaxK bound the numbers of classes the model supports;
	// zero means 2 and data.MaxClasses. A fit or a simulation with a
	// number of classes outside them fails with an error (CheckClasses).
	MinK, MaxK int

	// Solver names the default solver of the maximum-likelihood fits as
	// the command line's --solver spells it: "em" for a model whose
	// evaluator has a closed-form M-step (MStepper), "lbfgs" otherwise.
	Solver string

	// ConjugatePrior describes the prior of the variational forms of a
	// Conjugate model, such as "Dirichlet priors on the confusion rows";
	// empty for a model that is not conjugate.
	ConjugatePrior string

	// ConfusionRows is true for a model whose worker is a full confusion
	// matrix, one row P(y | z) per true class (Dawid-Skene's): the worker
	// of EBCC's subtypes. The default variational fit of such a model
	// challenges its answer with EBCC's (package model/vb); with fewer
	// numbers a worker (one-coin, GLAD), pairs of workers agree beyond
	// independence on most crowds and the challenge would fire on noise.
	ConfusionRows bool
}

// Describer is a noise model that declares its Info. The registry of
// package model lists every Describer it knows.
type Describer interface {
	Model
	// Info returns the model's declaration.
	Info() Info
}

// CheckClasses returns an error if m declares (Describer) that it does not
// support k classes, and nil otherwise.
func CheckClasses(m Model, k int) error {
	d, ok := m.(Describer)
	if !ok {
		return nil
	}
	info := d.Info()
	lo, hi := max(info.MinK, 2), info.MaxK
	if hi == 0 {
		hi = data.MaxClasses
	}
	if k < lo || k > hi {
		return fmt.Errorf("noise model %s supports %d to %d classes, not %d", m.Name(), lo, hi, k)
	}
	return nil
}

// TaskReporter is an optional interface of a Model whose per-object
// parameters have a meaning of their own, such as GLAD's difficulties: the
// per-object counterpart of the evaluators' WorkerColumns and WorkerValues.
type TaskReporter interface {
	Model

	// TaskColumns names the values TaskValues reports for every object.
	TaskColumns() []string

	// TaskValues appends the values of object j, one per TaskColumns
	// entry, to dst and returns the result, given the object block o of
	// TaskDim(k) parameters per object for k classes.
	TaskValues(o []float64, k, j int, dst []float64) []float64
}

// WorkerSetter is an optional interface of a Model whose worker parameters
// can be set from the interpretable values its evaluators report
// (Evaluator.WorkerValues), so that a fit can start from known workers,
// such as those of an earlier fit's workers file.
type WorkerSetter interface {
	Model

	// SetWorker writes into w, one worker's block of WorkerDim(K)
	// parameters for the K classes of d, the parameters at which
	// WorkerValues reports vals (one value per WorkerColumns entry). It
	// returns an error if vals has another length, and one naming the
	// column and the problem if vals are not values WorkerValues can
	// report, such as a probability below zero.
	SetWorker(d *data.Dataset, vals, w []float64) error
}

// labelCount reports whether n can be a (weighted) number of labels: from 0
// to 2⁵³, beyond which counts are no longer exact in float64 and
// pseudo-counts built from them overflow the bound's sums.
func labelCount(n float64) bool { return n >= 0 && n <= 1<<53 }

// ErrArgument is wrapped by the error of a WorkerSetter's SetWorker given
// arguments no caller should pass, rather than bad worker values: a nil
// data set, or a block w that is not WorkerDim(K) parameters long. Callers
// test it with errors.Is.
var ErrArgument = errors.New("noise: invalid argument")

// setWorkerArgs returns an error wrapping ErrArgument unless d is not nil
// and w is one worker's block of m's parameters for the classes of d, and
// otherwise valueCount's error unless vals holds want(k) values for the k
// classes of d.
func setWorkerArgs(m Model, d *data.Dataset, vals, w []float64, want func(k int) int) error {
	if d == nil {
		return fmt.Errorf("%w: %s.SetWorker without a data set", ErrArgument, m.Name())
	}
	k := d.NumClasses()
	if dim := m.WorkerDim(k); len(w) != dim {
		return fmt.Errorf("%w: %s.SetWorker into %d parameters, want %d", ErrArgument, m.Name(), len(w), dim)
	}
	return valueCount(vals, want(k))
}

// valueCount returns an error unless vals holds want values.
func valueCount(vals []float64, want int) error {
	if len(vals) != want {
		return fmt.Errorf("%d worker values, want %d", len(vals), want)
	}
	return nil
}

// probability returns an error unless v is a probability, naming column
// col in the message.
func probability(col string, v float64) error {
	if !(v >= 0 && v <= 1) {
		return fmt.Errorf("%s = %v is not a probability", col, v)
	}
	return nil
}

// finiteValues returns an error naming the first column of cols whose
// value in vals is not finite.
func finiteValues(cols []string, vals []float64) error {
	for i, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s = %v is not a finite number", cols[i], v)
		}
	}
	return nil
}

// logit returns log(a/(1-a)) with a kept within [1e-12, 1-1e-12], so
// that a worker who is always right or always wrong gets a finite
// parameter.
func logit(a float64) float64 {
	a = min(max(a, 1e-12), 1-1e-12)
	return math.Log(a / (1 - a))
}
