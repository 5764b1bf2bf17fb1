package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/progress"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/crowdkit"
	"github.com/consensuslab/consensus/output"
	"github.com/spf13/cobra"
)

// fitFlags are the flags that control fitting, shared by the subcommands
// that fit models.
type fitFlags struct {
	solver  string
	maxIter int
	gradTol float64
	funcTol float64
	threads int
	seed    uint64
	quiet   bool
	ridge   float64
	strict  bool
}

func (f *fitFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.solver, "solver", "", "optimiser: lbfgs, cg (the paper's) or em (Dawid-Skene only); default per model, see 'consensus models'")
	fl.IntVar(&f.maxIter, "max-iter", 0, "iteration limit (default 1000); for kos, zbs and mmsr their number of iterations (default 100, 100 and 10000)")
	fl.Float64Var(&f.gradTol, "grad-tol", 0, "stop when the gradient of the mean log-likelihood per label is below this (default 1e-7)")
	fl.Float64Var(&f.funcTol, "func-tol", 0, "stop when the mean log-likelihood improves by less than this fraction for 10 iterations (default 1e-10; vb-* models: when the evidence lower bound changes by less than this fraction in one iteration, default 1e-9)")
	fl.IntVar(&f.threads, "threads", 0, "goroutines per evaluation (default: all cores); results do not depend on it")
	fl.Uint64Var(&f.seed, "seed", 1, "seed for breaking ties in the consensus label")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no progress or summary on stderr")
	fl.BoolVar(&f.strict, "strict", false, "exit with status 1, writing no output, when a fit stops at its iteration limit instead of converging")
	fl.Float64Var(&f.ridge, "ridge", 0, "weight of an L2 penalty on all parameters that keeps boundary optima finite (default 0: the paper's unpenalised likelihood); see docs/errors.md")
}

func (f *fitFlags) settings() (*model.Settings, error) {
	s := &model.Settings{MaxIterations: f.maxIter, GradientTol: f.gradTol, FunctionTol: f.funcTol, Threads: f.threads}
	if f.solver != "" {
		m, err := model.ParseMethod(f.solver)
		if err != nil {
			return nil, usageErr(err)
		}
		s.Method = m
	}
	if f.maxIter < 0 {
		return nil, usagef("--max-iter %d: must not be negative (leave it out for the default, 1000)", f.maxIter)
	}
	if f.threads < 0 {
		return nil, usagef("--threads %d: must not be negative (0 means all cores)", f.threads)
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"grad-tol", f.gradTol}, {"func-tol", f.funcTol}, {"ridge", f.ridge}} {
		if err := checkFinite(v.name, v.v); err != nil {
			return nil, err
		}
	}
	s.Ridge = f.ridge
	if s.Method == model.EM && (s.Ridge > 0) {
		return nil, usagef("--solver em does not support --ridge; use --solver lbfgs or cg")
	}
	return s, nil
}

