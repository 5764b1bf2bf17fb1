package latent

import "github.com/consensuslab/consensus/data"

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
	// task block t. freq is the J×K matrix of relative label frequencies
	// of d.
	Init(d *data.Dataset, freq []float64, g, t []float64)

	// NewEvaluator returns an evaluator of the assumption on d.
	NewEvaluator(d *data.Dataset) Evaluator
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
