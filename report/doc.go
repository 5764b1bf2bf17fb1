// Package report writes a self-contained HTML report on a crowdsourced data
// set and the consensus models fitted to it.
//
// New fits the models to compare (by default those of compare.DefaultModels:
// the baseline, the Bayesian, hierarchical and maximum-likelihood forms of
// Dawid-Skene, GLAD, the one-coin, MACE-style and minimax entropy models
// and Crowd-Kit's methods) and WriteHTML writes one HTML page that works
// offline: its styles are inline and its pictures are SVG drawn with
// gonum/plot and inlined as data URIs, so nothing is fetched from the
// network. The page reads on a desktop and on a phone (wide tables scroll
// sideways). It has
//
//   - the recommended model: compare.Auto's choice among
//     compare.AutoModels by the held-out label likelihood, the model that
//     "consensus fit --model auto" fits and "consensus compare" recommends,
//     with or without gold (Settings.NoRecommendation leaves it out);
//   - a summary of the data: the numbers of tasks, workers, labels and
//     classes, the share of each class and histograms of the labels per
//     task and per worker;
//   - the model comparison: accuracy, log loss, Brier score and calibration
//     error on gold tasks with 95% bootstrap intervals, and each fit's
//     log-likelihood, iterations and time (or a comparison computed
//     elsewhere, given as Settings.Scores), in the order of package
//     compare's ranking (by the log loss on the gold tasks or, without
//     gold, of held-out labels, with the share of bootstrap resamples in
//     which each model ranks first), the recommended model highlighted;
//   - agreement statistics: Krippendorff's alpha, the entropy of every
//     task's label frequencies and every worker's agreement with the
//     consensus of the recommended model (package metrics);
//   - with gold labels, one reliability diagram per model: the gold tasks
//     cut into equal-count bins by the confidence of their top class, each
//     bin's accuracy with its number of tasks and its 95% Wilson interval;
//   - the distribution of worker quality under the LA and DA forms of one
//     noise model: every worker's skill (model.Result.WorkerSkills), the
//     fitted probability of reporting the consensus class;
//   - the most ambiguous tasks, those whose DA label distribution q_j has the
//     highest entropy, with their labels;
//   - the tasks where the LA posterior and the DA distribution of one noise
//     model disagree most, and a scatter plot of one against the other.
//
// A worked example, for a data set shipped with the module:
//
//	d, gold, err := datasets.Load("duchenne")
//	if err != nil {
//		log.Fatal(err)
//	}
//	rep, err := report.New(context.Background(), d, gold, &report.Settings{Seed: 1})
//	if err != nil {
//		log.Fatal(err)
//	}
//	err = output.WriteFile("report.html", rep.WriteHTML)
//
// The command "consensus report" does the same from the command line.
package report
