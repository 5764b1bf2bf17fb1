package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
)

// GoldLines returns the lines of a fit's summary about the gold labels
// (those of "consensus fit --gold"): the scores of r by the rule of
// metrics.Consensus, of its label distributions when it has them, and for
// the frequency baseline its unsmoothed log loss; "" without gold. The
// seed breaks ties of the argmax. GoldLines returns an error wrapping
// ErrArgument if r is nil.
func GoldLines(r *model.Result, gold *data.Gold, seed uint64) (string, error) {
	var b strings.Builder
	if r == nil {
		return "", argErrorf("nil result")
	}
	if gold == nil || gold.Len() == 0 {
		return "", nil
	}
	s, err := r.Consensus().Evaluate(gold, seed)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "gold (%d tasks): accuracy %.4f, log loss %.4f, Brier %.4f, ECE %.4f\n",
		s.N, s.Accuracy, s.LogLoss, s.Brier, s.ECE)
	if r.Distribution != nil {
		q, err := metrics.Consensus{Probs: r.Distribution, K: r.K()}.Evaluate(gold, seed)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "label distribution on gold: accuracy %.4f, log loss %.4f, Brier %.4f, ECE %.4f\n",
			q.Accuracy, q.LogLoss, q.Brier, q.ECE)
	}
	if r.Consensus().Baseline() {
		ll, err := metrics.LogLoss(r.Probs, r.K(), gold)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "(rfe: accuracy averaged over %d tie-breaking draws; log loss, Brier and ECE of add-one smoothed frequencies; unsmoothed log loss %.4f)\n",
			metrics.TieDraws, ll)
	}
	return b.String(), nil
}

// Overconfidence is the gap between the mean confidence of a consensus's
// labels on the gold tasks (the mean over them of max_z p_j(z)) and its
// accuracy there above which the command line suggests calibrating on
// gold (OverconfidentOnGold).
const Overconfidence = 0.05

// MinHintGold is the number of gold tasks below which
// OverconfidentOnGold does not judge: on fewer, the gap is noise.
const MinHintGold = 100

// OverconfidentOnGold reports whether the true-class probabilities of r
// are more confident than the gold labels support: on at least
// MinHintGold gold tasks, the mean of the labels' probabilities exceeds
// the accuracy (the seed breaks ties of the argmax) by more than
// Overconfidence. It returns the mean confidence and the accuracy beside
// the answer; false for the frequency baseline, whose probabilities are
// vote shares.
func OverconfidentOnGold(r *model.Result, gold *data.Gold, seed uint64) (bool, float64, float64, error) {
	if r == nil {
		return false, 0, 0, argErrorf("nil result")
	}
	if gold == nil || gold.Len() < MinHintGold || r.Consensus().Baseline() {
		return false, 0, 0, nil
	}
	s, err := r.Consensus().Evaluate(gold, seed)
	if err != nil {
		return false, 0, 0, err
	}
	k := r.K()
	var conf float64
	for _, j := range gold.Task {
		conf += slices.Max(r.Probs[int(j)*k : int(j+1)*k])
	}
	conf /= float64(gold.Len())
	return conf-s.Accuracy > Overconfidence, conf, s.Accuracy, nil
}
