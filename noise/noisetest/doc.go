// Package noisetest implements the conformance tests every noise model of
// package noise must pass, in the spirit of testing/fstest: a new noise
// model calls Check from one test (package model's conformance test does
// so for every noise model of its registry) and gets all of them.
//
// Check works on small data sets of uniformly random labels (Data) for
// the numbers of classes of Classes that the model supports, at random
// parameters (Params), and tests, for the model's evaluator:
//
//   - a noise.Describer's Info: a summary, the solver "em" exactly for an
//     evaluator that is a noise.MStepper, a conjugate prior exactly for a
//     noise.Conjugate model, class bounds that CheckClasses enforces;
//   - the initialisation gives finite parameters;
//   - Conditional is a distribution over y for every z, and LogProb is the
//     logarithm of its entry at the observed label;
//   - WorkerValues gives one finite number per WorkerColumns entry;
//   - Backprop followed by FinishGrad is the gradient of Σ_i Σ_z g_i(z)
//     l_i(z) for fixed weights g (minus the penalty of a noise.Penalizer),
//     against central finite differences (gonum diff/fd);
//   - a noise.ProbEvaluator's Prob is the exponential of LogProb and its
//     BackpropProb equals Backprop;
//   - a noise.MStepper's MStep does not decrease Σ_i Σ_z g_i(z) l_i(z),
//     ends where its gradient vanishes, and reaches at least its value at
//     random parameters;
//   - a noise.WorkerOnly evaluator's Conditional is the same, bit for bit,
//     on every object a worker labelled (and a WorkerOnly variational
//     posterior's Prob on every label of a worker with one value);
//   - a noise.SharedBackpropper's BackpropShared is bit for bit
//     BackpropProb with each object's weights copied to its labels;
//   - a noise.Tabled evaluator's Table holds the P(y | z) Prob writes;
//   - a noise.Threaded evaluator (and its variational posterior) gives
//     the same numbers, bit for bit, on one goroutine and on several, on
//     enough workers for its per-worker work to be split;
//   - a noise.TaskReporter reports one finite value per TaskColumns entry
//     for every object;
//   - a noise.WorkerSetter's SetWorker, given a worker's WorkerValues,
//     writes parameters at which WorkerValues reports them again, and
//     refuses values of another length;
//   - a noise.Conjugate model's variational posterior keeps the contract
//     of noise.Variational (CheckVariational);
//   - a noise.MAPVariational model's point posterior: Conditional is a
//     distribution, Prob is Conditional at the label, Update's cost is
//     finite and Load(Params()) restores Prob;
//   - a noise.WorkerPosteriorSetter's SetWorkerPosterior, given the values
//     a posterior reports for a worker, writes parameters at which it
//     reports them again, and refuses values of another length;
//   - a noise.Holder posterior keeps the parameters it holds through
//     Update and Load, and moves the others.
//
// A noise model's test is one line:
//
//	func TestConformance(t *testing.T) { noisetest.Check(t, noise.DS{}) }
//
// The tests that need the composition with an assumption (gradients of
// the whole likelihood, the probability path of the objective, identical
// results for any number of goroutines, recovery of simulated data) live
// in package model, which runs them for every registered model.
package noisetest
