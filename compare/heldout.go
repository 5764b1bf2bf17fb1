package compare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/heldout"
	"github.com/consensuslab/consensus/model"
)

// HeldLabel is a label left out of a training split.
type HeldLabel = heldout.Label

// ErrArgument is wrapped by the errors of the functions of this package
// given an invalid argument: a nil data set or result, a fraction out of
// range, held-out labels that name no task, worker or class of their
// training set, or a result fitted to another data set. Callers test it
// with errors.Is.
var ErrArgument = errors.New("compare: invalid argument")

// argErrorf returns an error wrapping ErrArgument with the message format
// gives.
func argErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrArgument}, args...)...)
}

// Split returns a training data set with a fraction frac of every object's
// labels held out, and the held-out labels. An object with n ≥ 2 labels
// loses min(n − 1, h) of them, h = ⌊frac·n⌋ or that plus one with
// probability frac·n − ⌊frac·n⌋ (on average frac·n), chosen uniformly at
// random by a PCG generator seeded with (seed, split); an object with one
// label keeps it. (Holding out at least one label of every object would
// leave every object of two labels with one: no two workers would meet,
// and no worker model could be learned from the training set.) The training set has the same tasks, workers and classes
// (and indices) as d; a worker may have no training labels left. Split
// returns an error wrapping ErrArgument if d is nil or frac is not in
// [0, 1].
func Split(d *data.Dataset, frac float64, seed uint64, split int) (*data.Dataset, []HeldLabel, error) {
	if d == nil {
		return nil, nil, argErrorf("nil data set")
	}
	if !(frac >= 0 && frac <= 1) {
		return nil, nil, argErrorf("held-out fraction %v not in [0, 1]", frac)
	}
	tr, held := splitLabels(d, frac, seed, split)
	return tr, held, nil
}

// splitLabels is Split of a data set and a fraction that are valid.
func splitLabels(d *data.Dataset, frac float64, seed uint64, split int) (*data.Dataset, []HeldLabel) {
	return heldout.Split(d, frac, seed, split)
}

// HeldOutLogLik returns, for every object, the sum over its held-out
// labels of log_K P(y) under the fitted result r (fitted to train), as the
// package documentation describes, and the number of held-out labels per
// object. It returns an error wrapping ErrArgument if r or train is nil,
// if r was not fitted to a data set of train's tasks and classes, or if a
// held-out label names a task, worker or class that train does not have.
func HeldOutLogLik(r *model.Result, train *data.Dataset, held []HeldLabel) (sum []float64, n []float64, err error) {
	if err := checkHeld(r, train, held); err != nil {
		return nil, nil, err
	}
	sum, n = heldOutLogLik(r, train, held)
	return sum, n, nil
}

// checkHeld returns an error wrapping ErrArgument unless r is a result
// fitted to a data set of train's tasks and classes and held names tasks,
// workers and classes of train.
func checkHeld(r *model.Result, train *data.Dataset, held []HeldLabel) error {
	switch {
	case r == nil:
		return argErrorf("nil result")
	case r.Data == nil:
		return argErrorf("result without its data set")
	case train == nil:
		return argErrorf("nil training set")
	}
	k, nt := train.NumClasses(), train.NumTasks()
	if r.K() != k || len(r.Probs) != nt*k {
		return argErrorf("result of %d values for %d classes, training set of %d tasks and %d classes", len(r.Probs), r.K(), nt, k)
	}
	for i, h := range held {
		switch {
		case h.Task < 0 || h.Task >= nt:
			return argErrorf("held-out label %d: task %d out of range [0, %d)", i, h.Task, nt)
		case h.Worker < 0 || int(h.Worker) >= train.NumWorkers():
			return argErrorf("held-out label %d: worker %d out of range [0, %d)", i, h.Worker, train.NumWorkers())
		case int(h.Label) >= k:
			return argErrorf("held-out label %d: class %d out of range [0, %d)", i, h.Label, k)
		}
	}
	return nil
}

