// Package pairwise aggregates crowdsourced pairwise comparisons ("which of
// these two is better?") into a score per item: the Bradley-Terry model and
// the noisy Bradley-Terry model of Crowd-Kit, fitted to the optimum on
// sparse data.
//
// A comparison shows a worker two items, left and right, and records the one
// the worker chose. Both models give every item i a score θ_i on the logit
// scale: under Bradley and Terry (1952) item a beats item b with probability
//
//	P(a ≻ b) = σ(θ_a − θ_b) = exp θ_a / (exp θ_a + exp θ_b),
//
// and the noisy model (NoisyBT, Crowd-Kit's NoisyBradleyTerry) lets each
// worker w compare by quality only with probability γ_w (the skill) and
// otherwise pick the left item with probability β_w (the bias):
//
//	P(left ≻ right | w) = γ_w σ(θ_left − θ_right) + (1 − γ_w) β_w.
//
// Both fits maximise the log-likelihood plus a log prior that keeps every
// parameter finite: by default each score has the standard logistic prior
// log σ(θ) + log σ(−θ), which is the likelihood of one win and one loss
// against a reference item of score 0 (a "virtual comparison"), and the
// noisy model's skills and biases have uniform priors. Without a prior
// (BradleyTerry.NoPrior) the Bradley-Terry fit is the maximum likelihood of
// Hunter (2004), which exists only when the items cannot be split into two
// groups one of which never beats the other; Fit checks that and says which
// item breaks it.
//
// Comparisons are read with ReadComparisons or LoadComparisons from a table
// with the columns left, right, label and, for the noisy model, worker
// (Crowd-Kit's columns), in any format package data reads, with its rules
// and one-line errors naming the file and line. Simulate draws comparisons
// from the noisy model with known parameters, for tests and benchmarks.
//
// References:
//
//   - R. A. Bradley and M. E. Terry, Rank analysis of incomplete block
//     designs I: the method of paired comparisons, Biometrika 39 (1952).
//   - D. R. Hunter, MM algorithms for generalized Bradley-Terry models,
//     Annals of Statistics 32 (2004) 384-406.
//   - Crowd-Kit's crowdkit.aggregation.pairwise (BradleyTerry,
//     NoisyBradleyTerry), whose column names and outputs this package
//     follows; docs/pairwise.md compares the two.
package pairwise
