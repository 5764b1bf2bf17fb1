// Package compare fits several consensus models to one data set and ranks
// them, to help choose a model for the data at hand (the paper's
// conclusion: no model is best on every data set).
//
// With gold labels the criterion is a gold metric (log loss by default;
// accuracy, Brier score or calibration error on request) of each model's
// consensus, with percentile bootstrap confidence intervals over the gold
// tasks (metrics.Bootstrap). Relative frequencies (rfe) are scored after
// add-one smoothing, as in the paper.
//
// Without gold the criterion is the log-likelihood of held-out labels. A
// split holds out, for every object with at least two labels, a fraction
// of its labels chosen at random (at least one, at most all but one;
// objects with one label keep it), seeded by (Seed, split); the model is
// fitted to the rest and predicts every held-out label y given by worker w
// to object j as
//
//	P(y) = Σ_z out_j(z) P(y | z; w, j),
//
// with out_j the fitted consensus (LA posterior, DA q_j) and P(y | z) the
// fitted noise model (model.Result.Conditional). A held-out worker who
// has no training labels has no fitted parameters: their P(y | z) is
// replaced by the mean of P(y | z; w', j) over the training labels' workers
// w' of the same object, an average member of the crowd that labelled it.
// The fits use a ridge penalty (Settings.HeldOutRidge, 1 by default) so that
// no held-out label gets probability 0. Relative frequencies predict with
// add-one smoothed frequencies
// (n_j(y) + 1)/(n_j + K). The score is the held-out log loss, the mean of
// -log_K P(y) over the held-out labels of all splits (1 for a uniform
// guess, lower is better).
//
// Confidence: every model is scored on the same bootstrap resamples (of
// the gold tasks, or of the objects with their held-out labels of every
// split), and the report gives, for every model, the fraction of the
// resamples in which it ranks first.
//
// Auto makes the recommendation, without gold: the model that `consensus
// fit --model auto` fits and that `consensus compare` (with or without
// gold, whatever the ranking's criterion; Settings.Recommend) and
// `consensus report` recommend. It fits a few candidates (AutoModels) to
// held-out splits of a subsample and scores each with a gold-free
// criterion, by default the held-out label likelihood above
// (DefaultScorer, LabelLikelihood); other criteria can be plugged in
// (Scorer: the consensus itself as a prediction of the held-out labels,
// OutputLoss and OutputChannel).
package compare
