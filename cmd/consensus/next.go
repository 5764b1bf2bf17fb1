package main

import (
	"fmt"
	"sync"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/progress"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
	"github.com/consensuslab/consensus/plan"
)

func init() { extraCommands = append(extraCommands, newNextCmd) }

func newNextCmd() *cobra.Command {
	var in inputFlags
	var out, workers, pool, outFormat, tasks string
	var level float64
	var dist bool
	var set plan.Settings
	var fs plan.FlagSettings
	var threads int
	var quiet bool
	c := &cobra.Command{
		Use:   "next [LABELS]",
		Short: "Choose the tasks to label next, and flag spammers and adversaries",
		Long: `next fits vb-la-ds (variational Dawid-Skene, one true class per task) to
the labels so far and writes the --budget tasks whose next label is expected
to raise the accuracy of the consensus most: the expected gain in the
probability that the task's consensus label is right, per label, looking up
to --lookahead labels ahead, from a worker whose confusion matrix is the
crowd's average (see docs/planning.md). Tasks whose consensus label is right
with posterior probability --stop or more, and tasks no label can change,
get nothing, so fewer than --budget rows may be written.

With --pool (a table with a worker column: the workers available), next
writes task-worker pairs instead: for each pair the gain of a label from
that worker, no worker for a task it labelled, each at most --per-worker
times.

The output has the columns task, worker (with --pool), labels (the task's
labels so far), label (its consensus label), confidence (the largest
probability of its cavity posterior: see docs/planning.md), gain and p_change (the probability that one more
label changes the consensus label), best first.

--tasks writes every task: task, labels, label, confidence, gain and
p_change as above, and p_<class> for every class (the posterior of the true
class, vb-la-ds's output); with --intervals LEVEL also p_<class>_lo and
p_<class>_hi, credible intervals at that level of how the class posterior
varies with what is known of the workers, the level calibrated by a
parametric bootstrap (simulations from the fit, refitted: 10, fewer above
10⁵ labels, at least 3) so that the intervals cover at the level asked (see
docs/planning.md); --seed seeds it. --distribution also fits vb-da-ds and
adds q_<class>, every task's label distribution (the posterior mean of
q_j), with q_<class>_lo and q_<class>_hi under --intervals: the posterior of
q_j given the task's labels and its workers' confusion matrices, under a
prior fitted to the crowd, sampled by importance sampling.

--workers writes the workers file of the fit (the columns of 'consensus fit
-m vb-la-ds --workers': worker, labels, skill, the posterior means p[z,y] of
the confusion matrix and the labels n[z] each row weighs; --init-workers
reads it back) with the evidence on every worker as further columns:
agreement (the fraction of its labels equal to their task's consensus label),
accuracy (the posterior mean of its balanced accuracy, the mean of its
confusion matrix's diagonal; 1/K for a spammer) with accuracy_lo and
accuracy_hi (the --level credible interval), p_spammer (the posterior
probability that its labels do not depend on the true class), p_adversarial
(that it is worse than chance) and flag ("spammer" or "adversarial" at
posterior 0.5 or more, else "none").

A run that takes more than a second shows its steps on stderr (a progress
bar on a terminal, a log line every few seconds otherwise); --quiet
silences them.`,
		Example: `  consensus next --dataset rte --budget 50
  consensus next --input labels.csv --budget 1000 --output next.csv --workers flags.csv
  consensus next --input labels.csv --budget 200 --pool available.csv --per-worker 20 --output pairs.csv`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if set.Budget < 0 {
				return usagef("--budget %d: must not be negative", set.Budget)
			}
			if !(set.Stop > 0 && set.Stop <= 1) {
				return usagef("--stop %v: want a probability in (0, 1]", set.Stop)
			}
			if set.Lookahead < 1 || set.Lookahead > 10 {
				return usagef("--lookahead %d: want 1 to 10", set.Lookahead)
			}
			if !(fs.Level > 0 && fs.Level < 1) {
				return usagef("--level %v: want a probability in (0, 1)", fs.Level)
			}
			if set.PerWorker < 0 {
				return usagef("--per-worker %d: must not be negative", set.PerWorker)
			}
			if cmd.Flags().Changed("intervals") && !(level > 0 && level < 1) {
				return usagef("--intervals %v: want a level in (0, 1)", level)
			}
			if dist && tasks == "" {
				return usagef("--distribution applies to --tasks; give --tasks FILE")
			}
			if cmd.Flags().Changed("intervals") && tasks == "" {
				return usagef("--intervals applies to --tasks; give --tasks FILE")
			}
			if pool == "" && cmd.Flags().Changed("per-worker") {
				return usagef("--per-worker applies only with --pool")
			}
			ofmt, err := dataio.ParseFormat(outFormat)
			if err != nil {
				return usagef("--output-format: %v", err)
			}
			if err := checkOutputs([]string{"input", "gold", "pool"}, []string{in.input, in.gold, pool},
				[]string{"output", "workers", "tasks"}, []string{out, workers, tasks}); err != nil {
				return err
			}
			if err := checkTables(ofmt, "--output-format", []string{"output", "workers", "tasks"}, []string{out, workers, tasks}); err != nil {
				return err
			}
			d, _, err := in.load(cmd.Context())
			if err != nil {
				return err
			}
			if pool != "" {
				if set.Pool, err = plan.LoadPool(cmd.Context(), pool, d); err != nil {
					return usageErr(err)
				}
			}
			if err := checkFitMemory(plan.Model, d, nil, in.maxMemory); err != nil {
				return err
			}
			var bar *progress.Reporter
			if !quiet {
				bar = progress.New("next")
			}
			finish := sync.OnceFunc(bar.Finish)
			defer finish()
			res, err := plan.Model.Fit(cmd.Context(), d, &model.Settings{Threads: threads, Progress: bar.Update})
			if err != nil {
				return err
			}
			p, err := plan.FromResult(res)
			if err != nil {
				return err
			}
			picks, err := plan.Next(p, &set)
			if err != nil {
				return err
			}
			pt, err := plan.PicksTable(d, p, picks, pool != "")
			if err != nil {
				return err
			}
			files := []output.File{output.TableFile(out, ofmt, pt)}
			if workers != "" {
				bar.Step(0, 1, "worker flags")
				flags, err := plan.Flags(p, &fs)
				if err != nil {
					return err
				}
				wt, err := plan.WorkersTable(res, flags)
				if err != nil {
					return err
				}
				files = append(files, output.TableFile(workers, ofmt, wt))
			}
			if tasks != "" {
				all, err := plan.Assess(p, set.Lookahead)
				if err != nil {
					return err
				}
				var iv *plan.Intervals
				if level > 0 {
					if iv, err = plan.ClassIntervals(cmd.Context(), p, &plan.IntervalSettings{Level: level, Seed: fs.Seed, Fit: &model.Settings{Threads: threads}, Progress: bar.Step}); err != nil {
						return err
					}
				}
				var q *model.Result
				var qiv *plan.Intervals
				if dist {
					bar.Step(0, 1, "fitting "+plan.DAModel.Name())
					if q, err = plan.DAModel.Fit(cmd.Context(), d, &model.Settings{Threads: threads, Progress: bar.Update}); err != nil {
						return err
					}
					if level > 0 {
						if qiv, err = plan.LabelIntervals(cmd.Context(), q, &plan.IntervalSettings{Level: level, Seed: fs.Seed, Fit: &model.Settings{Threads: threads}, Workers: p.Workers, Progress: bar.Step}); err != nil {
							return err
						}
					}
				}
				tt, err := plan.TasksTable(d, p, all, iv, q, qiv)
				if err != nil {
					return err
				}
				files = append(files, output.TableFile(tasks, ofmt, tt))
			}
			bar.Step(0, 1, "writing")
			if err := output.WriteFiles(cmd.Context(), files...); err != nil {
				return err
			}
			finish()
			fmt.Fprintf(cmd.ErrOrStderr(), "next: %d of %d tasks chosen (budget %d, stop at confidence %g)\n", len(picks), d.NumTasks(), set.Budget, set.Stop)
			return nil
		},
	}
	in.register(c)
	fl := c.Flags()
	fl.IntVarP(&set.Budget, "budget", "b", 100, "number of tasks (or task-worker pairs with --pool) to choose")
	fl.Float64Var(&set.Stop, "stop", 0.99, "stopping rule: tasks whose consensus label has this posterior probability or more get nothing")
	fl.IntVar(&set.Lookahead, "lookahead", 3, "largest number of further labels the gain looks ahead over")
	fl.StringVar(&pool, "pool", "", "table of the available workers (a worker column): choose task-worker pairs")
	fl.IntVar(&set.PerWorker, "per-worker", 0, "with --pool, the most tasks a worker gets (default: the budget divided by the pool's size, rounded up)")
	fl.StringVarP(&out, "output", "o", "-", `the chosen tasks; "-" is standard output; CSV, TSV, JSON Lines or Parquet by extension (.csv .tsv .jsonl .parquet, optionally .gz)`)
	fl.StringVar(&workers, "workers", "", "also write the worker flags to this file (format by extension)")
	fl.StringVar(&outFormat, "output-format", "", "format of --output and --workers: csv, tsv, jsonl or parquet (default: by extension, CSV for standard output)")
	fl.StringVar(&tasks, "tasks", "", "also write every task's confidence, gain, p_change and class posterior to this file")
	fl.Float64Var(&level, "intervals", 0, "with --tasks, add credible intervals at this level (such as 0.9) for every class's posterior")
	fl.BoolVar(&dist, "distribution", false, "with --tasks, also fit vb-da-ds and add every task's label distribution q_<class>")
	fl.Float64Var(&fs.Level, "level", 0.9, "credible level of the workers' accuracy intervals")
	fl.Uint64Var(&fs.Seed, "seed", 1, "seed of the posterior draws behind the workers' and the tasks' intervals")
	fl.IntVar(&threads, "threads", 0, "goroutines of the fit (0: all cores); the output does not depend on it")
	fl.BoolVarP(&quiet, "quiet", "q", false, "no progress on stderr")
	return c
}
