package vb

import (
	"context"
	"fmt"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// cebLight is the most labels of the median worker of a crowd on which
// cavityPriors runs: on the crowds of issue 39 (5 to 25 labels a worker)
// the mean-field priors collapse, and on crowds of busy workers a label
// weighs little against its worker's others, so that its double count
// does not matter.
const cebLight = 40

// cebTaskLabels is the fewest labels of the median task of a crowd on
// which cavityPriors runs. A label's cavity posterior rests on its task's
// other labels; with two of them it tells little of a worker's accuracy.
// On the six crowds of two classes and three labels a task of
// scripts/regime-sweep.sh where the priors collapse (SWEEP_SEED=1
// CLASSES=2, 30 crowds, and SWEEP_SEED=2, 40 crowds) the cavity priors
// moved the accuracy by −1.0 to +0.25 points and the calibration error
// either way (0.006 to 0.015 on one, 0.089 to 0.076 on another), where on
// the crowds of five labels a task or more they gained or held.
const cebTaskLabels = 4

// cavityPriors refits the LA fit r of the default form with the shared
// priors chosen by cavity empirical Bayes (noise.CavityPriorer) where the
// mean-field fit's priors collapsed: a concentration at its cap on a crowd
// whose median worker has at most cebLight labels and whose median task
// has at least cebTaskLabels. Mean-field counts every
// label twice, in its task's posterior and in its worker's counts, which
// makes light workers look alike; the bound then prefers priors that give
// every worker the crowd's accuracy, and the default is no better than the
// majority vote. It takes the priors that maximise the labels' likelihood
// with every task's class drawn from its posterior without the worker's
// label (CavityPrior, the task posteriors of r held), then refits the
// workers and tasks with those priors held, from r's pseudo-counts. One
// round: repeating it (the priors taken again from the refit's
// posteriors) settles within three rounds on issue 39's crowds, at about
// the same accuracy and a worse calibration (the crowd of seed 31:
// accuracy 0.8770, 0.8800 and 0.8805 after one, two and three rounds, ECE
// 0.016, 0.028 and 0.028; the four crowds' log loss lowest after one
// round on three). It returns r and nv unchanged,
// and an empty note, where it does not run; on K > 2 it does not
// (noise.CavityPriorer.Collapsed).
func (b Bayes) cavityPriors(ctx context.Context, d *data.Dataset, set model.Settings, nv noise.Variational, r *model.Result, weight data.TaskWeights) (*model.Result, noise.Variational, string, error) {
	ceb, ok := nv.(noise.CavityPriorer)
	cp, ok2 := nv.(noise.CavityProber)
	if !ok || !ok2 || set.Start != nil || set.Fixed != nil || !ceb.Collapsed() || medianLabels(d) > cebLight || medianTaskLabels(d) < cebTaskLabels {
		return r, nv, "", nil
	}
	st, ok := ceb.CavityPrior(r.Probs, cavityTruth(d, r.Probs, cp, b.Gold))
	if !ok {
		return r, nv, "", nil
	}
	start := nv.Params(nil)
	at := len(start) - len(st)
	copy(start[at:], st)
	fixed := make([]bool, len(start))
	for i := at; i < len(fixed); i++ {
		fixed[i] = true
	}
	js := set
	js.Start, js.Fixed = start, fixed
	next, err := b.posterior(d)
	if err != nil {
		return nil, nil, "", err
	}
	nr, err := vbFit(ctx, b.Name(), d, js, next, newVBLA(d, b.Gold), vbFresh, weight)
	if err != nil {
		return nil, nil, "", err
	}
	note := fmt.Sprintf(", shared priors by cavity empirical Bayes (%d iterations)", nr.Iterations)
	nr.Iterations += r.Iterations
	nr.Evaluations += r.Evaluations
	nr.Runtime += r.Runtime
	return nr, next, note, nil
}

// medianLabels returns the median number of labels of d's workers with
// any.
func medianLabels(d *data.Dataset) int {
	n := make([]int, d.NumWorkers())
	for _, w := range d.Worker {
		n[w]++
	}
	return upperMedian(slices.DeleteFunc(n, func(c int) bool { return c == 0 }))
}

// medianTaskLabels returns the median number of labels of d's tasks.
func medianTaskLabels(d *data.Dataset) int {
	n := make([]int, d.NumTasks())
	for j := range n {
		n[j] = d.Offsets[j+1] - d.Offsets[j]
	}
	return upperMedian(n)
}

// upperMedian sorts n and returns its middle value (the upper of the two
// middle ones of an even count), or 0 for none.
func upperMedian(n []int) int {
	if len(n) == 0 {
		return 0
	}
	slices.Sort(n)
	return n[len(n)/2]
}

// heldOut returns the conditional of every label's worker without the
// label (noise.CavityProber, at the LA fit's posteriors probs) as
// temperTruth reads it: for worker w on task j, P^{−i}(y_i | z) of its
// label i at p[y_i] (the other entries of p are not written). The
// criterion then predicts each label from its task's posterior without
// it and from its worker without it, both of which the cavity posterior
// (cavityTruth) is made of; the fitted worker counts the label itself,
// and on light workers predicts it too well to ask for any tempering.
func heldOut(d *data.Dataset, probs []float64, cp noise.CavityProber) func(w int32, j, z int, p []float64) {
	k := d.NumClasses()
	lab := make([]float64, d.NumLabels()*k)
	for j := range d.NumTasks() {
		lo, hi := d.Offsets[j], d.Offsets[j+1]
		cp.CavityProbs(j, probs[j*k:(j+1)*k], lab[lo*k:hi*k])
	}
	return func(w int32, j, z int, p []float64) {
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			if d.Worker[i] == w {
				p[d.Label[i]] = lab[i*k+z]
				return
			}
		}
	}
}
