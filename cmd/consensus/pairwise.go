package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
	"github.com/consensuslab/consensus/output"
	"github.com/consensuslab/consensus/pairwise"
)

func init() { extraCommands = append(extraCommands, newPairwiseCmd) }

func newPairwiseCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "pairwise",
		Short: "Aggregate pairwise comparisons into item scores: Bradley-Terry and noisy Bradley-Terry",
		Long: `pairwise turns pairwise comparisons ("which of the two is better?") into a
score per item, with the Bradley-Terry model or the noisy Bradley-Terry model
that also fits each worker's skill and left-bias (Crowd-Kit's BradleyTerry
and NoisyBradleyTerry; docs/pairwise.md).`,
	}
	c.AddCommand(newPairwiseFitCmd(), newPairwiseSimulateCmd())
	return c
}

// pairwiseFlags holds the flags of "pairwise fit".
type pairwiseFlags struct {
	input, format, sep          string
	worker, left, right, label  string
	tie                         string
	model, out, outFormat, work string
	prior, tol, gradTol         float64
	funcTol                     float64
	maxIter, threads            int
	maxMemory                   memLimit
	quiet, strict               bool
}

func newPairwiseFitCmd() *cobra.Command {
	var f pairwiseFlags
	c := &cobra.Command{
		Use:   "fit [COMPARISONS]",
		Short: "Fit Bradley-Terry or noisy Bradley-Terry scores to comparisons",
		Long: `fit reads comparisons, one a row with the columns left, right and label (the
chosen item, left's or right's) and, for noisy-bt, worker: Crowd-Kit's
columns, in CSV, TSV, JSON Lines or Parquet, optionally gzip-compressed. It
writes one row per item, best first: item, rank, score (θ: the item beats
another with probability σ(θ − θ_other)), weight (exp θ normalised to sum to
1, the scale of Crowd-Kit's BradleyTerry scores), wins, ties (with --tie)
and comparisons. With --tie LABEL a row labelled LABEL is a tie, half a win
for each item (bt only).
--workers writes the noisy model's worker, skill (the probability of
comparing by quality), bias (the probability of picking the left item
otherwise) and comparisons.

Both models have a standard logistic prior on every score by default (one
virtual win and one virtual loss against a reference item of score 0),
which keeps every score finite; --prior sets its weight, and --prior 0 fits
bt's maximum likelihood, which exists only when no group of items never
beats the rest (the command says which item breaks that). bt is fitted by
Newton's method (--tol: the largest score change of a step at which it
stops, default 1e-9), noisy-bt by L-BFGS from the bt scores (--grad-tol: on
the gradient per comparison, default 1e-8). A summary goes to stderr.`,
		Example: `  consensus pairwise simulate --items 1000 --workers 50 --comparisons 20000 --spammers 0.3 -o comparisons.csv
  consensus pairwise fit comparisons.csv -o scores.csv
  consensus pairwise fit comparisons.csv --model noisy-bt -o scores.csv --workers workers.csv`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := fileArg("comparisons", &f.input, args); err != nil {
				return err
			}
			return f.run(cmd)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&f.input, "input", "i", "", `comparisons file, "-" for standard input; CSV, TSV, JSON Lines or Parquet by extension (.csv .tsv .jsonl .parquet, optionally .gz) or --format`)
	fl.StringVar(&f.format, "format", "", "format of --input: csv, tsv, jsonl or parquet (default: by extension, CSV for standard input)")
	fl.StringVar(&f.sep, "sep", "", `field separator: "," or "\t" (or "tab"); default from the file extension`)
	fl.StringVar(&f.worker, "worker-column", "worker", "name of the worker column (needed by noisy-bt only)")
	fl.StringVar(&f.left, "left-column", "left", "name of the left item's column")
	fl.StringVar(&f.right, "right-column", "right", "name of the right item's column")
	fl.StringVar(&f.label, "label-column", "label", "name of the column of the chosen item")
	fl.StringVar(&f.tie, "tie", "", `the label of a tie, such as "tie": such a row is a comparison in which neither item was chosen, half a win for each (bt only)`)
	fl.StringVarP(&f.model, "model", "m", "bt", "model: bt (Bradley-Terry) or noisy-bt (with worker skills and biases)")
	fl.Float64Var(&f.prior, "prior", 1, "weight of the logistic prior on the scores; 0: none (bt's maximum likelihood)")
	fl.Float64Var(&f.tol, "tol", 0, "bt: stop when a Newton step moves no score by more than this (default 1e-9)")
	fl.Float64Var(&f.gradTol, "grad-tol", 0, "noisy-bt: stop when the gradient per comparison is below this (default 1e-8)")
	fl.Float64Var(&f.funcTol, "func-tol", 0, "noisy-bt: stop when an iteration changes the objective by less than this fraction (SciPy's L-BFGS-B ftol, Crowd-Kit's tol; default: 1e-13 over 20 iterations)")
	fl.IntVar(&f.maxIter, "max-iter", 0, "iteration limit (default: bt 100 Newton steps, noisy-bt 1000 L-BFGS iterations)")
	fl.IntVar(&f.threads, "threads", 0, "goroutines per evaluation (default: all cores); results do not depend on it")
	fl.Var(&f.maxMemory, "max-memory", "refuse inputs that need more memory than this while reading, such as 4GiB (default: the memory available; off: no check)")
	fl.StringVarP(&f.out, "output", "o", "-", `scores file (item,rank,score,weight,wins,comparisons); "-" is standard output; format by extension`)
	fl.StringVar(&f.outFormat, "output-format", "", "format of --output and --workers: csv, tsv, jsonl or parquet (default: by extension, CSV for standard output)")
	fl.StringVar(&f.work, "workers", "", "noisy-bt: also write the workers' skills and biases to this file")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no summary on stderr")
	fl.BoolVar(&f.strict, "strict", false, "exit with status 1, writing no output, when a fit stops at its iteration limit instead of converging")
	return c
}

