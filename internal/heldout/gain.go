package heldout

import (
	"context"
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/pool"
	"github.com/consensuslab/consensus/model"
)

// A Fitter fits one model to a training set.
type Fitter func(ctx context.Context, train *data.Dataset) (*model.Result, error)

// The splits of Gain: compare.Auto's.
const (
	// Fraction is the share of every task's labels held out in a split.
	Fraction = 0.2
	// Splits is the number of splits.
	Splits = 3
)

// Gain returns how much better b predicts held-out labels than a: the mean
// over the held-out labels of log_K P_b(y) − log_K P_a(y) (LogLik), on
// Splits splits of d (of a subsample of whole tasks with about maxLabels
// labels where d has more and maxLabels > 0) drawn with seed, each
// holding out Fraction of every task's labels, and the standard error of
// that mean over the tasks (each task's labels of all splits are one
// draw). A positive gain of several standard errors says b's model of the
// workers and the truth predicts new labels better. Where b does not beat
// a on the first split, the others are not fitted (a third of the cost
// where b loses). The two fits of a split run on up to threads goroutines
// (zero: one per core), and the result does not depend on their number. Gain returns the first error of a fit; it
// returns zero gain and infinite error when no label is held out.
func Gain(ctx context.Context, d *data.Dataset, seed uint64, maxLabels, threads int, a, b Fitter) (gain, se float64, err error) {
	if maxLabels > 0 && d.NumLabels() > maxLabels {
		d = Subsample(d, maxLabels, seed)
	}
	nt := d.NumTasks()
	diff := make([]float64, nt) // per task: summed log_K P_b − log_K P_a
	count := make([]float64, nt)
	fits := []Fitter{a, b}
	for s := range Splits {
		tr, held := Split(d, Fraction, seed, s)
		if len(held) == 0 {
			continue
		}
		// The two fits of a split run side by side, each into its slot.
		var sums, counts [2][]float64
		err := pool.Run(ctx, 2, pool.Settings{Threads: threads}, func(i int) error {
			r, err := fits[i](ctx, tr)
			if err != nil {
				return err
			}
			sums[i], counts[i] = LogLik(r, tr, held)
			return nil
		})
		if err != nil {
			return 0, 0, err
		}
		var split float64
		for j := range nt {
			diff[j] += sums[1][j] - sums[0][j]
			count[j] += counts[0][j]
			split += sums[1][j] - sums[0][j]
		}
		if s == 0 && !(split > 0) {
			break // b does not beat a on the first split: no more splits
		}
	}
	// The ratio estimator's mean and its standard error over tasks.
	var total, labels float64
	var tasks int
	for j, c := range count {
		if c > 0 {
			total += diff[j]
			labels += c
			tasks++
		}
	}
	if labels == 0 {
		return 0, math.Inf(1), nil
	}
	gain = total / labels
	var v float64
	for j, c := range count {
		if c > 0 {
			e := diff[j] - gain*c
			v += e * e
		}
	}
	mean := labels / float64(tasks)
	se = math.Sqrt(v/float64(max(tasks-1, 1))/float64(tasks)) / mean
	return gain, se, nil
}
