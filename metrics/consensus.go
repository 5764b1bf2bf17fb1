package metrics

import "github.com/consensuslab/consensus/data"

// TieDraws is the number of seeded tie-breaking draws whose mean accuracy
// scores a frequency baseline (the paper's footnote): the draws use the
// seeds seed, seed+1, …, seed+TieDraws-1 (see MeanAccuracy).
const TieDraws = 10

// Consensus is a consensus to score on gold labels, with the rule it is
// scored by. A fitted model is scored on its own probabilities. The
// relative frequency estimator (RFE, and majority vote, its argmax) is the
// paper's baseline and is scored by the paper's rule for it: its log loss,
// Brier score, calibration error and reliability use the add-one smoothed
// frequencies (AddOne), which are never exactly 0, and its accuracy, whose
// argmax has many ties, is the mean over TieDraws seeded tie-breaking
// draws.
type Consensus struct {
	// Probs is the row-major J×K matrix of consensus distributions.
	Probs []float64
	// K is the number of classes.
	K int
	// Counts is nil for a fitted model. For a frequency baseline it holds
	// the J×K label counts (data.Dataset.Counts) whose relative
	// frequencies are Probs.
	Counts []float64
}

// Baseline reports whether c is a frequency baseline, scored by the
// baseline's rule.
func (c Consensus) Baseline() bool { return c.Counts != nil }

// Scored returns the probabilities that the probabilistic scores (LogLoss,
// Brier, ECE, reliability diagrams, held-out likelihoods) use: the add-one
// smoothed counts for a frequency baseline, Probs otherwise. The argmax
// and the ties of every row are those of Probs.
// Like AddOne, it panics if Counts is not a matrix of K columns.
func (c Consensus) Scored() []float64 {
	if c.Baseline() {
		return AddOne(c.Counts, c.K)
	}
	return c.Probs
}

// AccuracyMetric returns the accuracy rule of c as a Metric of the scored
// probabilities (for Bootstrap): MeanAccuracy over TieDraws draws for a
// frequency baseline, Accuracy otherwise, ties broken with seed. The
// smoothed and the raw frequencies have the same exact ties, so the
// baseline's accuracy is the same whichever of the two it is given.
func (c Consensus) AccuracyMetric(seed uint64) Metric {
	if c.Baseline() {
		return func(p []float64, k int, g *data.Gold) (float64, error) { return MeanAccuracy(p, k, g, seed, TieDraws) }
	}
	return func(p []float64, k int, g *data.Gold) (float64, error) { return Accuracy(p, k, g, seed) }
}

// Accuracy returns the accuracy of c on gold by c's rule (see
// AccuracyMetric), ties broken with seed, and the errors of Accuracy.
func (c Consensus) Accuracy(gold *data.Gold, seed uint64) (float64, error) {
	return c.AccuracyMetric(seed)(c.Probs, c.K, gold)
}

// Evaluate returns the scores of c on gold by c's rule: Evaluate of the
// scored probabilities, with the accuracy of c.Accuracy. It returns the
// errors of Evaluate.
func (c Consensus) Evaluate(gold *data.Gold, seed uint64) (Summary, error) {
	if c.Baseline() {
		if err := checkShape(c.Counts, c.K); err != nil {
			return Summary{}, err
		}
		if len(c.Counts) != len(c.Probs) {
			return Summary{}, errorf(ErrShape, "length mismatch: counts %d, probabilities %d", len(c.Counts), len(c.Probs))
		}
	}
	s, err := Evaluate(c.Scored(), c.K, gold, seed)
	if err != nil {
		return Summary{}, err
	}
	if c.Baseline() {
		s.Accuracy, err = c.Accuracy(gold, seed)
	}
	return s, err
}
