package metrics

import (
	"math"

	"github.com/consensuslab/consensus/data"
)

// TopClass, passed as the class of ReliabilityFromGold, selects the
// top-class confidence max_c pred_jc instead of the probability of a fixed
// class.
const TopClass = -1

// Bin is one bin of a calibration or reliability diagram.
type Bin struct {
	// Lo and Hi are the edges of the bin on the binned axis: the bin holds
	// the values x with Lo ≤ x < Hi, the last bin also x = 1.
	Lo, Hi float64
	// N is the number of tasks in the bin; it is never 0.
	N int
	// X is the mean over the tasks of the bin of the binned quantity, and Y
	// the mean of the quantity plotted against it. A well calibrated
	// estimate has Y close to X in every bin.
	X, Y float64
}

// Calibration returns the points of a calibration plot of estimated against
// true probabilities of one class, as in the paper's synthetic experiment:
// the tasks are grouped into bins equal-width bins of [0, 1] by their true
// probability x_j = truth_{j,class}, and each bin reports
//
//	X_b = (1/|B_b|) Σ_{j∈B_b} truth_{j,class},  Y_b = (1/|B_b|) Σ_{j∈B_b} pred_{j,class}.
//
// A value x falls in bin ⌊x·bins⌋, clamped to [0, bins-1], so x = 1 falls in
// the last bin. Empty bins are left out, so the result has at most bins
// entries, in increasing order of x. pred and truth are row-major J×k
// matrices. Calibration returns an error wrapping ErrArgument if bins < 1
// or if class is not in [0, k), and the errors of MSE.
func Calibration(pred, truth []float64, k, class, bins int) ([]Bin, error) {
	if err := checkPair(pred, truth, k); err != nil {
		return nil, err
	}
	if err := checkBins(bins); err != nil {
		return nil, err
	}
	if class < 0 || class >= k {
		return nil, errorf(ErrArgument, "class %d out of range [0, %d)", class, k)
	}
	h := newHist(bins)
	for j := 0; j < len(pred)/k; j++ {
		h.add(truth[j*k+class], pred[j*k+class])
	}
	return h.bins(), nil
}

// ReliabilityFromGold returns the points of a reliability diagram of
// predicted probabilities against observed frequencies on gold tasks. For a
// class c in [0, k) the tasks are grouped into bins equal-width bins by their
// predicted probability of c, and each bin reports
//
//	X_b = (1/|B_b|) Σ_{j∈B_b} pred_jc,  Y_b = (1/|B_b|) Σ_{j∈B_b} 1[t_j = c],
//
// the mean prediction and the empirical frequency of c. For class TopClass
// the binned quantity is the top-class confidence max_c pred_jc and Y_b is
// the fraction of tasks whose top class is the true class, ties in the
// argmax being broken at the lowest class index; these are the bins of ECE.
//
// A value x falls in bin ⌊x·bins⌋, clamped to [0, bins-1]. Empty bins are
// left out. ReliabilityFromGold returns no bins if gold has no tasks. It
// returns an error wrapping ErrArgument if bins < 1 or if class is neither
// TopClass nor in [0, k), and the errors of Accuracy.
func ReliabilityFromGold(pred []float64, k int, gold *data.Gold, class, bins int) ([]Bin, error) {
	if err := checkGold(pred, k, gold); err != nil {
		return nil, err
	}
	if err := checkBins(bins); err != nil {
		return nil, err
	}
	if class != TopClass && (class < 0 || class >= k) {
		return nil, errorf(ErrArgument, "class %d is neither TopClass nor in [0, %d)", class, k)
	}
	if size(gold) == 0 {
		return nil, nil
	}
	h := newHist(bins)
	for i, j := range gold.Task {
		r := row(pred, k, int(j))
		t := int(gold.Label[i])
		if class == TopClass {
			c := argmaxLow(r)
			h.add(r[c], indicator(c == t))
		} else {
			h.add(r[class], indicator(class == t))
		}
	}
	return h.bins(), nil
}

// ECE returns the expected calibration error of the top-class confidence
// over the gold tasks, with bins equal-width bins of [0, 1]:
//
//	ECE = Σ_b (|B_b|/n) |acc_b - conf_b|,
//
// where n is the number of gold tasks, B_b the tasks whose confidence
// conf_j = max_c pred_jc falls in bin b (bin ⌊conf_j·bins⌋, clamped to
// [0, bins-1]), conf_b the mean confidence of B_b and acc_b the fraction of
// B_b whose argmax equals the true class, ties in the argmax being broken at
// the lowest class index (so ECE uses no randomness). These are the bins of
// ReliabilityFromGold with class TopClass. ECE lies in [0, 1] and is 0 for
// a perfectly calibrated prediction. It returns NaN if gold has no tasks.
// It returns an error wrapping ErrArgument if bins < 1, and the errors of
// Accuracy.
func ECE(pred []float64, k int, gold *data.Gold, bins int) (float64, error) {
	bs, err := ReliabilityFromGold(pred, k, gold, TopClass, bins)
	if err != nil {
		return 0, err
	}
	n := size(gold)
	if n == 0 {
		return math.NaN(), nil
	}
	var sum float64
	for _, b := range bs {
		sum += float64(b.N) * math.Abs(b.Y-b.X)
	}
	return sum / float64(n), nil
}

// hist accumulates (x, y) pairs into equal-width bins of x over [0, 1].
type hist struct {
	n      []int
	sx, sy []float64
}

func newHist(bins int) *hist {
	return &hist{n: make([]int, bins), sx: make([]float64, bins), sy: make([]float64, bins)}
}

func (h *hist) add(x, y float64) {
	nb := len(h.n)
	b := int(math.Floor(x * float64(nb)))
	b = max(0, min(b, nb-1))
	h.n[b]++
	h.sx[b] += x
	h.sy[b] += y
}

// bins returns the non-empty bins in increasing order.
func (h *hist) bins() []Bin {
	nb := float64(len(h.n))
	var out []Bin
	for b, n := range h.n {
		if n == 0 {
			continue
		}
		out = append(out, Bin{
			Lo: float64(b) / nb,
			Hi: float64(b+1) / nb,
			N:  n,
			X:  h.sx[b] / float64(n),
			Y:  h.sy[b] / float64(n),
		})
	}
	return out
}

// argmaxLow returns the lowest index of the maximum of r.
func argmaxLow(r []float64) int {
	best := 0
	for c, v := range r {
		if v > r[best] {
			best = c
		}
	}
	return best
}

func indicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// checkBins returns an error wrapping ErrArgument if bins < 1.
func checkBins(bins int) error {
	if bins < 1 {
		return errorf(ErrArgument, "bins = %d, need at least 1", bins)
	}
	return nil
}
