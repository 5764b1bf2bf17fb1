package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/output"
)

// trainFlags are fit's flags for semi-supervised fitting: gold labels used
// during the fit and initial worker parameters.
type trainFlags struct {
	trainGold     string
	trainFraction float64
	initWorkers   string
	initFormat    string
	// ctx and maxMemory bound the reading of --init-workers.
	ctx       context.Context
	maxMemory int64
}

func (f *trainFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.trainGold, "train-gold", "", "gold file (task,label) whose tasks are clamped to their gold class during the fit (LA: the true class; DA: q_j one-hot); evaluation with --gold then uses only the other gold tasks")
	fl.Float64Var(&f.trainFraction, "train-fraction", 0, "use this fraction of the --gold tasks, drawn with --seed, as --train-gold and evaluate on the rest")
	fl.StringVar(&f.initWorkers, "init-workers", "", "start Dawid-Skene from these confusion matrices (a file as written by fit --workers: worker,labels,p[a,b],...; CSV, TSV, JSON Lines or Parquet, gzip-compressed or not, by extension or --init-workers-format); workers not in it start from the paper's initialisation")
	fl.StringVar(&f.initFormat, "init-workers-format", "", "format of --init-workers: csv, tsv, jsonl or parquet (default: by extension, CSV for standard input)")
}

// check refuses inconsistent combinations before any reading.
func (f *trainFlags) check(est model.Estimator, gold string) error {
	if f.trainFraction < 0 || f.trainFraction >= 1 || math.IsNaN(f.trainFraction) {
		return usagef("--train-fraction %v: want a fraction in [0, 1)", f.trainFraction)
	}
	if f.trainFraction > 0 && (gold == "" && f.trainGold == "") {
		return usagef("--train-fraction needs --gold (or --dataset) to split")
	}
	if f.trainFraction > 0 && f.trainGold != "" {
		return usagef("--train-fraction and --train-gold cannot be combined: give one source of training gold")
	}
	if _, gmv := est.(model.GoldMajorityVote); gmv {
		if f.trainGold == "" && f.trainFraction == 0 {
			return usageErr(model.ErrNoTrainingGold)
		}
		if f.initWorkers != "" {
			return usagef("--init-workers sets Dawid-Skene confusion matrices; model gmv has none")
		}
		return nil
	}
	if f.trainGold == "" && f.trainFraction == 0 && f.initWorkers == "" {
		return nil
	}
	m, ok := est.(model.Model)
	if !ok {
		return usagef("--train-gold and --train-fraction need gmv or one of the la-* or da-* models, and --init-workers la-ds or da-ds, not %s", est.Name())
	}
	if f.initWorkers != "" {
		if _, ds := m.Noise.(noise.DS); !ds {
			return usagef("--init-workers sets Dawid-Skene confusion matrices; model %s is not la-ds or da-ds", est.Name())
		}
	}
	return nil
}

// apply returns the estimator and settings to fit and the gold to evaluate
// on: the model with the training gold clamped (latent.WithGold), the start
// vector from --init-workers, and the evaluation gold without the training
// tasks.
func (f *trainFlags) apply(est model.Estimator, set *model.Settings, d *data.Dataset, gold *data.Gold, loadGold func(string, *data.Dataset) (*data.Gold, error), seed uint64) (model.Estimator, *data.Gold, error) {
	m, ok := est.(model.Model)
	gmv, isGMV := est.(model.GoldMajorityVote)
	if !ok && !isGMV {
		return est, gold, nil
	}
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
		train, gold = splitGold(gold, f.trainFraction, seed)
		fmt.Fprintf(os.Stderr, "note: %d gold tasks train the fit (--train-fraction %v, --seed %d), %d evaluate it\n",
			train.Len(), f.trainFraction, seed, gold.Len())
	}
	if train != nil && gold != nil {
		gold = withoutTasks(gold, train)
	}
	if isGMV {
		gmv.Gold = latent.GoldClasses(d, train)
		return gmv, gold, nil
	}
	if train != nil {
		m.Latent = latent.WithGold{Base: m.Latent, Class: latent.GoldClasses(d, train)}
	}
	if f.initWorkers != "" {
		start, n, err := f.startWorkers(m, d)
		if err != nil {
			return nil, nil, err
		}
		fmt.Fprintf(os.Stderr, "note: %d of %d workers start from %s\n", n, d.NumWorkers(), f.initWorkers)
		set.Start = start
	}
	return m, gold, nil
}

