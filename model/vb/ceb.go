package vb

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/shared"
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
// other labels; with one other it tells little of a worker's accuracy.
// With two (three labels a task) the collapse costs most: on two-class
// crowds of light workers the mean-field fit was up to 8 points below
// majority vote (a crowd with 20% spammers: 0.7283 against 0.8060), and
// with the cavity priors, repeated until they settle, the default is on
// average above vb-la-ds and majority vote (scripts/light-crowds.sh: 24
// crowds and seeds, mean accuracy 0.8515 against 0.8487 and 0.8383;
// 0.8363 before).
const cebTaskLabels = 3

// cebRounds is the most rounds of cavity empirical Bayes cavityPriors
// runs, and cebSettle the relative change of every prior parameter below
// which a round is the last: the rounds settle within three to five on
// the crowds of docs/choosing-a-model.md.
const (
	cebRounds = 8
	cebSettle = 1e-3
)

// cavityPriors refits the LA fit r of the default form with the shared
// priors chosen by cavity empirical Bayes (noise.CavityPriorer) where the
// mean-field fit's priors collapsed: a concentration at its cap on a crowd
// whose median worker has at most cebLight labels and whose median task
// has at least cebTaskLabels. Mean-field counts every
// label twice, in its task's posterior and in its worker's counts, which
// makes light workers look alike; the bound then prefers priors that give
// every worker the crowd's accuracy, and the default is no better than the
// majority vote. A round takes the priors that maximise the labels'
// likelihood with every task's class drawn from its posterior without the
// worker's label (CavityPrior, the task posteriors of the last fit held),
// then refits the workers and tasks with those priors held, from r's
// pseudo-counts. Rounds repeat until the priors settle (every parameter
// within cebSettle of the last round's) or cebRounds have run.
//
// More than one round: the first round's task posteriors are the collapsed
// fit's, near enough with five labels a task (seed 31 below: accuracy
// 0.8770 after one round, 0.8810 settled); with three the collapsed class
// prior is far off (0.795 for a true 0.6) and the first round moves it
// part of the way (0.711; settled 0.667, accuracy 0.7757 → 0.8097).
//
// It returns r and nv unchanged, and an empty note, where it does not
// run; on K > 2 it does not (noise.CavityPriorer.Collapsed). Where the
// rounds all but drop a class (cebDropped) it returns r and nv with a note
// that says so, and rejected true: the mean-field fit's collapsed priors
// are then no better, and fitTruth refits with the workers' prior fixed.
func (b Bayes) cavityPriors(ctx context.Context, d *data.Dataset, set model.Settings, nv noise.Variational, r *model.Result, weight data.TaskWeights) (fit *model.Result, post noise.Variational, note string, rejected bool, err error) {
	ceb, ok := nv.(noise.CavityPriorer)
	cp, ok2 := nv.(noise.CavityProber)
	if !ok || !ok2 || set.Start != nil || set.Fixed != nil || !ceb.Collapsed() || d.UpperMedianWorkerLabels() > cebLight || d.UpperMedianTaskLabels() < cebTaskLabels {
		return r, nv, "", false, nil
	}
	first, base, firstNV := r, nv.Params(nil), nv
	var last []float64
	var rounds, iters, evals int
	var runtime time.Duration
	for rounds < cebRounds {
		st, ok := ceb.CavityPrior(r.Probs, cavityTruth(d, r.Probs, cp, b.Gold))
		if !ok {
			break
		}
		if settled(last, st) {
			break
		}
		last = st
		nr, next, err := b.withPriors(ctx, d, set, base, st, weight)
		if err != nil {
			return nil, nil, "", false, err
		}
		r, nv, rounds = nr, next, rounds+1
		iters, evals, runtime = iters+nr.Iterations, evals+nr.Evaluations, runtime+nr.Runtime
		ceb, cp = next.(noise.CavityPriorer), next.(noise.CavityProber)
	}
	if rounds == 0 {
		return r, nv, "", false, nil
	}
	note = ", shared priors by cavity empirical Bayes" + roundsNote(rounds, iters)
	if c, was, now := droppedClass(d, first.Probs, r.Probs); c >= 0 {
		// The rounds' fit is rejected; the work they took is counted.
		note = fmt.Sprintf(", cavity empirical Bayes rejected%s: it drove class %s's share to %.3g from %.3g", roundsNote(rounds, iters), d.Classes[c], now, was)
		r, nv, rejected = first, firstNV, true
	}
	r.Iterations = first.Iterations + iters
	r.Evaluations = first.Evaluations + evals
	r.Runtime = first.Runtime + runtime
	return r, nv, note, rejected, nil
}

