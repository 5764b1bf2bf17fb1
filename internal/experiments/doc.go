// Package experiments reruns the experiments of Fedorova, Gusev and
// Serdyukov, "Latent Distribution Assumption for Unbiased and Consistent
// Consensus Modelling" (2019), and writes their tables and figures beside
// the paper's numbers. The command "consensus reproduce" calls Run.
//
// # Parts
//
// Each part is a function returning a result that renders itself as
// markdown, CSV and figures (gonum/plot, PNG and SVG):
//
//   - Real: the seven models (RFE and LA/DA forms of Dawid-Skene, GLAD and
//     minimax entropy) on the six shipped data sets, accuracy and log loss
//     beside the paper's tables 2 and 3, the LA/DA win counts and the RFE
//     smoothing check.
//   - Synthetic: the paper's table 4, the MSE between estimated and true
//     q_j on simulated DA-GLAD data, under several fitting protocols, with
//     sweeps over the iteration limit (both solvers) and the ridge weight,
//     and the calibration figure.
//   - Overlap: the figure on labels per object: accuracy and log loss of
//     LA-GLAD and DA-GLAD on Duchenne smiles subsampled to at most n labels
//     per object.
//   - Theory: the appendix figure, the exact expectation of the LA estimate
//     under the DA process (package theory).
//   - Stats: the appendix table of data set statistics.
//
// The paper's numbers are constants copied verbatim from its tables (see
// paper.go).
//
// # Determinism
//
// Every random choice is seeded from Settings.Seed, a fit's result does not
// depend on its number of threads, and results are stored by index, so the
// files depend on the seed and the options only, not on the number of
// parallel fits, the machine or the time: no time stamps or run times are written (they go to
// the progress and log callbacks only). gonum/plot renders PNG and SVG
// deterministically with its embedded fonts (checked by the tests).
//
// # Protocols
//
// The fits of the real-data part use the models' default settings
// (L-BFGS, no penalty) with iteration limits per noise model. The synthetic
// and labels-per-object parts also report a ridge protocol (Settings.Ridge
// = 1, fitted to convergence), because the unpenalised DA-GLAD maximum
// likelihood overfits along the trade-off between q_j and the difficulty
// d_j (its MSE rises with the iterations) and unpenalised LA-GLAD gives
// probabilities of exactly 0. docs/reproduction.md discusses both.
package experiments