// heldOutLogLik is HeldOutLogLik of arguments that checkHeld accepts.
func heldOutLogLik(r *model.Result, train *data.Dataset, held []HeldLabel) (sum []float64, n []float64) {
	return heldout.LogLik(r, train, held)
}

func runHeldOut(ctx context.Context, d *data.Dataset, ests []model.Estimator, opt Settings) (*Report, error) {
	trains, helds, jobs := splitJobs(d, len(ests), opt.Splits, opt.HoldOutFraction, opt.Seed)
	var set model.Settings
	if opt.Fit != nil {
		set = *opt.Fit
	}
	if set.Ridge == 0 && opt.HeldOutRidge > 0 {
		set.Ridge = opt.HeldOutRidge
	}
	opt.Fit = &set
	fits, err := fitAll(ctx, ests, jobs, opt)
	if err != nil {
		return nil, err
	}
	nt := d.NumTasks()
	// Per model, per object: summed held-out log_K likelihood over all
	// splits, and the number of held-out labels.
	sums := make([][]float64, len(ests))
	counts := make([]float64, nt)
	rows := make([]Row, len(ests))
	for i := range rows {
		rows[i] = Row{Model: ests[i].Name(), Converged: true}
		sums[i] = make([]float64, nt)
		nan := Interval{math.NaN(), math.NaN(), math.NaN()}
		rows[i].Accuracy, rows[i].LogLoss, rows[i].Brier, rows[i].ECE = nan, nan, nan, nan
	}
	for ji, jb := range jobs {
		f := fits[ji]
		row := &rows[jb.model]
		row.Runtime += f.dur
		if f.err != nil {
			row.Err = f.err
			continue
		}
		if !f.res.Converged {
			row.Converged = false
		}
		s, _ := heldOutLogLik(f.res, trains[jb.split], helds[jb.split])
		for j := range s {
			sums[jb.model][j] += s[j]
		}
	}
	for _, hs := range helds {
		for _, h := range hs {
			counts[h.Task]++
		}
	}
	var objs []int // objects with held-out labels
	var total float64
	for j, c := range counts {
		if c > 0 {
			objs = append(objs, j)
			total += c
		}
	}
	score := func(i int, pick []int) float64 {
		if rows[i].Err != nil {
			return math.NaN()
		}
		var s, c float64
		for _, j := range pick {
			s += sums[i][j]
			c += counts[j]
		}
		return -s / c
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0xb007))
	reps := make([][]float64, len(ests))
	wins := make([]float64, len(ests))
	pick := make([]int, len(objs))
	vals := make([]float64, len(ests))
	for range opt.Bootstrap {
		for i := range pick {
			pick[i] = objs[rng.IntN(len(objs))]
		}
		for i := range ests {
			vals[i] = score(i, pick)
			reps[i] = append(reps[i], vals[i])
		}
		credit(wins, vals, false)
	}
	for i := range rows {
		v := score(i, objs)
		lo, hi := math.NaN(), math.NaN()
		if len(reps[i]) > 0 {
			lo, hi = quantiles(reps[i], opt.Level)
		}
		rows[i].HeldOut = Interval{v, lo, hi}
		rows[i].Score = rows[i].HeldOut
		rows[i].First = wins[i] / float64(max(opt.Bootstrap, 1))
	}
	return finish(rows, opt, int(total), opt.Splits), nil
}

// splitJobs returns the training sets and held-out labels of the splits
// of d (Split with frac, seed and split 0, …, splits − 1) and the fits of
// every one of n models to every training set, split by split.
func splitJobs(d *data.Dataset, n, splits int, frac float64, seed uint64) ([]*data.Dataset, [][]HeldLabel, []job) {
	trains := make([]*data.Dataset, splits)
	helds := make([][]HeldLabel, splits)
	var jobs []job
	for s := range splits {
		trains[s], helds[s] = splitLabels(d, frac, seed, s)
		for i := range n {
			jobs = append(jobs, job{model: i, split: s, d: trains[s]})
		}
	}
	return trains, helds, jobs
}
