// Package metrics scores consensus label distributions against known true
// classes (gold labels) or, on synthetic data, against the true latent
// distributions.
//
// Every prediction is a flat row-major J×k []float64: row j, the entries
// j·k to j·k+k-1, is the distribution over the k classes of task j. Gold
// labels are a *data.Gold, whose Task and Label slices give the task index
// and the true class index of each gold task. Below, T is the set of gold
// tasks and t_j the true class of task j.
//
// # Scores on gold tasks
//
// The paper (Fedorova, Gusev and Serdyukov, "Latent Distribution Assumption
// for Unbiased and Consistent Consensus Modelling", section 6) uses two:
//
//   - Accuracy, (1/|T|) Σ_j 1[argmax_c pred_jc = t_j]. Ties in the argmax
//     are broken uniformly at random with a seeded generator, as model.Argmax
//     does; MeanAccuracy averages over several draws, as the paper does for
//     the relative frequency estimator (RFE), and ExpectedAccuracy is the
//     limit of many draws.
//   - LogLoss, -(1/|T|) Σ_j log_k pred_{j,t_j}, in base k so that uniform
//     probabilities score 1. A zero probability for a true class gives +Inf;
//     the paper smooths RFE with add-one smoothing (AddOne) for this metric
//     only.
//
// Two more describe the quality of the probabilities themselves: Brier, the
// mean squared distance to the one-hot true class, and ECE, the expected
// calibration error of the top-class confidence. ReliabilityFromGold gives
// the bins behind ECE, or behind a reliability diagram of one class.
// Evaluate computes all four into a Summary, and Bootstrap gives a
// percentile confidence interval for any of them by resampling gold tasks.
//
// # Scores against true distributions
//
// On synthetic data the latent distribution q_j of every task is known. MSE
// is the paper's mean squared error (1/N) Σ_j (q̂_j - q_j)² for binary labels,
// extended to k classes as half the squared Euclidean distance per task, and
// Calibration gives the points of the paper's calibration plots (true
// probability on the horizontal axis, estimate on the vertical one).
//
// # Worked example
//
// Two binary tasks, both of true class 0, predicted as (0.8, 0.2) and
// (0.4, 0.6):
//
//   - Accuracy = 1/2: the first argmax is 0 (right), the second 1 (wrong).
//   - LogLoss = -(log₂ 0.8 + log₂ 0.4)/2 = (0.3219 + 1.3219)/2 = 0.8219.
//   - Brier = ((0.2² + 0.2²) + (0.6² + 0.6²))/2 = (0.08 + 0.72)/2 = 0.4.
//   - ECE with 10 bins: the confidences 0.8 (right) and 0.6 (wrong) fall in
//     different bins, so ECE = ½|1 - 0.8| + ½|0 - 0.6| = 0.1 + 0.3 = 0.4.
//
// # Errors
//
// The scores check their arguments and return an error for invalid ones
// (k < 1, a length that is not a multiple of k, gold tasks or classes out
// of range, NaN probabilities, fewer than one bin), wrapping ErrShape,
// ErrProbability or ErrArgument; they never panic on them. Means over an
// empty gold set are NaN, without an error. AddOne, whose counts and k come
// together from a data set, panics on a mismatch, as gonum's constructors
// do.
package metrics