func newFitCmd() *cobra.Command {
	var in inputFlags
	var ff fitFlags
	var tf trainFlags
	var sf skillFlags
	var lf layoutFlags
	var af autoFlags
	var modelName, out, workers, summary, outFormat string
	var mo modelOptions
	var randomState uint64
	var tol tolFlag
	c := &cobra.Command{
		Use:   "fit [LABELS]",
		Short: "Fit a consensus model and write every task's label and distribution",
		Example: `  consensus fit --dataset rte
  consensus fit --dataset rte --model da-glad
  consensus fit --input labels.csv --model auto --output consensus.csv
  consensus fit --input labels.csv --gold gold.csv --model la-ds --output consensus.csv
  consensus fit --input labels.tsv --model da-ds --workers workers.csv
  consensus fit --input today.csv --model da-ds --init-workers workers.csv --fix-workers --output today-consensus.csv
  consensus fit --input labels.csv --model mv --skills skills.csv --missing-skill ignore
  consensus fit --input labels.parquet --output consensus.parquet --workers workers.parquet
  consensus fit --input labels.csv --layout crowdkit --output agg.csv
  consensus fit --dataset rte --model la-glad --tasks tasks.csv
  cat labels.jsonl | consensus fit --input - --format jsonl --output-format jsonl
  consensus fit --dataset websearch --model da-ds --train-fraction 0.2 --seed 7`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// ests is the named model, or with --model auto every
			// candidate: each must accept the flags.
			ests, err := af.estimators(modelName, mo)
			if err != nil {
				return err
			}
			set, err := ff.settings()
			if err != nil {
				return err
			}
			// A fit flag the model ignores is refused (with --model auto:
			// one that no candidate reads).
			if err := checkUsed(cmd, set, ests, false); err != nil {
				return err
			}
			ests = model.WithMaxIterations(ests, ff.maxIter) // kos, zbs, mmsr: default 0 keeps theirs
			if cmd.Flags().Changed("random-state") {
				if randomState > crowdkit.MaxRandomState {
					return usagef("--random-state %d: must be at most %d, as numpy's RandomState", randomState, uint64(crowdkit.MaxRandomState))
				}
				for i, est := range ests {
					rs, ok := est.(crowdkit.RandomStarter)
					if !ok {
						return usagef("--random-state: model %s has no random start; it applies to kos and mmsr", est.Name())
					}
					ests[i] = rs.WithRandomState(uint32(randomState))
				}
			}
			if ests, err = tol.apply(cmd, ests); err != nil {
				return err
			}
			ofmt, err := dataio.ParseFormat(outFormat)
			if err != nil {
				return usagef("--output-format: %v", err)
			}
			for _, est := range ests {
				if workers != "" {
					_, weighed := est.(model.SkillWeigher)
					if _, ok := est.(model.Parametric); !ok && !(weighed && sf.path != "") {
						return usagef("--workers: model %s has no worker parameters", est.Name())
					}
				}
				if err := tf.check(est, in.gold+in.dataset); err != nil {
					return err
				}
				if err := sf.check(est); err != nil {
					return err
				}
				if modelName == autoName && (tf.trainGold != "" || tf.trainFraction > 0) {
					return usagef("--train-gold and --train-fraction: --model auto chooses on held-out labels and cannot use training gold; name the model (such as vb-da-ds)")
				}
				if err := lf.check(est, est.Name()); err != nil {
					return err
				}
			}
			if err := checkOutputs([]string{"input", "gold", "train-gold", "init-workers", "skills"}, []string{in.input, in.gold, tf.trainGold, tf.initWorkers, sf.path},
				[]string{"output", "workers", "tasks", "summary"}, []string{out, workers, lf.tasks, summary}); err != nil {
				return err
			}
			if err := checkTables(ofmt, "--output-format", []string{"output"}, []string{out}); err != nil {
				return err
			}
			if err := checkTables("", "", []string{"workers", "tasks"}, []string{workers, lf.tasks}); err != nil {
				return err
			}
			d, gold, err := in.load(cmd.Context())
			if err != nil {
				return err
			}
			for _, est := range ests {
				if err := checkFitMemory(est, d, set, in.maxMemory); err != nil {
					return err
				}
			}
			if err := lf.checkData(d); err != nil {
				return err
			}
			est := ests[0]
			if modelName == autoName {
				if est, err = af.choose(cmd.Context(), os.Stderr, d, ests, set, ff.seed, ff.quiet); err != nil {
					return err
				}
			}
			tf.ctx, tf.maxMemory = cmd.Context(), in.maxMemory.bytes()
			loadGold := func(path string, d *data.Dataset) (*data.Gold, error) { return in.loadGold(cmd.Context(), path, d) }
			if est, gold, err = tf.apply(est, set, d, gold, loadGold, ff.seed); err != nil {
				return err
			}
			sf.ctx, sf.maxMemory = cmd.Context(), in.maxMemory.bytes()
			if est, err = sf.apply(est, d); err != nil {
				return err
			}
			var bar *progress.Reporter
			if !ff.quiet {
				bar = progress.New(fmt.Sprintf("fitting %s", est.Name()))
				set.Progress = bar.Update
			}
			res, err := est.Fit(cmd.Context(), d, set)
			bar.Finish()
			if errors.Is(err, model.ErrNoMStep) || errors.Is(err, crowdkit.ErrTwoClassesOnly) {
				return usageErr(err) // --solver em with a model EM cannot fit, kos with K ≠ 2
			}
			if err != nil {
				return err
			}
			if ff.strict && !res.Converged {
				return fmt.Errorf("--strict: model %s did not converge (%s after %d iterations); no output written", res.Model, res.Status, res.Iterations)
			}
			if lf.tasks != "" && res.TaskColumns() == nil {
				// The result answers, not the noise model's name: a
				// variational GLAD fit keeps its difficulties at their mode
				// and reports none.
				return usagef("--tasks: the fit of model %s reports no per-task parameters (%s do); no output written", res.Model, model.NamesWith(func(c model.Capabilities) bool { return c.TaskParams }))
			}
			// The gold scores of the summary, before any output is
			// written.
			goldSummary, err := compare.GoldLines(res, gold, ff.seed)
			if err != nil {
				return err
			}
			files := lf.files(out, ofmt, res, ff.seed)
			if workers != "" {
				files = append(files, output.WorkersFile(workers, "", res))
			}
			if summary != "" {
				files = append(files, output.SummaryFile(summary, modelName, res))
			}
			if err := output.WriteFiles(cmd.Context(), files...); err != nil {
				return err
			}
			if !ff.quiet {
				chosen := ""
				if modelName == autoName {
					chosen = " (chosen by --model auto)"
				}
				printSummary(os.Stderr, est, res, chosen, goldSummary)
				compare.WriteSharedErrors(os.Stderr, res, 3)
				compare.WriteUnvotedClasses(os.Stderr, res)
				compare.WriteAbsentClasses(os.Stderr, res)
				if _, ok := est.(model.GoldTrainer); ok && !tf.calibrate {
					if over, conf, acc, err := compare.OverconfidentOnGold(res, gold, ff.seed); err == nil && over {
						fmt.Fprintf(os.Stderr, "note: the probabilities are more confident than this gold supports (mean %.3f, accuracy %.3f on %d tasks); with training gold (--train-gold FILE or --train-fraction F), --calibrate-gold tempers them to it\n", conf, acc, gold.Len())
					}
				}
			}
			return nil
		},
	}
	in.register(c)
	ff.register(c)
	tf.register(c)
	sf.register(c)
	lf.register(c)
	af.register(c)
	c.Flags().Float64Var(&mo.gladPrior, "glad-prior", 0, gladPriorHelp)
	c.Flags().Float64Var(&mo.qPrior, "q-prior", 0, qPriorHelp)
	tol.register(c)
	c.Flags().Uint64Var(&randomState, "random-state", 0, "kos and mmsr: seed of the random start, drawn as Crowd-Kit's random_state draws it (numpy's RandomState; at most 2^32-1)")
	c.Flags().BoolVar(&mo.staged, "staged", false, stagedHelp)
	c.Flags().StringVarP(&modelName, "model", "m", model.DefaultModel, "model: "+joinNames()+", or auto: choose among "+strings.Join(compare.AutoModels, ", ")+" on held-out labels (--auto-models, --auto-criterion)")
	c.RegisterFlagCompletionFunc("model", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return append(model.Names(), autoName), cobra.ShellCompDirectiveNoFileComp
	})
	c.Flags().StringVarP(&out, "output", "o", "-", `consensus file (task,label,p_<class>...); "-" is standard output; CSV, TSV, JSON Lines or Parquet by extension (.csv .tsv .jsonl .parquet, optionally .gz)`)
	c.Flags().StringVar(&outFormat, "output-format", "", "format of --output: csv, tsv, jsonl or parquet (default: by extension, CSV for standard output)")
	c.Flags().StringVar(&workers, "workers", "", "also write the fitted worker parameters to this file (format by extension)")
	c.Flags().StringVar(&summary, "summary", "", `also write a JSON summary of the fit to this file: the model fitted (with --model auto, the one chosen), the data's size and how the fit ended; "-" is standard output`)
	return c
}

