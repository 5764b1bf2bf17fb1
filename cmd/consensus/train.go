package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/calibrate"
	"github.com/consensuslab/consensus/model/crowdkit"
	"github.com/consensuslab/consensus/output"
	"github.com/spf13/cobra"
)

// trainFlags are fit's flags for semi-supervised fitting: gold labels used
// during the fit and initial worker parameters.
type trainFlags struct {
	trainGold     string
	trainFraction float64
	initWorkers   string
	initFormat    string
	fixWorkers    bool
	calibrate     bool
	// ctx and maxMemory bound the reading of --init-workers.
	ctx       context.Context
	maxMemory int64
}

func (f *trainFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.trainGold, "train-gold", "", "gold file (task,label) whose tasks are clamped to their gold class during the fit (LA: the true class; DA: q_j one-hot); evaluation with --gold then uses only the other gold tasks")
	fl.BoolVar(&f.calibrate, "calibrate-gold", false, "with --train-gold or --train-fraction: temper the output probabilities of the tasks without gold by the temperature that best predicts the training gold, each gold task from a fit without its class (5-fold cross-fitting, 6 fits; see docs/choosing-a-model.md)")
	fl.Float64Var(&f.trainFraction, "train-fraction", 0, "use this fraction of the --gold tasks, drawn with --seed, as --train-gold and evaluate on the rest")
	fl.StringVar(&f.initWorkers, "init-workers", "", "start the fit from these worker parameters (a file as written by fit --workers with the same noise model, such as worker,labels,p[a,b],... for Dawid-Skene, with n[a],... for vb-*-ds; CSV, TSV, JSON Lines or Parquet, gzip-compressed or not, by extension or --init-workers-format); workers not in it start from the model's initialisation")
	fl.StringVar(&f.initFormat, "init-workers-format", "", "format of --init-workers: csv, tsv, jsonl or parquet (default: by extension, CSV for standard input)")
	fl.BoolVar(&f.fixWorkers, "fix-workers", false, "with --init-workers: hold the workers of that file at its parameters during the fit instead of starting from them, and fit only the other workers and the tasks: new tasks aggregated with workers fitted before")
}

// check refuses inconsistent combinations before any reading.
func (f *trainFlags) check(est model.Estimator, gold string) error {
	if f.trainFraction < 0 || f.trainFraction >= 1 || math.IsNaN(f.trainFraction) {
		return usagef("--train-fraction %v: want a fraction in [0, 1)", f.trainFraction)
	}
	if f.trainFraction > 0 && (gold == "" && f.trainGold == "") {
		return usagef("--train-fraction needs --gold (or --dataset) to split")
	}
	if f.calibrate && f.trainGold == "" && f.trainFraction == 0 {
		return usagef("--calibrate-gold needs training gold: give --train-gold FILE, or --train-fraction F with --gold")
	}
	if f.trainFraction > 0 && f.trainGold != "" {
		return usagef("--train-fraction and --train-gold cannot be combined: give one source of training gold")
	}
	if g, ok := est.(model.GoldNeeder); ok && g.NeedsGold() {
		if f.trainGold == "" && f.trainFraction == 0 {
			return usageErr(crowdkit.ErrNoTrainingGold)
		}
	}
	if _, ok := est.(model.GoldTrainer); !ok && (f.trainGold != "" || f.trainFraction > 0) {
		return usagef("--train-gold and --train-fraction: model %s cannot use training gold (%s can)", est.Name(), model.NamesWith(func(c model.Capabilities) bool { return c.TrainGold }))
	}
	if f.initWorkers != "" {
		if ws, ok := est.(model.WorkerStarter); !ok || !ws.CanSetWorkers() {
			return usagef("--init-workers: model %s cannot start from worker parameters (%s can)", est.Name(), model.NamesWith(func(c model.Capabilities) bool { return c.InitWorkers }))
		}
	}
	if f.fixWorkers {
		if f.initWorkers == "" {
			return usagef("--fix-workers needs --init-workers: the file of the workers' parameters to hold")
		}
	}
	return nil
}

