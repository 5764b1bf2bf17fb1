// Package report writes a self-contained HTML report on a crowdsourced data
// set and the consensus models fitted to it.
//
// New fits the models to compare (by default rfe, mv and the LA and DA forms
// of Dawid-Skene and GLAD) and WriteHTML writes one HTML page that works
// offline: its styles are inline and its pictures are SVG drawn with
// gonum/plot and inlined as data URIs, so nothing is fetched from the
// network. The page has
//
//   - a summary of the data: the numbers of tasks, workers, labels and
//     classes, the share of each class and histograms of the labels per
//     task and per worker;
//   - the model comparison: accuracy, log loss, Brier score and calibration
//     error on gold tasks with 95% bootstrap intervals, and each fit's
//     log-likelihood, iterations and time (or a comparison computed
//     elsewhere, given as Options.Scores);
//   - with gold labels, a reliability diagram of every model;
//   - the distribution of worker quality: the mean diagonal of the
//     Dawid-Skene confusion matrices and the GLAD abilities;
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
//	rep, err := report.New(d, gold, &report.Options{Seed: 1})
//	if err != nil {
//		log.Fatal(err)
//	}
//	err = output.WriteFile("report.html", rep.WriteHTML)
//
// The command "consensus report" does the same from the command line.
package report