// cebDropped is the least ratio of a class's share of the tasks under the
// cavity priors to its share under the mean-field fit that cavityPriors
// accepts. A fit that all but drops a class has found Dawid-Skene's
// degenerate optimum, every task of that class read as another class's
// with the crowd's errors: on two-class crowds of light workers with 30%
// spammers and a class prior of (0.85, 0.15), the rounds took the rare
// class's share from 0.052 to 0.001 (seeds 1 and 3 of crowd C of
// sim/unknownkinds_test.go), and the accuracy from 0.8755 to 0.8555 and
// from 0.8635 to 0.8365. On the light crowds of scripts/light-crowds.sh no
// class's share fell below 0.7 of the mean-field fit's. The mean-field
// fit's share, 0.052 of a true 0.15, had collapsed too (ECE 0.085 and
// 0.105); with the workers' prior fixed instead the share is 0.13 and the
// accuracy and ECE 0.8770 / 0.013 and 0.8715 / 0.036 (TestDefaultCEBRejected).
const cebDropped = 0.1

// droppedClass returns the class whose share of the tasks (the mean of
// the posteriors, shared.ClassPrior) is below cebDropped of its share
// under before, with both shares, or −1 if there is none.
func droppedClass(d *data.Dataset, before, after []float64) (c int, was, now float64) {
	p0, p1 := shared.ClassPrior(d, before), shared.ClassPrior(d, after)
	for c := range p0 {
		if p1[c] < cebDropped*p0[c] {
			return c, p0[c], p1[c]
		}
	}
	return -1, 0, 0
}

// roundsNote returns " (N round(s), M iterations)" for a note of rounds
// of refits.
func roundsNote(rounds, iters int) string {
	plural := "s"
	if rounds == 1 {
		plural = ""
	}
	return fmt.Sprintf(" (%d round%s, %d iterations)", rounds, plural, iters)
}

// withPriors refits d with the shared priors' state st held (the tail of
// the posterior's parameters), from the posterior parameters base (the
// collapsed fit's worker pseudo-counts).
func (b Bayes) withPriors(ctx context.Context, d *data.Dataset, set model.Settings, base, st []float64, weight data.TaskWeights) (*model.Result, noise.Variational, error) {
	return b.withHeld(ctx, d, set, base, st, nil, weight)
}

// withHeld is withPriors holding only the values of st at the positions
// held (nil: all of them); the others start from st and are learned.
func (b Bayes) withHeld(ctx context.Context, d *data.Dataset, set model.Settings, base, st []float64, held []int, weight data.TaskWeights) (*model.Result, noise.Variational, error) {
	next, err := b.posterior(d)
	if err != nil {
		return nil, nil, err
	}
	start := slices.Clone(base)
	at := len(start) - len(st)
	copy(start[at:], st)
	fixed := make([]bool, len(start))
	for i := at; i < len(fixed); i++ {
		fixed[i] = held == nil || slices.Contains(held, i-at)
	}
	js := set
	js.Start, js.Fixed = start, fixed
	nr, err := vbFit(ctx, b.Name(), d, js, next, b.newLA(d), vbFresh, weight)
	return nr, next, err
}

// settled reports whether every value of next is within cebSettle of
// last's, relative to the larger; never for a nil last.
func settled(last, next []float64) bool { return settledWithin(last, next, cebSettle) }

// settledWithin is settled with the relative tolerance tol.
func settledWithin(last, next []float64, tol float64) bool {
	if last == nil {
		return false
	}
	for i, x := range next {
		if math.Abs(x-last[i]) > tol*max(math.Abs(x), math.Abs(last[i])) {
			return false
		}
	}
	return true
}

// heldOut returns the conditional of every label's worker without the
// label (noise.CavityProber, at the LA fit's posteriors probs) as
// temper.Truth reads it: for worker w on task j, P^{−i}(y_i | z) of its
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