// apply returns the estimator and settings to fit and the gold to evaluate
// on: the model with the training gold clamped (model.GoldTrainer), the start
// vector from --init-workers, and the evaluation gold without the training
// tasks.
func (f *trainFlags) apply(est model.Estimator, set *model.Settings, d *data.Dataset, gold *data.Gold, loadGold func(string, *data.Dataset) (*data.Gold, error), seed uint64) (model.Estimator, *data.Gold, error) {
	var train *data.Gold
	switch {
	case f.trainGold != "":
		g, err := loadGold(f.trainGold, d)
		if err != nil {
			return nil, nil, err
		}
		noteUnmatched(g)
		train = g
	case f.trainFraction > 0 && gold != nil:
		train, gold = gold.Split(f.trainFraction, seed)
		fmt.Fprintf(os.Stderr, "note: %d gold tasks train the fit (--train-fraction %v, --seed %d), %d evaluate it\n",
			train.Len(), f.trainFraction, seed, gold.Len())
	}
	if train != nil && gold != nil {
		without := gold.Without(train)
		if removed := gold.Len() - without.Len(); removed > 0 {
			fmt.Fprintf(os.Stderr, "note: %d gold tasks are also training gold and are left out of the evaluation\n", removed)
		}
		gold = without
	}
	var cal *calibrate.Gold // --calibrate-gold's wrapper, of the estimator before its gold
	if gt, ok := est.(model.GoldTrainer); ok && train != nil {
		class := latent.GoldClasses(d, train)
		if f.calibrate {
			if train.Len() < calibrate.DefaultFolds {
				return nil, nil, fmt.Errorf("--calibrate-gold: %d training gold tasks; at least %d are needed", train.Len(), calibrate.DefaultFolds)
			}
			cal = &calibrate.Gold{Base: gt, Class: class, Seed: seed}
		}
		est = gt.WithGold(class)
	}
	wrap := func(e model.Estimator) model.Estimator {
		if cal != nil {
			return *cal
		}
		return e
	}
	if ws, ok := est.(model.WorkerStarter); ok && f.initWorkers != "" {
		start, given, err := f.startWorkers(ws, d)
		if err != nil {
			return nil, nil, err
		}
		set.Start = start
		if !f.fixWorkers {
			fmt.Fprintf(os.Stderr, "note: %d of %d workers start from %s\n", len(given), d.NumWorkers(), f.initWorkers)
			return wrap(est), gold, nil
		}
		set.Fixed = model.FixedWorkers(ws, d, start, given)
		fmt.Fprintf(os.Stderr, "note: %d of %d workers are held at their parameters in %s, %d are fitted\n",
			len(given), d.NumWorkers(), f.initWorkers, d.NumWorkers()-len(given))
	}
	return wrap(est), gold, nil
}

// startWorkers returns the initial parameter vector of m on d with the
// parameters of the workers listed in the --init-workers file, and the
// workers it set. The file has a "worker" column and one column for every
// worker parameter of the model (m.WorkerColumns, the columns fit --workers
// writes, in any format); other columns are ignored. The values of each row
// must be numbers the model accepts (model.WorkerStarter.SetWorker), such
// as probabilities that sum to 1 per row of a Dawid-Skene confusion matrix.
func (f *trainFlags) startWorkers(m model.WorkerStarter, d *data.Dataset) ([]float64, []int, error) {
	format, err := dataio.ParseFormat(f.initFormat)
	if err != nil {
		return nil, nil, usagef("--init-workers-format: %v", err)
	}
	names := m.WorkerColumns(d)
	opt := dataio.ReadSettings{MaxMemory: f.maxMemory}
	t, err := output.LoadWorkers(f.ctx, f.initWorkers, format, opt, names)
	if err != nil {
		var ie *dataio.InputError
		if errors.As(err, &ie) && ie.Hint == dataio.HintColumns {
			e := *ie
			e.Msg += fmt.Sprintf("; model %s needs the worker columns %s (as fit --workers writes them with this model)", m.Name(), strings.Join(names, ","))
			return nil, nil, &e
		}
		return nil, nil, limitHint(withAdvice(err, readFlags{format: "--init-workers-format"}))
	}
	// Each worker once: output.LoadWorkers refuses a second row.
	return t.Start(m, d, f.initWorkers)
}
