package noise

import "github.com/consensuslab/consensus/data"

// Conjugate is an optional interface of a noise Model whose parameters are
// categorical distributions with Dirichlet (or Beta) priors, so that its
// posterior given weighted labels is again of that form: mean-field
// variational Bayes (package model's Bayes) then updates it in closed form,
// at the cost of one EM step.
//
// For weights g_i(z) ≥ 0 on the labels (the responsibilities of the latent
// classes), the variational posterior of the parameters is the prior's
// pseudo-counts plus the weighted label counts, and the E-step sees every
// label through the expected logarithm E[log P(y_i | z)] under that
// posterior (Kim and Ghahramani 2012, "Bayesian classifier combination";
// see docs/models.md).
type Conjugate interface {
	Model

	// NewVariational returns the variational posterior of the model's
	// parameters on d, not yet started (call Start).
	NewVariational(d *data.Dataset) Variational
}

// Variational is the variational posterior of a conjugate noise model's
// parameters. Start or Update must be called before the other methods and
// not concurrently with them; Prob and Accumulate may run
// concurrently for different objects, each with its own acc.
type Variational interface {
	// AccDim returns the number of expected counts Accumulate fills.
	AccDim() int

	// Start sets the posterior to the prior plus the counts of the
	// paper's initialisation, in which label i counts with the weights
	// freq_j(i) (each object's relative label frequencies, or other
	// weights of the classes per object in their place).
	Start(freq data.TaskWeights)

	// Prob writes p[i·K + z] = exp E[log P(y_i | z)] for every label of
	// the objects [lo, hi), laid out as ProbEvaluator.Prob's. The values
	// of a row need not sum to 1.
	Prob(lo, hi int, p []float64)

	// Accumulate adds the weights g[i·K + z] of the labels of the objects
	// [lo, hi) (laid out as for Prob) to the expected counts acc.
	Accumulate(lo, hi int, g, acc []float64)

	// Update sets the posterior to the prior plus the expected counts acc
	// and returns KL(posterior ‖ prior), the parameters' part of the
	// evidence lower bound.
	Update(acc []float64) float64

	// Load sets the posterior to the pseudo-counts params, as Params
	// wrote them (for the same workers and classes), and returns
	// KL(posterior ‖ prior) as Update does. Pseudo-counts below the
	// prior's are raised to it.
	Load(params []float64) float64

	// Params appends the posterior's parameters (its pseudo-counts) to dst
	// and returns the result.
	Params(dst []float64) []float64

	// Conditional writes the posterior mean of P(y | z) for worker w
	// labelling object j into p.
	Conditional(w int32, j int, z int, p []float64)

	// WorkerColumns and WorkerValues report the posterior means of the
	// parameters of each worker, as Evaluator's do.
	WorkerColumns() []string
	WorkerValues(w int, dst []float64) []float64
}

// WorkerPosteriorSetter is an optional interface of a Conjugate or
// MAPVariational noise model whose variational posterior can be set worker
// by worker from the values its WorkerValues reports: a variational fit can
// then start from the workers of an earlier fit (package model's Bayes with
// Settings.Start). DS and OneCoin implement it, their posteriors'
// WorkerValues reporting, beside the posterior means, the number of labels
// each row of the posterior weighs, so that the pseudo-counts follow from
// the values; and GLAD, whose point posterior's worker parameter is the
// ability itself.
type WorkerPosteriorSetter interface {
	Model

	// WorkerPosteriorDim returns the number of pseudo-counts of one worker
	// for K classes: worker w's are [w·dim, (w+1)·dim) of the vector
	// Variational.Params writes.
	WorkerPosteriorDim(k int) int

	// SetWorkerPosterior writes into params, one worker's pseudo-counts,
	// those of the posterior whose WorkerValues on d are vals. It returns
	// an error if vals has another length than WorkerColumns, and one
	// naming the column and the problem if vals are not values
	// WorkerValues can report. Pseudo-counts that rounding puts below the
	// prior's are raised to it.
	SetWorkerPosterior(d *data.Dataset, vals, params []float64) error
}

// Holder is an optional interface of a Variational posterior that keeps
// some of its parameters as they are (package model's Bayes with
// Settings.Fixed): the posteriors of DS, OneCoin and GLAD.
type Holder interface {
	// Hold marks the parameters (laid out as Params) that Update and
	// Load keep as they are from then on; nil holds none.
	Hold(fixed []bool)
}

// StartLoader is an optional interface of a Variational posterior whose
// Load keeps every parameter at least its prior's while the prior itself
// is learned from the data (DS with SharedPrior, whose Start has already
// learned one): LoadStart sets the parameters to params as given, for a
// fit that starts from known workers (package model's Settings.Start),
// so that a worker held there (Holder) keeps the values
// WorkerPosteriorSetter wrote.
type StartLoader interface {
	LoadStart(params []float64)
}

// LoadStart loads params into v as a fit's start from known workers: by
// v's StartLoader if it is one, otherwise by Load.
func LoadStart(v Variational, params []float64) {
	if l, ok := v.(StartLoader); ok {
		l.LoadStart(params)
		return
	}
	v.Load(params)
}

// MAPVariational is an optional interface of a noise Model without a
// conjugate prior that can still take part in a variational fit (package
// model's Bayes): its parameters get point estimates, moved towards the
// mode of their posterior given the weights of the latent classes at every
// iteration (variational EM), while the latent classes and the objects'
// distributions keep their variational factors.
//
// The Variational it returns keeps that interface's contract with two
// differences: Prob writes P(y_i | z) at the point estimates (the
// expectation of the logarithm under a point mass), and Update and Load
// return the negative log prior density of the estimates (up to a
// constant) in place of the KL divergence: in both cases the parameters'
// cost in the evidence lower bound.
type MAPVariational interface {
	Model

	// NewMAP returns the model's point posterior on d, not yet started
	// (call Start).
	NewMAP(d *data.Dataset) Variational

	// MAPPrior describes the prior in a few words, as Info's
	// ConjugatePrior does for a conjugate model.
	MAPPrior() string
}

// SharedPriorer is an optional interface of a Conjugate noise model whose
// prior on the workers' parameters can be estimated from all workers by
// empirical Bayes in variational fits, so that a worker with few labels
// borrows strength from the crowd: DS (DS.SharedPrior, with DS.Averaged).
type SharedPriorer interface {
	Conjugate

	// WithSharedPrior returns the model with its prior estimated from the
	// data (for DS, also each worker averaged over kinds of confusion
	// matrix, DS.Averaged).
	WithSharedPrior() Model

	// WithFixedPrior returns the model with its fixed prior: the
	// estimation WithSharedPrior turns on, off, and every other setting
	// kept. A prior cannot be learned from workers of whom no two label
	// one task.
	WithFixedPrior() Model
}

// PatternPriorer is an optional interface of a SharedPriorer whose learned
// prior includes a pattern of confusion for each true class, as DS's rows
// β_z do. Labels identify such a pattern only on tasks of three or more
// workers: with two labels a task, the frequencies of the label pairs give
// K(K + 1)/2 − 1 equations for the crowd's K(K − 1) confusion rates and
// K − 1 class shares, so that at K = 2 three unknowns meet two equations,
// and a learned pattern can take a class prior and an asymmetric confusion
// that fit the pairs as well as the truth does.
type PatternPriorer interface {
	SharedPriorer

	// WithFixedPattern returns the model with the pattern's prior fixed
	// and the rest of what WithSharedPrior learns still learned.
	WithFixedPattern() Model
}
