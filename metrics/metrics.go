package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
)

// Metric is the signature shared by the gold-based scores of this package
// that need no other argument, such as LogLoss and Brier. Bootstrap takes a
// Metric; wrap Accuracy or ECE in a closure to fix their extra argument.
type Metric func(pred []float64, k int, gold *data.Gold) (float64, error)

// The errors of invalid arguments wrap one of these sentinels, which
// callers test with errors.Is. Their messages name the argument and the
// value at fault.
var (
	// ErrShape is wrapped by the error of arguments whose sizes do not
	// agree: k < 1 (k < 2 for LogLoss), a prediction whose length is not a
	// multiple of k, a prediction and a truth of different lengths, a gold
	// set with more tasks than labels or the other way round, a gold
	// task or class out of the range of the prediction, or consensus
	// classes or skills that are not one per task or worker of their data
	// set.
	ErrShape = errors.New("metrics: shapes do not agree")
	// ErrProbability is wrapped by the error of a probability that a score
	// reads and that is NaN, or negative for LogLoss.
	ErrProbability = errors.New("metrics: invalid probability")
	// ErrArgument is wrapped by the error of an invalid setting: fewer
	// than one bin, draw or bootstrap replicate, a confidence level
	// outside (0, 1), a class out of range, a bootstrap of an empty
	// gold set, or a nil data set.
	ErrArgument = errors.New("metrics: invalid argument")
)

// argError is an error of this package: its message, and the sentinel it
// wraps.
type argError struct {
	kind error
	msg  string
}

func (e *argError) Error() string { return "metrics: " + e.msg }
func (e *argError) Unwrap() error { return e.kind }

