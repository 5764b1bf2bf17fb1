package calibrate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/temper"
)

// DefaultFolds is the number of folds of Gold's cross-fitting when
// Gold.Folds is zero.
const DefaultFolds = 5

// Floor is the share of the uniform distribution mixed into every
// tempered row, as in the default's own calibration (vb.TruthFloor): a
// class the tempered posterior rules out keeps probability Floor/K. A τ of
// 1 leaves the rows as the fit gave them.
const Floor = 1e-3

// Gold is an estimator that fits Base with the gold classes Class clamped
// (model.GoldTrainer) and tempers its output probabilities on the tasks
// without gold: every row ρ_j becomes ρ_j^τ / Σ_z ρ_j(z)^τ, mixed with
// Floor of the uniform distribution, where τ ∈ [0.02, 1] maximises the
// likelihood of the gold classes under cross-fitted posteriors,
//
//	τ = argmax Σ_{gold tasks j} log softmax(τ·log ρ_j^{−f(j)})(t_j),
//
// ρ_j^{−f(j)} being the posterior of task j from the fit with the gold of
// its fold f(j) left out (the gold tasks are dealt into Folds folds at
// random with Seed) and t_j its gold class, held at 1 unless it gains more
// than ½ log n nats on n gold tasks: the search and the rule of the
// default's gold-free calibration, with the gold classes in place of the
// held-out labels. τ is never above 1: a handful of gold tasks that a
// moderately confident consensus gets right would otherwise sharpen every
// row (five of five right at 0.8 gain 1.1 nats at τ = 5, more than ½ log 5
// = 0.8). The gold tasks keep their one-hot rows. The fit costs Folds + 1
// fits of Base.
//
// For a model with a true class (the default vb-ds, la-*, vb-la-*) the
// rows are the posterior of the true class; for a DA model, its label
// distributions, tempered alike. Where the labels agree with gold as the
// model expects, τ comes out at 1; where gold is often against a
// confident consensus (gold from another population than the labellers,
// workers who share mistakes), τ < 1 spreads the posteriors by as much as
// gold asks. The zero Folds is DefaultFolds; Folds must not exceed the
// number of gold tasks, of which at least two are needed.
type Gold struct {
	// Base is the estimator calibrated.
	Base model.GoldTrainer
	// Class holds the gold class of every task of the data set to fit,
	// -1 for a task without gold (latent.GoldClasses).
	Class []int
	// Folds is the number of folds of the cross-fitting; zero means
	// DefaultFolds.
	Folds int
	// Seed seeds the assignment of the gold tasks to folds.
	Seed uint64
}

// Name returns Base's name.
func (g Gold) Name() string { return g.Base.Name() }

// Fit fits Base with all the gold clamped and tempers the result's
// probabilities on the tasks without gold by the τ of the cross-fitted
// gold (CrossFitted); the result's Method says τ and the folds. It returns
// CrossFitted's errors and the final fit's.
func (g Gold) Fit(ctx context.Context, d *data.Dataset, set *model.Settings) (*model.Result, error) {
	tau, n, err := g.crossFit(ctx, d, set)
	if err != nil {
		return nil, err
	}
	r, err := g.Base.WithGold(g.Class).Fit(ctx, d, set)
	if err != nil {
		return nil, err
	}
	if tau != 1 {
		temper.Rows(r.Probs, d.NumClasses(), g.Class, tau, Floor)
	}
	r.Method += fmt.Sprintf("; probabilities tempered by %.3g on %d gold tasks (%d-fold cross-fitting)", tau, n, g.folds())
	return r, nil
}

// CrossFitted returns Gold's temperature τ on d: Folds fits of Base, each
// with the gold of one fold left out, predict that fold's gold classes,
// and τ maximises their likelihood (see Gold). It returns an error if
// Class does not match d, holds fewer than two gold tasks or fewer than
// Folds, if Folds is 1 or less (after the zero value's default), if a
// class is not one of d's, or if a fit fails.
func (g Gold) CrossFitted(ctx context.Context, d *data.Dataset, set *model.Settings) (float64, error) {
	tau, _, err := g.crossFit(ctx, d, set)
	return tau, err
}

// crossFit is CrossFitted, and it also returns the number of gold tasks.
func (g Gold) crossFit(ctx context.Context, d *data.Dataset, set *model.Settings) (float64, int, error) {
	if len(g.Class) != d.NumTasks() {
		return 0, 0, fmt.Errorf("calibrate: %d gold classes for %d tasks", len(g.Class), d.NumTasks())
	}
	for j, c := range g.Class {
		if c >= d.NumClasses() {
			return 0, 0, fmt.Errorf("calibrate: task %d has gold class %d of %d classes", j, c, d.NumClasses())
		}
	}
	folds := g.folds()
	fold, n := g.deal(folds)
	if n < 2 || folds < 2 || n < folds {
		return 0, 0, fmt.Errorf("calibrate: %d gold tasks cannot be dealt into %d folds (at least two tasks and two folds, and no more folds than tasks)", n, folds)
	}
	k := d.NumClasses()
	// Every gold task's log-posterior from the fit without its fold's
	// gold, and its gold class one-hot: the rows of temper.Best, whose
	// prediction of a class is then the tempered posterior's.
	loo, hot := make([]float64, 0, n*k), make([]float64, 0, n*k)
	class := make([]int, len(g.Class))
	for f := range folds {
		for j, c := range g.Class {
			class[j] = c
			if fold[j] == f {
				class[j] = -1
			}
		}
		r, err := g.Base.WithGold(class).Fit(ctx, d, set)
		if err != nil {
			return 0, 0, err
		}
		for j, c := range g.Class {
			if fold[j] != f {
				continue
			}
			for z := range k {
				loo = append(loo, math.Log(max(r.Probs[j*k+z], 1e-300)))
				hot = append(hot, 0)
			}
			hot[len(hot)-k+c] = 1
		}
	}
	return temper.Best(loo, hot, k), n, nil
}

// folds returns Folds, or DefaultFolds for the zero value.
func (g Gold) folds() int {
	if g.Folds == 0 {
		return DefaultFolds
	}
	return g.Folds
}

// deal returns every task's fold (-1 for a task without gold) and the
// number of gold tasks: the gold tasks in a random order drawn with Seed,
// dealt round-robin, so that the folds' sizes differ by one at most.
func (g Gold) deal(folds int) ([]int, int) {
	fold := make([]int, len(g.Class))
	var tasks []int
	for j, c := range g.Class {
		fold[j] = -1
		if c >= 0 {
			tasks = append(tasks, j)
		}
	}
	rng := rand.New(rand.NewPCG(g.Seed, 0xca1))
	rng.Shuffle(len(tasks), func(a, b int) { tasks[a], tasks[b] = tasks[b], tasks[a] })
	for i, j := range tasks {
		fold[j] = i % max(folds, 1)
	}
	return fold, len(tasks)
}
