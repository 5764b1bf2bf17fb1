package compare

import (
	"fmt"
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