// errorf returns an error wrapping kind with the message format gives.
func errorf(kind error, format string, args ...any) error {
	return &argError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// Accuracy returns the fraction of gold tasks whose predicted class equals
// the true class,
//
//	acc = (1/|T|) Σ_{j∈T} 1[t̂_j = t_j],  t̂_j = argmax_c pred_jc,
//
// where T is the set of gold tasks and t_j the true class of task j.
//
// Exactly equal maxima are ties. A tie of task j is broken uniformly at
// random by a math/rand/v2 PCG generator seeded with (seed, j), the rule of
// model.Argmax, so the result is deterministic for a given seed and a tie's
// outcome depends on the seed and the task only. Rows without a tie use no
// randomness.
//
// pred is a row-major J×k matrix: row j is the distribution over the k
// classes of task j. Accuracy returns NaN if gold has no tasks. It returns
// an error wrapping ErrShape if k < 1, if len(pred) is not a multiple of k
// or if a gold task or class is out of range, and one wrapping
// ErrProbability if a probability it reads is NaN.
func Accuracy(pred []float64, k int, gold *data.Gold, seed uint64) (float64, error) {
	if err := checkGold(pred, k, gold); err != nil {
		return 0, err
	}
	n := size(gold)
	if n == 0 {
		return math.NaN(), nil
	}
	var ties []int
	correct := 0
	for i, j := range gold.Task {
		ties = maxima(ties[:0], row(pred, k, int(j)))
		c := ties[0]
		if len(ties) > 1 {
			rng := rand.New(rand.NewPCG(seed, uint64(j)))
			c = ties[rng.IntN(len(ties))]
		}
		if c == int(gold.Label[i]) {
			correct++
		}
	}
	return float64(correct) / float64(n), nil
}

// MeanAccuracy returns the mean of Accuracy over draws tie-breaking draws,
//
//	(1/D) Σ_{d=0}^{D-1} Accuracy(pred, k, gold, seed+d),
//
// the paper's remedy for ties of the relative frequency estimator (RFE),
// whose accuracy it averages over 10 draws. MeanAccuracy(pred, k, gold, seed,
// 1) equals Accuracy(pred, k, gold, seed); as draws grows the mean tends to
// ExpectedAccuracy. It returns an error wrapping ErrArgument if draws < 1,
// and the errors of Accuracy.
func MeanAccuracy(pred []float64, k int, gold *data.Gold, seed uint64, draws int) (mean float64, err error) {
	if draws < 1 {
		return 0, errorf(ErrArgument, "draws = %d, need at least 1", draws)
	}
	var sum float64
	for d := range draws {
		a, err := Accuracy(pred, k, gold, seed+uint64(d))
		if err != nil {
			return 0, err
		}
		sum += a
	}
	return sum / float64(draws), nil
}

// ExpectedAccuracy returns the expectation of Accuracy over uniform random
// tie-breaking,
//
//	(1/|T|) Σ_{j∈T} 1[t_j ∈ M_j] / |M_j|,
//
// where M_j is the set of classes attaining the maximum of row j. It uses no
// randomness, and equals Accuracy when no row has a tie. It returns NaN if
// gold has no tasks, and the errors of Accuracy.
func ExpectedAccuracy(pred []float64, k int, gold *data.Gold) (float64, error) {
	if err := checkGold(pred, k, gold); err != nil {
		return 0, err
	}
	n := size(gold)
	if n == 0 {
		return math.NaN(), nil
	}
	var ties []int
	var sum float64
	for i, j := range gold.Task {
		ties = maxima(ties[:0], row(pred, k, int(j)))
		for _, c := range ties {
			if c == int(gold.Label[i]) {
				sum += 1 / float64(len(ties))
				break
			}
		}
	}
	return sum / float64(n), nil
}

// LogLoss returns the mean negative log-likelihood of the true classes in
// base k, the paper's log loss,
//
//	logloss = -(1/|T|) Σ_{j∈T} log_k pred_{j,t_j} = -(1/|T|) Σ_{j∈T} ln pred_{j,t_j} / ln k,
//
// so that the uniform prediction pred_jc = 1/k scores exactly 1 for every
// k, a perfect prediction scores 0, and lower is better.
//
// LogLoss returns +Inf if the probability of some true class is 0; it never
// returns NaN for a non-empty gold set. Relative frequencies (RFE) often
// give a true class probability 0; the paper scores them after add-one
// smoothing, see AddOne. LogLoss returns NaN if gold has no tasks. It
// returns an error wrapping ErrShape if k < 2, one wrapping ErrProbability
// if a probability it reads is negative, and the errors of Accuracy.
func LogLoss(pred []float64, k int, gold *data.Gold) (float64, error) {
	if k < 2 {
		return 0, errorf(ErrShape, "log loss needs k ≥ 2 classes, have %d", k)
	}
	if err := checkGold(pred, k, gold); err != nil {
		return 0, err
	}
	n := size(gold)
	if n == 0 {
		return math.NaN(), nil
	}
	var sum float64
	for i, j := range gold.Task {
		p := pred[int(j)*k+int(gold.Label[i])]
		if p < 0 {
			return 0, errorf(ErrProbability, "negative probability %v for task %d", p, j)
		}
		sum += math.Log(p) // -Inf for p = 0; sum stays -Inf
	}
	return -sum / (float64(n) * math.Log(float64(k))), nil
}

// Brier returns the mean Brier score over the gold tasks,
//
//	brier = (1/|T|) Σ_{j∈T} Σ_{c=1}^{k} (pred_jc - 1[c = t_j])²,
//
// which is 0 for a perfect prediction, 1 - 1/k for the uniform one, and at
// most 2. It returns NaN if gold has no tasks, and the errors of Accuracy.
func Brier(pred []float64, k int, gold *data.Gold) (float64, error) {
	if err := checkGold(pred, k, gold); err != nil {
		return 0, err
	}
	n := size(gold)
	if n == 0 {
		return math.NaN(), nil
	}
	var sum float64
	for i, j := range gold.Task {
		t := int(gold.Label[i])
		for c, p := range row(pred, k, int(j)) {
			if c == t {
				p--
			}
			sum += p * p
		}
	}
	return sum / float64(n), nil
}

// MSE returns the mean squared error between estimated and true
// distributions, for synthetic data where the latent distributions are
// known,
//
//	mse = (1/J) Σ_{j=1}^{J} (1/2) Σ_{c=1}^{k} (pred_jc - truth_jc)².
//
// For k = 2 both classes have the same error, so this is the paper's
// (1/N) Σ_j (q̂_j - q_j)² with q_j the probability of class 1 (the second
// class). For general k it is half the squared Euclidean distance, which
// lies in [0, 1] for probability vectors. pred and truth are row-major J×k
// matrices. MSE returns NaN if they are empty. It returns an error wrapping
// ErrShape if k < 1 or if the lengths differ or are not a multiple of k,
// and one wrapping ErrProbability if an entry is NaN.
func MSE(pred, truth []float64, k int) (float64, error) {
	if err := checkPair(pred, truth, k); err != nil {
		return 0, err
	}
	if len(pred) == 0 {
		return math.NaN(), nil
	}
	var sum float64
	for i, p := range pred {
		d := p - truth[i]
		sum += d * d
	}
	return sum / 2 / float64(len(pred)/k), nil
}

// AddOne returns add-one (Laplace) smoothed distributions of label counts,
//
//	out_jc = (counts_jc + 1) / (n_j + k),  n_j = Σ_c counts_jc,
//
// where counts is a row-major J×k matrix of counts, such as
// data.Dataset.Counts. A row with no labels becomes uniform. The paper
// applies it to the relative frequency estimator for the log loss only, to
// avoid infinite losses; accuracy is computed from the unsmoothed
// frequencies, which have the same argmax.
//
// AddOne panics if k < 1 or if len(counts) is not a multiple of k: counts
// and k come together from a data set (data.Dataset.Counts and NumClasses),
// so a mismatch is a programming error, as for gonum's mat.NewDense.
func AddOne(counts []float64, k int) []float64 {
	if err := checkShape(counts, k); err != nil {
		panic(err.Error())
	}
	out := make([]float64, len(counts))
	for j := 0; j < len(counts)/k; j++ {
		r := row(counts, k, j)
		var n float64
		for _, c := range r {
			n += c
		}
		for c, v := range r {
			out[j*k+c] = (v + 1) / (n + float64(k))
		}
	}
	return out
}

// size returns the number of gold tasks; a nil gold is empty.
func size(g *data.Gold) int {
	if g == nil {
		return 0
	}
	return len(g.Task)
}

// row returns row j of the row-major matrix p with k columns.
func row(p []float64, k, j int) []float64 { return p[j*k : (j+1)*k] }

// maxima appends to dst the indices of the entries of r equal to its
// maximum and returns it. r holds no NaN (checkGold has checked it), so
// the result is never empty.
func maxima(dst []int, r []float64) []int {
	best := math.Inf(-1)
	for c, v := range r {
		switch {
		case v > best:
			best = v
			dst = append(dst[:0], c)
		case v == best:
			dst = append(dst, c)
		}
	}
	return dst
}

// checkShape returns an error wrapping ErrShape unless p is a row-major
// matrix of k ≥ 1 columns.
func checkShape(p []float64, k int) error {
	if k < 1 {
		return errorf(ErrShape, "k = %d classes, need at least 1", k)
	}
	if len(p)%k != 0 {
		return errorf(ErrShape, "length %d is not a multiple of k = %d", len(p), k)
	}
	return nil
}

// checkPair returns an error unless pred and truth are matrices of k
// columns of one length, without NaN.
func checkPair(pred, truth []float64, k int) error {
	if err := checkShape(pred, k); err != nil {
		return err
	}
	if len(pred) != len(truth) {
		return errorf(ErrShape, "length mismatch: pred %d, truth %d", len(pred), len(truth))
	}
	for i := range pred {
		if math.IsNaN(pred[i]) || math.IsNaN(truth[i]) {
			return errorf(ErrProbability, "NaN probability for task %d", i/k)
		}
	}
	return nil
}

// checkGold returns an error unless gold refers to rows and classes of
// pred and those rows hold no NaN. A nil gold is an empty one.
func checkGold(pred []float64, k int, gold *data.Gold) error {
	if err := checkShape(pred, k); err != nil {
		return err
	}
	if gold == nil {
		return nil
	}
	if len(gold.Task) != len(gold.Label) {
		return errorf(ErrShape, "gold has %d tasks but %d labels", len(gold.Task), len(gold.Label))
	}
	nt := len(pred) / k
	for i, j := range gold.Task {
		if j < 0 || int(j) >= nt {
			return errorf(ErrShape, "gold task %d out of range [0, %d)", j, nt)
		}
		if int(gold.Label[i]) >= k {
			return errorf(ErrShape, "gold class %d of task %d out of range [0, %d)", gold.Label[i], j, k)
		}
		for _, v := range row(pred, k, int(j)) {
			if math.IsNaN(v) {
				return errorf(ErrProbability, "NaN probability for task %d", j)
			}
		}
	}
	return nil
}
