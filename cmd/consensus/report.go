package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/internal/progress"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
	"github.com/consensuslab/consensus/report"
)

func init() { extraCommands = append(extraCommands, newReportCmd) }

func newReportCmd() *cobra.Command {
	var in inputFlags
	var ff fitFlags
	var out, models, noiseName, title string
	var top, reps int
	var noRec bool
	c := &cobra.Command{
		Use:   "report [LABELS]",
		Short: "Write a self-contained HTML report on a data set and the models fitted to it",
		Long: `report fits several consensus models to a data set (by default those that
"consensus compare" ranks) and writes one HTML file that works offline (styles
and SVG pictures inlined): a summary of the data with histograms of labels
per task and per worker; the recommended model, the one fit --model auto
fits and compare recommends, with or without gold (fitted beside --models if
they lack it); a model comparison table (with gold labels: accuracy, log
loss, Brier score and ECE with bootstrap intervals) in the order in which
compare ranks the models (by gold log loss, or without gold by held-out
labels, which fits every model on held-out splits; --no-recommendation skips
the recommendation and the ranking); agreement statistics (Krippendorff's
alpha, the entropy of every task's labels, every worker's agreement with the
consensus); one reliability diagram per model (equal-count bins with their
counts and 95% Wilson bands); the distribution of worker quality; the most
ambiguous tasks (highest entropy of the DA distribution q_j) and the tasks
where the LA and DA forms of one noise model disagree most.`,
		Example: `  consensus report --dataset duchenne --output report.html
  consensus report --input labels.csv --gold gold.csv --output report.html
  consensus report --input labels.parquet --models rfe,la-ds,da-ds,la-mme,da-mme --noise mme -o report.html`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			set, err := ff.settings()
			if err != nil {
				return err
			}
			if err := checkResamples("bootstrap", reps); err != nil {
				return err
			}
			opt := &report.Settings{Title: title, Noise: noiseName, Fit: set, Seed: ff.seed, Top: top,
				BootstrapReps: reps, NoRecommendation: noRec, MaxMemory: float64(in.maxMemory.bytes())}
			opt.Models = splitList(models)
			if noiseName != "" {
				if _, err := model.NoiseByName(noiseName); err != nil {
					return usagef("--noise: %v", err)
				}
			}
			if top < 0 {
				return usagef("--top must not be negative")
			}
			if err := checkOutputs([]string{"input", "gold"}, []string{in.input, in.gold}, []string{"output"}, []string{out}); err != nil {
				return err
			}
			d, gold, err := in.load(cmd.Context())
			if err != nil {
				return err
			}
			var bar *progress.Reporter
			if !ff.quiet {
				bar = progress.New("report")
				opt.Step = bar.Step
				opt.Progress = bar.Update
			}
			rep, err := report.New(cmd.Context(), d, gold, opt)
			bar.Finish()
			if err != nil {
				if errors.Is(err, model.ErrUnknownModel) {
					return usageErr(err)
				}
				return err
			}
			if err := output.WriteFiles(cmd.Context(), output.File{Path: out, Write: rep.WriteHTML}); err != nil {
				return err
			}
			if !ff.quiet && out != "-" {
				fmt.Fprintf(os.Stderr, "wrote %s\n", out)
			}
			return nil
		},
	}
	in.register(c)
	ff.register(c)
	fl := c.Flags()
	fl.StringVarP(&out, "output", "o", "report.html", `HTML file to write; "-" is standard output`)
	fl.StringVar(&models, "models", "", "comma-separated models to compare (default "+strings.Join(report.DefaultModels, ",")+")")
	fl.StringVar(&noiseName, "noise", "ds", "noise model whose LA and DA forms are contrasted: "+noiseNames())
	fl.StringVar(&title, "title", "", `title of the report (default "Consensus report: NAME")`)
	fl.IntVar(&top, "top", 15, "rows in the tables of ambiguous tasks and of LA/DA disagreements")
	fl.IntVar(&reps, "bootstrap", 200, "bootstrap replicates for the 95% intervals (negative: none)")
	fl.BoolVar(&noRec, "no-recommendation", false, "leave out the ranking and recommendation (without gold it refits every model on held-out splits)")
	return c
}

// noiseNames lists the registry's noise models for help texts.
func noiseNames() string {
	var names []string
	for _, n := range model.NoiseModels() {
		names = append(names, n.Name())
	}
	return strings.Join(names, ", ")
}
