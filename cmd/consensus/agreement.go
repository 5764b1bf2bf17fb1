package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/crowdkit"
	"github.com/consensuslab/consensus/output"
	"github.com/spf13/cobra"
)

func init() { extraCommands = append(extraCommands, newAgreementCmd) }

func newAgreementCmd() *cobra.Command {
	var in inputFlags
	var modelName, tasks, workers, outFormat string
	var seed uint64
	c := &cobra.Command{
		Use:   "agreement [LABELS]",
		Short: "Inter-annotator agreement: Krippendorff's alpha, task entropy, worker agreement",
		Long: `agreement prints the agreement statistics people report with crowd data:
Krippendorff's alpha for nominal data over all labels (tasks are the units,
every label a value; 1 is perfect agreement, 0 chance level), the mean
entropy of the tasks' label frequencies (in nats, as Crowd-Kit's
uncertainty; 0 when a task's labels agree, ln K when they spread evenly),
the fraction of all labels equal to the consensus label of their task, and
the mean consistency (Crowd-Kit's consistency): each task's posterior
probability of its consensus label under the one-coin model whose worker
skills are the workers' agreement with the consensus, with a uniform prior
over the classes that occur.

The consensus is the argmax of --model (majority vote by default; ties
broken with --seed). --tasks writes one row per task (task, labels, label:
the consensus, entropy, normalized_entropy: entropy / ln K, agreement: the
fraction of the task's labels equal to the consensus, consistency) and
--workers one row
per worker (worker, labels, agreement: the fraction of the worker's labels
equal to the consensus, Crowd-Kit's accuracy_on_aggregates; entropy: of
the classes of the worker's labels), in the format
of their extension (or --output-format), all or nothing.`,
		Example: `  consensus agreement --dataset rte
  consensus agreement --input labels.csv --tasks tasks.csv --workers workers.csv
  consensus agreement --dataset duchenne --model vb-da-ds --workers workers.parquet`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			est, err := model.ByName(modelName)
			if err != nil {
				return usageErr(err)
			}
			ofmt, err := dataio.ParseFormat(outFormat)
			if err != nil {
				return usagef("--output-format: %v", err)
			}
			if err := checkOutputs([]string{"input", "gold"}, []string{in.input, in.gold},
				[]string{"tasks", "workers"}, []string{tasks, workers}); err != nil {
				return err
			}
			if err := checkTables(ofmt, "--output-format", []string{"tasks", "workers"}, []string{tasks, workers}); err != nil {
				return err
			}
			d, _, err := in.load(cmd.Context())
			if err != nil {
				return err
			}
			res, err := est.Fit(cmd.Context(), d, nil)
			if errors.Is(err, crowdkit.ErrTwoClassesOnly) {
				return usageErr(err)
			}
			if err != nil {
				return fmt.Errorf("model %s: %w", modelName, err)
			}
			st, err := output.AgreementStats(d, res.Labels(seed))
			if err != nil {
				return err
			}
			var files []output.File
			if tasks != "" {
				files = append(files, output.TableFile(tasks, ofmt, st.Tasks))
			}
			if workers != "" {
				files = append(files, output.TableFile(workers, ofmt, st.Workers))
			}
			if err := output.WriteFiles(cmd.Context(), files...); err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "tasks\t%d\nworkers\t%d\nlabels\t%d\n", d.NumTasks(), d.NumWorkers(), d.NumLabels())
			if math.IsNaN(st.Alpha) {
				// No NaN reaches an output: say that alpha is undefined,
				// and why.
				fmt.Fprintf(w, "krippendorff_alpha\tundefined\n")
				fmt.Fprintf(cmd.ErrOrStderr(), "note: Krippendorff's alpha is undefined: %s\n", output.AlphaUndefined(d))
			} else {
				fmt.Fprintf(w, "krippendorff_alpha\t%.6f\n", st.Alpha)
			}
			fmt.Fprintf(w, "mean_entropy\t%.6f\n", st.MeanEntropy)
			fmt.Fprintf(w, "agreement_with_%s\t%.6f\n", res.Model, st.Agreement)
			_, err = fmt.Fprintf(w, "consistency_with_%s\t%.6f\n", res.Model, st.Consistency)
			return err
		},
	}
	in.register(c)
	fl := c.Flags()
	fl.StringVarP(&modelName, "model", "m", "mv", "model whose consensus label the agreement is measured against")
	fl.Uint64Var(&seed, "seed", 1, "seed for breaking ties in the consensus label")
	fl.StringVar(&tasks, "tasks", "", "write the per-task table here (CSV, TSV, JSON Lines or Parquet by extension, optionally .gz)")
	fl.StringVar(&workers, "workers", "", "write the per-worker table here")
	fl.StringVar(&outFormat, "output-format", "", "format of --tasks and --workers: csv, tsv, jsonl or parquet (default: by extension)")
	return c
}