// printSummary writes the one-screen summary of the fit r of est to w;
// note follows the model's name, and gold holds the lines about the gold
// labels (compare.GoldLines).
func printSummary(w io.Writer, est model.Estimator, r *model.Result, note, gold string) {
	d := r.Data
	fmt.Fprintf(w, "model %s%s: %d tasks, %d workers, %d labels, %d classes\n",
		r.Model, note, d.NumTasks(), d.NumWorkers(), d.NumLabels(), d.NumClasses())
	if r.Solved() {
		fmt.Fprintf(w, "solver %s: %d iterations, %d evaluations, log-likelihood %.6g, stopped: %s, time %v\n",
			r.Method, r.Iterations, r.Evaluations, r.LogLikelihood, r.Status, r.Runtime.Round(time.Millisecond))
		if !r.Converged {
			fmt.Fprintln(w, convergenceWarning(est, r))
		}
		printClassPrior(w, r)
	} else if r.Method != "" {
		// A fit without a parameter vector (a vote, a sampler) still says
		// how it went.
		fmt.Fprintf(w, "method %s", r.Method)
		if r.Iterations > 0 {
			fmt.Fprintf(w, ": %d iterations, time %v", r.Iterations, r.Runtime.Round(time.Millisecond))
		}
		fmt.Fprintln(w)
	}
	io.WriteString(w, gold)
}
