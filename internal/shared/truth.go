package shared

import (
	"fmt"
	"math"

	"github.com/consensuslab/consensus/data"
)

// Truth replaces the true-class posteriors probs (J×K) of an LA fit on d
// by their posterior under the trap model, where
// workers share mistakes: a task of true class z is a trap with distractor
// d with probability η(z, d), and on a trap every worker w is fooled into
// labelling d with probability s_w. It runs only where the LA fit's
// workers (cond, which must not depend on the task: workerOnly) show pairs
// of busy workers who agree beyond independence (Pairs with its default
// settings), or, where they show none, a fit of one accuracy a worker
// does (OneCoinPairs: the LA fit's own workers can explain a pair's
// agreement by taking its shared mistake for the truth, as on the regime
// shared-mistake), whose chance of being fooled starts high. The trap
// model and LA are both fitted by expectation maximisation from the LA
// fit's workers, re-estimating the confusion rows, and the trap model's
// posterior replaces LA's only when its log-likelihood beats LA's by more
// than the Bayesian information criterion's price of its extra
// parameters: ½ log J for each of the K(K−1) trap rates and the chance of
// being fooled of every flagged worker (the other workers are never
// fooled), J the tasks read (on many tasks a sample, SampleTasks;
// the posterior is then refitted on all). A trap model whose flagged
// workers all fall below CollapseFool is LA but for a few labels: it is
// declined without fitting LA. Tasks of known class (gold[j] ≥ 0; gold may
// be nil) keep their row.
//
// Its posterior is not tempered, only mixed with floor of the uniform
// distribution: the default model's temperature (package vb) divides a
// label's P(y | z) out of the posterior, which under the trap model is
// not that label's likelihood, and on the correlated regime (seeds 1 to 3)
// it chose τ of 0.15 to 0.23, an expected calibration error of 0.21 to
// 0.27 where the untempered posterior's is 0.009 to 0.016.
//
// It returns the evidence for the trap model, its gain less its price
// (taken when positive; −Inf when no pair is flagged or the trap model
// collapsed), the function that writes its posterior into a J×K slice
// and returns the method's description, and whether any pair is flagged.
// oneCoin returns OneCoinPairs(d): the caller may memoise it (the default
// asks it again to decide EBCC's challenge, and the check reads up to
// 20,000 tasks).
func Truth(d *data.Dataset, probs []float64, cond Cond, workerOnly bool, gold []int, floor float64, oneCoin func() []Pair) (float64, func([]float64) string, bool) {
	if !workerOnly || d.NumClasses() < 2 {
		return math.Inf(-1), nil, false
	}
	pairs := Pairs(d, probs, cond, Settings{WorkerOnly: true})
	if len(pairs) == 0 {
		pairs = oneCoin()
	}
	var flagged []int32
	seen := map[int32]bool{}
	for _, p := range pairs {
		for _, w := range []int32{p.A, p.B} {
			if p.A != p.B && !seen[w] {
				seen[w] = true
				flagged = append(flagged, w)
			}
		}
	}
	if len(flagged) == 0 {
		return math.Inf(-1), nil, false
	}
	k := d.NumClasses()
	rows := make([]float64, d.NumWorkers()*k*k)
	for w := range d.NumWorkers() {
		for z := range k {
			cond(int32(w), 0, z, rows[(w*k+z)*k:(w*k+z+1)*k])
		}
	}
	prior := ClassPrior(d, probs)
	tr := Fit(d, rows, prior, flagged, gold, true)
	if tr.Collapsed {
		return math.Inf(-1), nil, true
	}
	la := Fit(d, rows, prior, nil, gold, false)
	gain := tr.LogLik - la.LogLik
	price := 0.5 * float64(k*(k-1)+len(flagged)) * math.Log(float64(max(tr.Tasks, 2)))
	return gain - price, func(out []float64) string {
		tr.Refine(d, gold)
		tr.Posterior(d, gold, floor, out)
		return fmt.Sprintf("true class with shared mistakes of %d workers (trap model, %.3g nats above LA, price %.3g)", len(flagged), gain, price)
	}, true
}
