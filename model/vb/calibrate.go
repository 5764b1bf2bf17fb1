package vb

import (
	"fmt"
	"math"
	"slices"

	"github.com/consensuslab/consensus/internal/num"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/shared"
	"github.com/consensuslab/consensus/model/internal/ambiguity"
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
// distractor d uniform over the other classes, every label's subjective
// class drawn from q_j, the workers' conditionals those of the fit
// deconvolved by the mean of λ (Labels.SetMean) and the class prior the
// mean of the fit's posteriors. U and V maximise the marginal likelihood
// of the labels of a sample of tasks (empirical Bayes); the posterior
// replaces LA's only when that likelihood beats LA's, at the best of the
// same deconvolutions, by more than the logarithm of the number of tasks
// sampled (the Bayesian information criterion's price of two parameters).
// TruthFloor of the uniform distribution is then mixed in; tasks of known
// class keep their one-hot row, and tasks of more than
// ambiguity.MaxLabels labels their tempered posterior.
//
// It returns the evidence for the ambiguity model, its gain less its price
// (taken when positive), and the function that replaces probs by its
// posterior and returns the method's description and a copy of the LA
// posteriors, for temperTruth's temperature.
func (b Bayes) ambiguousTruth(d *data.Dataset, probs []float64, cond func(w int32, j, z int, p []float64), workerOnly bool) (float64, func() (string, []float64)) {
	prior := shared.ClassPrior(d, probs)
	l := ambiguity.NewLabels(d, cond, workerOnly)
	s := ambiguity.NewSample(l, prior, b.Gold)
	pr, gain := s.Estimate()
	net := gain - math.Log(float64(max(s.Tasks(), 2)))
	return net, func() (string, []float64) {
		la := slices.Clone(probs)
		ambiguity.Posterior(l, pr, prior, b.Gold, TruthFloor, probs)
		return fmt.Sprintf("true class ambiguous around it (λ ~ Beta(%.3g, %.3g), %.3g nats above LA)", pr.U, pr.V, gain), la
	}
}

// The range of the temperature τ that temperTruth searches, and the
// number of labels, at most, that its criterion reads.
const (
	minTemper     = 0.02
	maxTemper     = 1
	temperEntries = 100_000
)

// temperTruth calibrates the true-class posteriors probs (J×K) of an LA
// fit on d without gold labels: every row ρ_j becomes ρ_j^τ / Σ_z ρ_j(z)^τ
// for the temperature τ ∈ [minTemper, 1] that best predicts each label
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
		tau = bestTemper(loo, pc, k)
	}
	for j := 0; j < len(probs); j += k {
		if goldOf(gold, j/k) >= 0 {
			continue
		}
		row := probs[j : j+k]
		top := 0.0
		for _, v := range row {
			top = max(top, v)
		}
		var s float64
		for z, v := range row {
			row[z] = v / top
			if tau != 1 { // math.Pow(x, 1) is x
				row[z] = math.Pow(row[z], tau)
			}
			s += row[z]
		}
		u := TruthFloor / float64(k)
		for z := range row {
			row[z] = (1-TruthFloor)*row[z]/s + u
		}
	}
	return tau
}

// bestTemper returns the τ ∈ [minTemper, maxTemper] that maximises the
// held-out score Σ_i log Σ_z softmax(τ·loo_i)(z) pc_i(z) over the K-long
// rows loo_i and pc_i: golden-section search on log τ, then τ = 1 unless
// the best τ scores more than ½ log n above it for n rows. The score takes
// one logarithm in all (of the product of the rows' predictions, kept in
// range by num.Product), and at K = 2 one exponential a row, of the
// difference of its two entries of loo.
func bestTemper(loo, pc []float64, k int) float64 {
	score := temperScore(loo, pc, k)
	_, best, lo, hi := num.GoldenMax(math.Log(minTemper), math.Log(maxTemper), 24, func(lt float64) float64 {
		return score(math.Exp(lt))
	})
	// τ < 1 is taken only when it predicts the labels better by more than
	// half a nat per logarithm of their number (the Bayesian information
	// criterion's price of one parameter): on a handful of labels the
	// criterion is noise, and τ would spread every posterior for nothing.
	if n := float64(len(loo) / k); best-score(maxTemper) <= 0.5*math.Log(n) {
		return maxTemper
	}
	return math.Exp((lo + hi) / 2)
}

// temperBlock is the number of rows whose exponentials temperScore takes
// in one call.
const temperBlock = 1024

// temperScore returns bestTemper's score of τ, Σ_i log Σ_z softmax(τ·loo_i)(z) pc_i(z).
func temperScore(loo, pc []float64, k int) func(tau float64) float64 {
	if k == 2 {
		// softmax(τ l)·c = (c_0 + c_1 e^{τ d}) / (1 + e^{τ d}) with
		// d = l_1 − l_0, from the exponential of −τ|d| ≤ 0: |d| and the
		// pair (c_0, c_1), swapped where d > 0, are taken once, and the
		// exponentials of a score in one call (num.MathExpTo, math.Exp's
		// values four at a time).
		n := len(loo) / 2
		abs, c0s, c1s, e := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range abs {
			d := loo[2*i+1] - loo[2*i]
			c0, c1 := pc[2*i], pc[2*i+1]
			if d > 0 {
				c0, c1 = c1, c0
			}
			abs[i], c0s[i], c1s[i] = math.Abs(d), c0, c1
		}
		return func(tau float64) float64 {
			for i, a := range abs {
				e[i] = -tau * a
			}
			num.MathExpTo(e, e)
			prod := num.NewProduct()
			c0s, c1s := c0s[:len(e)], c1s[:len(e)]
			for i, ei := range e {
				prod.Mul(max((c0s[i]+c1s[i]*ei)/(1+ei), 1e-300))
			}
			return prod.Log()
		}
	}
	// For a block of rows at a time, every row's τ·loo_i − max_z
	// τ·loo_i(z) first (the max by maxNaN: a ±0 maximum gives the same
	// differences' exponentials), then their exponentials in one call
	// (num.MathExpTo, math.Exp's values four at a time), and the rows'
	// sums in the order of z.
	e := make([]float64, min(len(loo), temperBlock*k))
	return func(tau float64) float64 {
		prod := num.NewProduct()
		for lo := 0; lo < len(loo); lo += len(e) {
			ls := loo[lo:min(lo+len(e), len(loo))]
			es := e[:len(ls)]
			for i := 0; i < len(ls); i += k {
				x := es[i : i+k]
				top := math.Inf(-1)
				for z, l := range ls[i : i+k] {
					x[z] = tau * l
					top = maxNaN(top, x[z])
				}
				for z := range x {
					x[z] -= top
				}
			}
			num.MathExpTo(es, es)
			for i := 0; i < len(ls); i += k {
				var pred, den float64
				for z, ez := range es[i : i+k] {
					den += ez
					pred += ez * pc[lo+i+z]
				}
				prod.Mul(max(pred/den, 1e-300))
			}
		}
		return prod.Log()
	}
}
