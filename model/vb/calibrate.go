package vb

import (
	"fmt"
	"math"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/shared"
	"github.com/consensuslab/consensus/internal/unvoted"
	"github.com/consensuslab/consensus/model/internal/ambiguity"
	"github.com/consensuslab/consensus/model/internal/temper"
)

// TruthFloor is the share of the uniform distribution mixed into every
// calibrated true-class posterior (see temper.Truth): a class the fit
// rules out keeps probability TruthFloor/K, so that a task on which the
// truth disagrees with the whole crowd costs a bounded log loss.
const TruthFloor = 1e-3

// ambiguousTruth weighs the evidence for, and computes, the posterior of
// the true class under ambiguity (package ambiguity) that replaces the
// posteriors probs (J×K) of an LA fit on d where the labels ask for it:
// each task's label distribution q_j = (1 − λ)·e_z + λ·e_d near the vertex
// of its true class z, λ ~ Beta(U, V) and the
// distractor d drawn from the other classes in proportion to their share
// of the labels (unvoted.LabelShares), every label's subjective
// class drawn from q_j, the workers' conditionals those of the fit
// deconvolved by the mean of λ (Labels.SetMean) and the class prior the
// mean of the fit's posteriors. U and V maximise the marginal likelihood
// of the labels of a sample of tasks (empirical Bayes); the posterior
// replaces LA's only when that likelihood beats LA's, at the best of the
// same deconvolutions, by more than the logarithm of the number of tasks
// sampled (the Bayesian information criterion's price of two parameters).
// Its posterior is then tempered as temper.Truth tempers LA's, by the τ ∈
// [temper.Min, 1] that best predicts each label from its task's others,
// here under the same model (ambiguity.HeldOut: the labels of a task
// depend on each other given its class, through λ), and TruthFloor of the
// uniform distribution is mixed in; tasks of known class keep their
// one-hot row, and tasks of more than ambiguity.MaxLabels labels LA's
// posterior, tempered alike. Untempered, it was overconfident on the
// simulated regime "ambiguous" (ECE 0.033 and 0.049 on seeds 1 and 2;
// tempered by 0.88 and 0.83, 0.010 and 0.015).
//
// It returns the evidence for the ambiguity model, its gain less its price
// (taken when positive), and the function that replaces probs by its
// posterior and returns the method's description and a copy of the LA
// posteriors, for temper.Truth's temperature.
func (b Bayes) ambiguousTruth(d *data.Dataset, probs []float64, cond func(w int32, j, z int, p []float64), workerOnly bool) (float64, func() (string, []float64)) {
	prior := shared.ClassPrior(d, probs)
	l := ambiguity.NewLabels(d, cond, workerOnly, unvoted.LabelShares(d))
	s := ambiguity.NewSample(l, prior, b.Gold)
	pr, gain := s.Estimate()
	net := gain - math.Log(float64(max(s.Tasks(), 2)))
	return net, func() (string, []float64) {
		la := slices.Clone(probs)
		ambiguity.Posterior(l, pr, prior, b.Gold, 0, probs)
		tau := 1.0
		if loo, pc := ambiguity.HeldOut(l, pr, prior, b.Gold, temper.Entries); len(loo) > 0 {
			tau = temper.Best(loo, pc, d.NumClasses())
		}
		temper.Rows(probs, d.NumClasses(), b.Gold, tau, TruthFloor)
		return fmt.Sprintf("true class ambiguous around it (λ ~ Beta(%.3g, %.3g), %.3g nats above LA, tempered by %.3g)", pr.U, pr.V, gain, tau), la
	}
}