// run checks the flags, reads the comparisons, fits and writes the tables.
func (f *pairwiseFlags) run(cmd *cobra.Command) error {
	fit, err := f.fitter(cmd)
	if err != nil {
		return err
	}
	ofmt, err := dataio.ParseFormat(f.outFormat)
	if err != nil {
		return usagef("--output-format: %v", err)
	}
	ifmt, err := dataio.ParseFormat(f.format)
	if err != nil {
		return usagef("--format: %v", err)
	}
	if err := checkOutputs([]string{"input"}, []string{f.input}, []string{"output", "workers"}, []string{f.out, f.work}); err != nil {
		return err
	}
	if err := checkTables(ofmt, "--output-format", []string{"output", "workers"}, []string{f.out, f.work}); err != nil {
		return err
	}
	opt := dataio.ReadSettings{MaxMemory: f.maxMemory.bytes()}
	if f.sep != "" {
		if opt.Sep, err = parseSep("sep", f.sep); err != nil {
			return err
		}
	}
	path := f.input
	if path == "" {
		if !stdinPiped() {
			return usagef("no comparisons: give a file, or pipe them to standard input")
		}
		path = "-"
	}
	// bt does not use the workers: their column is not read, as any other
	// column a reader ignores.
	cols := pairwise.Columns{Worker: f.worker, Left: f.left, Right: f.right, Label: f.label, Tie: f.tie, NoWorkers: f.model == "bt"}
	comp, err := pairwise.LoadComparisons(cmd.Context(), path, ifmt, cols, opt)
	if err != nil {
		return limitHint(err)
	}
	res, err := fit.Fit(cmd.Context(), comp)
	if err != nil {
		return usageErr(err)
	}
	if f.strict && !res.Converged {
		return fmt.Errorf("--strict: %s did not converge in %d iterations; no output written", res.Model, res.Iterations)
	}
	files := []output.File{output.TableFile(f.out, ofmt, res.ScoresTable())}
	if f.work != "" {
		wt, err := res.WorkersTable(comp)
		if err != nil {
			return err
		}
		files = append(files, output.TableFile(f.work, ofmt, wt))
	}
	if err := output.WriteFiles(cmd.Context(), files...); err != nil {
		return err
	}
	if !f.quiet {
		fmt.Fprintln(cmd.ErrOrStderr(), res.Summary(comp))
	}
	return nil
}

