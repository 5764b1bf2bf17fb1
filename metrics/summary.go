package metrics

import (
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/consensuslab/consensus/data"
)

// DefaultBins is the number of equal-width bins Evaluate uses for ECE.
const DefaultBins = 10

// Summary holds the gold-based scores of one prediction.
type Summary struct {
	// Accuracy is Accuracy with the seed given to Evaluate.
	Accuracy float64
	// LogLoss is LogLoss, in base k; the uniform prediction scores 1.
	LogLoss float64
	// Brier is Brier.
	Brier float64
	// ECE is ECE with DefaultBins bins.
	ECE float64
	// N is the number of gold tasks scored.
	N int
}

// Evaluate returns the Accuracy (ties broken with seed), LogLoss, Brier
// score and ECE (with DefaultBins bins) of pred on the gold tasks. For an
// empty gold set the scores are NaN and N is 0. It returns the errors of
// LogLoss.
func Evaluate(pred []float64, k int, gold *data.Gold, seed uint64) (Summary, error) {
	// LogLoss checks everything the other scores check, and k ≥ 2.
	ll, err := LogLoss(pred, k, gold)
	if err != nil {
		return Summary{}, err
	}
	s := Summary{LogLoss: ll, N: size(gold)}
	s.Accuracy, _ = Accuracy(pred, k, gold, seed)
	s.Brier, _ = Brier(pred, k, gold)
	s.ECE, _ = ECE(pred, k, gold, DefaultBins)
	return s, nil
}

// Bootstrap returns a percentile bootstrap confidence interval [lo, hi] for
// metric at confidence level level (0.95 for a 95% interval). Each of the
// reps replicates draws n gold tasks with replacement from the n gold
// tasks, with a math/rand/v2 PCG generator seeded with seed, so the
// interval is deterministic for a given seed, and evaluates metric on them;
// with the replicate values sorted, lo is the smallest value not below a
// fraction (1-level)/2 of them and hi the smallest not below a fraction
// (1+level)/2 (stat.Quantile with stat.Empirical).
//
// Only the gold tasks are resampled: pred is passed unchanged, so the
// interval reflects the sampling variability of the test set, not of the
// fit. A replicate may hold a task several times, and metric must not keep
// the *data.Gold it is given, whose slices are reused. Wrap metrics with
// extra arguments in a closure, for example
//
//	acc := func(p []float64, k int, g *data.Gold) float64 { return Accuracy(p, k, g, seed) }
//
// Infinite replicate values (LogLoss) are ordered as usual; if a replicate
// value is NaN, both bounds are NaN. Bootstrap returns an error wrapping
// ErrArgument if reps < 1, if level is not in (0, 1) or if gold has no
// tasks, the errors of Accuracy, and the first error of metric.
func Bootstrap(pred []float64, k int, gold *data.Gold, metric Metric, reps int, seed uint64, level float64) (lo, hi float64, err error) {
	if reps < 1 {
		return 0, 0, errorf(ErrArgument, "reps = %d, need at least 1", reps)
	}
	if !(level > 0 && level < 1) {
		return 0, 0, errorf(ErrArgument, "level = %v, need 0 < level < 1", level)
	}
	if err := checkGold(pred, k, gold); err != nil {
		return 0, 0, err
	}
	n := size(gold)
	if n == 0 {
		return 0, 0, errorf(ErrArgument, "bootstrap of an empty gold set")
	}
	rng := rand.New(rand.NewPCG(seed, 0xb007))
	rep := &data.Gold{Task: make([]int32, n), Label: make([]uint16, n)}
	vals := make([]float64, reps)
	for r := range vals {
		for i := range n {
			s := rng.IntN(n)
			rep.Task[i] = gold.Task[s]
			rep.Label[i] = gold.Label[s]
		}
		if vals[r], err = metric(pred, k, rep); err != nil {
			return 0, 0, err
		}
	}
	slices.Sort(vals)
	lo = stat.Quantile((1-level)/2, stat.Empirical, vals, nil)
	hi = stat.Quantile((1+level)/2, stat.Empirical, vals, nil)
	return lo, hi, nil
}
