package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/model"
)

func init() { extraCommands = append(extraCommands, newCompareCmd) }

func newCompareCmd() *cobra.Command {
	var in inputFlags
	var ff fitFlags
	var mo modelOptions
	var models, criterion, outFormat string
	var parallel, splits, boot int
	var frac float64
	var noRec bool
	c := &cobra.Command{
		Use:   "compare [LABELS]",
		Short: "Fit every model and rank them, to choose one for the data",
		Long: `compare fits every model (or those of --models) to the labels, in parallel,
and prints a ranked table with a recommendation.

With gold labels (--gold, or a --dataset that ships them) the models are
ranked by the log loss of their consensus on the gold tasks (--criterion
accuracy, brier or ece for another metric), with percentile bootstrap
confidence intervals over the gold tasks; rfe is scored with add-one
smoothing.

Without gold (or with --criterion heldout) they are ranked by the log
loss of held-out labels: each of --splits splits holds out --holdout of
every object's labels (objects with one label keep it), fits the models to
the rest and predicts each held-out label y of worker w on object j as
sum_z out_j(z) P(y | z; w, j); a worker with no training labels is replaced
by the average of the object's training workers; rfe predicts with add-one
smoothed frequencies.

"first" is the fraction of bootstrap resamples (of gold tasks, or of
objects with their held-out labels) in which the model ranks first: how
sure the ranking is.

The recommended model is the one fit --model auto fits and report
recommends, whatever the ranking: among ` + strings.Join(compare.AutoModels, ", ") + `, the one with the
lowest held-out label loss (the held-out criterion above, on --splits of
the labels; see docs/choosing-a-model.md). It is added to the compared
models if they do not include it, and marked in the note column;
--no-recommendation leaves it out.`,
		Example: `  consensus compare --dataset duchenne
  consensus compare --input labels.csv --models la-ds,da-ds,hda-ds --splits 5
  consensus compare --input labels.csv --gold gold.csv --criterion accuracy
  consensus compare --dataset temp --output-format json > compare.json`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(compare.Formats, outFormat) {
				return usagef("--output-format %q: want one of %s", outFormat, strings.Join(compare.Formats, ", "))
			}
			crit, err := compare.ParseCriterion(criterion)
			if err != nil {
				return usageErr(err)
			}
			set, err := ff.settings()
			if err != nil {
				return err
			}
			if parallel < 0 || splits < 0 || boot < 0 || !(frac > 0 && frac < 1) {
				return usagef("--parallel, --splits and --bootstrap must not be negative and --holdout must be in (0, 1)")
			}
			if err := checkResamples("bootstrap", boot); err != nil {
				return err
			}
			names := compare.DefaultModels
			if models == "all" {
				names = compare.AllModels()
			} else if models != "" {
				names = splitList(models)
			}
			ests, err := mo.applySome(names)
			if err != nil {
				return err
			}
			// A fit flag applies to the models that read it, and is
			// refused if none does.
			if err := checkUsed(cmd, set, ests, false); err != nil {
				return err
			}
			ests = model.WithMaxIterations(ests, ff.maxIter) // kos, zbs, mmsr: default 0 keeps theirs
			d, gold, err := in.load(cmd.Context())
			if err != nil {
				return err
			}
			opt := compare.Settings{
				Estimators: ests, Gold: gold, Criterion: crit, Fit: set, Threads: parallel,
				HoldOutFraction: frac, Splits: splits, Bootstrap: boot, Seed: ff.seed,
				MaxMemory: float64(in.maxMemory.bytes()),
			}
			if !ff.quiet {
				opt.Progress = func(p model.Progress) {
					status := "done"
					if p.Err != nil {
						status = "failed: " + oneLine(p.Err)
					}
					fmt.Fprintf(os.Stderr, "%s[%d/%d] %s %s in %v\n", runPrefix(p.Run), p.Done, p.Total, p.Item, status, p.Elapsed.Round(1e6))
				}
			}
			if !noRec {
				if opt.Recommend, err = mo.recommendation(set, ff.seed, parallel); err != nil {
					return err
				}
				opt.Recommend.Progress = opt.Progress
			}
			rep, err := compare.Run(cmd.Context(), d, opt)
			if err != nil {
				if _, ok := err.(interface{ Unwrap() error }); !ok && cmd.Context().Err() == nil {
					return usageErr(err)
				}
				return err
			}
			if err := compare.Write(cmd.OutOrStdout(), rep, outFormat); err != nil {
				return err
			}
			// A comparison of nothing does not exit 0; the table
			// printed before gives every model's reason.
			return rep.NoneFitted()
		},
	}
	in.register(c)
	ff.register(c)
	fl := c.Flags()
	fl.StringVar(&models, "models", "", "comma-separated models to compare, or \"all\" (default: "+strings.Join(compare.DefaultModels, ",")+")")
	fl.StringVar(&criterion, "criterion", "", "ranking: logloss (default with gold), accuracy, brier, ece, heldout (default without gold)")
	fl.StringVar(&outFormat, "output-format", "table", "output: table (compact, fits 100 columns), csv, json or markdown (csv, json and markdown carry every number and interval; --format is the input's format)")
	c.RegisterFlagCompletionFunc("output-format", cobra.FixedCompletions(compare.Formats, cobra.ShellCompDirectiveNoFileComp))
	fl.IntVar(&parallel, "parallel", 0, "fits run at once, each on one goroutine (default: all cores)")
	fl.IntVar(&splits, "splits", 3, "held-out splits")
	fl.Float64Var(&frac, "holdout", 0.2, "fraction of each object's labels held out in a split")
	fl.BoolVar(&noRec, "no-recommendation", false, "leave out the recommendation (the choice of fit --model auto) and its fits")
	fl.IntVar(&boot, "bootstrap", 200, "bootstrap resamples for the intervals and the ranking confidence")
	fl.Float64Var(&mo.gladPrior, "glad-prior", 0, gladPriorHelp+"; applies to the GLAD models among --models")
	fl.Float64Var(&mo.qPrior, "q-prior", 0, qPriorHelp+"; applies to the vb-da-* models among --models")
	fl.BoolVar(&mo.staged, "staged", false, stagedHelp+"; applies to the vb-da-* models among --models")
	return c
}

// runPrefix is the prefix of a progress line of compare: "recommendation "
// for the fits of the recommendation (compare.Auto's), none for the
// comparison's.
func runPrefix(run string) string {
	if run == "auto" {
		return "recommendation "
	}
	return ""
}