// splitGold splits g into a training part of round(fraction·n) tasks drawn
// without replacement by a generator seeded with seed, and the rest, both
// in g's order.
func splitGold(g *data.Gold, fraction float64, seed uint64) (train, rest *data.Gold) {
	n := g.Len()
	m := int(math.Round(fraction * float64(n)))
	rng := rand.New(rand.NewPCG(seed, 0x7a1))
	pick := make([]bool, n)
	for _, i := range rng.Perm(n)[:m] {
		pick[i] = true
	}
	train, rest = &data.Gold{}, &data.Gold{}
	for i := range n {
		dst := rest
		if pick[i] {
			dst = train
		}
		dst.Task = append(dst.Task, g.Task[i])
		dst.Label = append(dst.Label, g.Label[i])
	}
	return train, rest
}

// withoutTasks returns g without the tasks of train, and notes on stderr
// how many were removed.
func withoutTasks(g, train *data.Gold) *data.Gold {
	in := make(map[int32]bool, train.Len())
	for _, t := range train.Task {
		in[t] = true
	}
	out := &data.Gold{Unmatched: g.Unmatched, UnmatchedTasks: g.UnmatchedTasks}
	for i, t := range g.Task {
		if !in[t] {
			out.Task = append(out.Task, t)
			out.Label = append(out.Label, g.Label[i])
		}
	}
	if removed := g.Len() - out.Len(); removed > 0 {
		fmt.Fprintf(os.Stderr, "note: %d gold tasks are also training gold and are left out of the evaluation\n", removed)
	}
	return out
}

// startWorkers returns m's initial parameter vector on d with the DS
// confusion matrices of the workers listed in the --init-workers file, and
// how many workers it set. The file has a "worker" column and one
// "p[z,y]" column for every pair of classes (the form fit --workers
// writes, in any format); each row's probabilities must be finite,
// nonnegative and sum to 1 per latent class z. Zero probabilities are
// raised to 1e-12 before taking logarithms.
func (f *trainFlags) startWorkers(m model.Model, d *data.Dataset) ([]float64, int, error) {
	format, err := data.ParseFormat(f.initFormat)
	if err != nil {
		return nil, 0, usagef("--init-workers-format: %v", err)
	}
	k := d.NumClasses()
	cols := make([]string, 0, k*k)
	for _, cz := range d.Classes {
		for _, cy := range d.Classes {
			cols = append(cols, fmt.Sprintf("p[%s,%s]", cz, cy))
		}
	}
	opt := data.ReadOptions{Context: f.ctx, MaxMemory: f.maxMemory}
	t, err := output.LoadWorkers(f.initWorkers, format, opt, cols)
	if err != nil {
		var ie *data.InputError
		if errors.As(err, &ie) && ie.Hint == data.HintColumns {
			e := *ie
			e.Msg += fmt.Sprintf("; the file must have one p[z,y] column for every pair of the classes %s", strings.Join(d.Classes, ","))
			return nil, 0, &e
		}
		return nil, 0, limitHint(withAdvice(err, readFlags{format: "--init-workers-format"}))
	}
	index := make(map[string]int, d.NumWorkers())
	for w, name := range d.Workers {
		index[name] = w
	}
	x := m.Init(d)
	lay := m.Layout(d)
	set := 0
	for i, name := range t.Workers {
		w, ok := index[name]
		if !ok {
			continue // a worker with no labels here: nothing to start
		}
		row := t.Values[i*k*k : (i+1)*k*k]
		base := lay.W[0] + w*k*k
		for z := range k {
			var sum float64
			for y, p := range row[z*k : (z+1)*k] {
				if p < 0 || math.IsNaN(p) || math.IsInf(p, 0) {
					return nil, 0, &data.InputError{File: f.initWorkers, Line: t.Lines[i], Msg: fmt.Sprintf(
						"p[%s,%s] = %v is not a probability", d.Classes[z], d.Classes[y], p)}
				}
				sum += p
				x[base+z*k+y] = math.Log(max(p, 1e-12))
			}
			if math.Abs(sum-1) > 1e-6 {
				return nil, 0, &data.InputError{File: f.initWorkers, Line: t.Lines[i], Msg: fmt.Sprintf(
					"the row of class %s sums to %v, not 1", d.Classes[z], sum)}
			}
		}
		set++
	}
	return x, set, nil
}
