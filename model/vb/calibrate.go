package vb

import (
	"fmt"
	"math"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/shared"
	"github.com/consensuslab/consensus/model/internal/ambiguity"
	"github.com/consensuslab/consensus/model/internal/temper"
)

// TruthFloor is the share of the uniform distribution mixed into every
// calibrated true-class posterior (see temperTruth): a class the fit
// rules out keeps probability TruthFloor/K, so that a task on which the
// truth disagrees with the whole crowd costs a bounded log loss.
const TruthFloor = 1e-3

// ambiguousTruth weighs the evidence for, and computes, the posterior of
// the true class under ambiguity (package ambiguity) that replaces the
// posteriors probs (J×K) of an LA fit on d where the labels ask for it:
// each task's label distribution q_j = (1 − λ)·e_z + λ·e_d near the vertex
// of its true class z, λ ~ Beta(U, V) and the
// distractor d drawn from the other classes in proportion to their share
// of the labels (labelShares), every label's subjective
// class drawn from q_j, the workers' conditionals those of the fit
// deconvolved by the mean of λ (Labels.SetMean) and the class prior the
// mean of the fit's posteriors. U and V maximise the marginal likelihood
// of the labels of a sample of tasks (empirical Bayes); the posterior
// replaces LA's only when that likelihood beats LA's, at the best of the
// same deconvolutions, by more than the logarithm of the number of tasks
// sampled (the Bayesian information criterion's price of two parameters).
// Its posterior is then tempered as temperTruth tempers LA's, by the τ ∈
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
// posteriors, for temperTruth's temperature.
func (b Bayes) ambiguousTruth(d *data.Dataset, probs []float64, cond func(w int32, j, z int, p []float64), workerOnly bool) (float64, func() (string, []float64)) {
	prior := shared.ClassPrior(d, probs)
	l := ambiguity.NewLabels(d, cond, workerOnly, labelShares(d))
	s := ambiguity.NewSample(l, prior, b.Gold)
	pr, gain := s.Estimate()
	net := gain - math.Log(float64(max(s.Tasks(), 2)))
	return net, func() (string, []float64) {
		la := slices.Clone(probs)
		ambiguity.Posterior(l, pr, prior, b.Gold, 0, probs)
		tau := 1.0
		if loo, pc := ambiguity.HeldOut(l, pr, prior, b.Gold, temperEntries); len(loo) > 0 {
			tau = temper.Best(loo, pc, d.NumClasses())
		}
		temper.Rows(probs, d.NumClasses(), b.Gold, tau, TruthFloor)
		return fmt.Sprintf("true class ambiguous around it (λ ~ Beta(%.3g, %.3g), %.3g nats above LA, tempered by %.3g)", pr.U, pr.V, gain, tau), la
	}
}

// labelShares returns the share of every class among d's labels, with one
// pseudo-count a class: the base measure of the ambiguity model's
// distractors. It is read from the labels, not from a fit's class prior,
// which a fit that collapses onto one class would pass on (vb-onecoin on
// adult: the LA fit's prior 0.949 on one class made it every other class's
// distractor, and accuracy fell from 0.6697 to 0.5616; 0.6727 with the
// labels' shares).
func labelShares(d *data.Dataset) []float64 {
	base := make([]float64, d.NumClasses())
	for _, y := range d.Label {
		base[y]++
	}
	for y := range base {
		base[y] = (base[y] + 1) / float64(d.NumLabels()+d.NumClasses())
	}
	return base
}

// temperEntries is the number of labels, at most, that temperTruth's
// criterion reads.
const temperEntries = 100_000

// temperTruth calibrates the true-class posteriors probs (J×K) of an LA
// fit on d without gold labels: every row ρ_j becomes ρ_j^τ / Σ_z ρ_j(z)^τ
// for the temperature τ ∈ [temper.Min, 1] that best predicts each label
// from the others, and then TruthFloor of the uniform distribution is
// mixed in. Tasks of known class (gold[j] ≥ 0; gold may be nil) keep their
// one-hot row and take no part in the criterion. It returns τ.
//
// For label i of task j by worker w, the posterior without it is
// ρ_j^{−i}(z) ∝ ρ_j(z) / P(y_i | z), and its tempered form predicts the
// label with probability Σ_z ρ_j^{−i,τ}(z) P(y_i | z), where cond gives
// P(y | z) at the fitted workers; τ maximises the sum of the logarithms of
// these predictions over the labels of tasks with two or more labels (on
// large data sets, of every m-th such task, so that at most about
// temperEntries/K labels are read). Mean-field posteriors are overconfident
// wherever independent workers do not explain the labels' disagreement;
// τ < 1 spreads them by as much as the held-out labels ask, and τ = 1
// leaves them as they are. workerOnly says that cond does not depend on the
// task, so that it is read once per worker.
func temperTruth(d *data.Dataset, probs []float64, gold []int, cond func(w int32, j, z int, p []float64), workerOnly bool) float64 {
	k := d.NumClasses()
	stride := max(1, d.NumLabels()*k/temperEntries)
	// For every label read: log ρ_j^{−i}(z) and P(y_i | z), K each.
	var size int
	for j := 0; j < d.NumTasks(); j += stride {
		size += (d.Offsets[j+1] - d.Offsets[j]) * k
	}
	loo, pc := make([]float64, 0, size), make([]float64, 0, size)
	var cache []float64 // P(y | z) of every worker, K×K each, when workerOnly
	if workerOnly {
		cache = make([]float64, d.NumWorkers()*k*k)
		for w := range d.NumWorkers() {
			for z := range k {
				cond(int32(w), 0, z, cache[(w*k+z)*k:(w*k+z+1)*k])
			}
		}
	}
	p := make([]float64, k)
	for j := 0; j < d.NumTasks(); j += stride {
		workers, labels := d.TaskLabels(j)
		if len(workers) < 2 || goldOf(gold, j) >= 0 {
			continue
		}
		rho := probs[j*k : (j+1)*k]
		for i, w := range workers {
			y := int(labels[i])
			for z := range k {
				var c float64
				if workerOnly {
					c = cache[(int(w)*k+z)*k+y]
				} else {
					cond(w, j, z, p)
					c = p[y]
				}
				pc = append(pc, c)
				loo = append(loo, math.Log(max(rho[z], 1e-300))-math.Log(max(c, 1e-300)))
			}
		}
	}
	tau := 1.0
	if len(loo) > 0 {
		tau = temper.Best(loo, pc, k)
	}
	temper.Rows(probs, k, gold, tau, TruthFloor)
	return tau
}