// fitter returns the fit the flags ask for, refusing flags that do not
// apply to the model.
func (f *pairwiseFlags) fitter(cmd *cobra.Command) (pairwise.Fitter, error) {
	changed := cmd.Flags().Changed
	if f.threads < 0 {
		return nil, usagef("--threads %d: want 0 (all cores) or more", f.threads)
	}
	switch f.model {
	case "bt":
		for _, flag := range []string{"grad-tol", "func-tol", "workers", "worker-column"} {
			if changed(flag) {
				return nil, usagef("--%s applies to --model noisy-bt, not bt", flag)
			}
		}
		return pairwise.BradleyTerry{Prior: f.prior, NoPrior: f.prior == 0, MaxIterations: f.maxIter, Tol: f.tol, Threads: f.threads}, nil
	case "noisy-bt":
		if changed("tol") {
			return nil, usagef("--tol applies to --model bt; noisy-bt stops on --grad-tol")
		}
		if f.prior == 0 {
			return nil, usagef("--prior 0: noisy-bt needs a prior (its maximum likelihood is often at infinite parameters)")
		}
		return pairwise.NoisyBT{Prior: f.prior, MaxIterations: f.maxIter, GradTol: f.gradTol, FuncTol: f.funcTol, Threads: f.threads}, nil
	}
	return nil, usagef("--model %q: want bt or noisy-bt", f.model)
}

func newPairwiseSimulateCmd() *cobra.Command {
	var s pairwise.SimSettings
	var out, truth, truthWorkers string
	var maxMem memLimit
	c := &cobra.Command{
		Use:   "simulate",
		Short: "Simulate pairwise comparisons from the noisy Bradley-Terry model, with the true parameters",
		Long: `simulate draws comparisons from the noisy Bradley-Terry model: true scores
N(0, spread²), worker skills uniform on [0.6, 1] but for a fraction of
spammers whose skill is 0.05, biases uniform on [0.3, 0.7]; each comparison
picks a worker and two distinct items at random, the label from
P(left chosen) = skill σ(θ_left − θ_right) + (1 − skill) bias. It writes
worker,left,right,label; --truth writes the true scores (item,score) and
--truth-workers the true workers (worker,skill,bias), in the order in which
the comparisons name them.`,
		Example: `  consensus pairwise simulate --items 1000 --workers 50 --comparisons 20000 --spammers 0.3 --seed 1 -o comparisons.csv --truth truth.csv`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutputs(nil, nil, []string{"output", "truth", "truth-workers"}, []string{out, truth, truthWorkers}); err != nil {
				return err
			}
			if err := checkTables("", "", []string{"output", "truth", "truth-workers"}, []string{out, truth, truthWorkers}); err != nil {
				return err
			}
			if err := checkPairwiseSimulateMemory(s, maxMem); err != nil {
				return err
			}
			comp, tr, err := pairwise.Simulate(s)
			if err != nil {
				return usageErr(err)
			}
			files := []output.File{{Path: out, Write: table.Encoder(out, "", func(w io.Writer, f dataio.Format) error {
				return comp.Write(w, f)
			})}}
			if truth != "" {
				st, err := tr.ScoresTable(comp)
				if err != nil {
					return err
				}
				files = append(files, output.TableFile(truth, "", st))
			}
			if truthWorkers != "" {
				wt, err := tr.WorkersTable(comp)
				if err != nil {
					return err
				}
				files = append(files, output.TableFile(truthWorkers, "", wt))
			}
			return output.WriteFiles(cmd.Context(), files...)
		},
	}
	fl := c.Flags()
	fl.IntVar(&s.Items, "items", 0, "number of items (default 1000)")
	fl.IntVar(&s.Workers, "workers", 0, "number of workers (default 50)")
	fl.IntVar(&s.Comparisons, "comparisons", 0, "number of comparisons (default 20000)")
	fl.Float64Var(&s.Spread, "spread", 0, "standard deviation of the true scores (default 1)")
	fl.Float64Var(&s.Spammers, "spammers", 0, "fraction of workers who compare at random (skill 0.05)")
	fl.Uint64Var(&s.Seed, "seed", 0, "random seed")
	fl.StringVarP(&out, "output", "o", "-", `comparisons file (worker,left,right,label); "-" is standard output; CSV, TSV, JSON Lines or Parquet by extension, optionally .gz`)
	fl.StringVar(&truth, "truth", "", "also write the true scores (item,score); format by extension")
	fl.StringVar(&truthWorkers, "truth-workers", "", "also write the true skills and biases (worker,skill,bias); format by extension")
	fl.Var(&maxMem, "max-memory", "refuse a simulation estimated to need more memory than this, such as 4GiB (default: the memory available; off: no check)")
	return c
}
