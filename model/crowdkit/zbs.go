package crowdkit

import (
	"context"
	"slices"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/vote"
)

// ZeroBasedSkill is the zero-based skill aggregator of Crowd-Kit (Ustalov
// et al., "Learning from Crowds with Crowd-Kit", 2021): a skill-weighted
// majority vote whose skills are moved towards each worker's agreement with
// the current consensus by a decaying step.
//
// Every worker starts with skill s_w = 1/K + 10⁻⁵. Iteration t = 1, 2, …
// first halves the learning rate η (initially LearningRate) when t is a
// multiple of DecaySteps (η ← η·DecayFactor), then takes the weighted
// majority vote m_j = argmax_z Σ_{i ∈ j} s_w(i) 1[y_i = z] (exact ties
// going to the first class in the order of d.Classes, as in Crowd-Kit) and moves every skill towards the
// worker's accuracy against it:
//
//	s_w ← s_w + η (a_w − s_w),  a_w = |{i of w : y_i = m_j(i)}| / |{i of w}|.
//
// The consensus distribution is the weighted vote with the final skills,
// P_j(z) = Σ_{i ∈ j} s_w(i) 1[y_i = z] / Σ_{i ∈ j} s_w(i) (uniform if the
// weights sum to zero). The loop stops after MaxIterations iterations or
// as soon as an iteration changes neither the votes nor the skills, a
// fixed point of every later iteration; Crowd-Kit always runs them all,
// with the same result.
//
// The zero value runs Crowd-Kit's defaults: 100 iterations, η = 1, halved
// every 20 iterations.
type ZeroBasedSkill struct {
	// MaxIterations bounds the number of iterations; zero means 100.
	MaxIterations int
	// LearningRate is the initial step η; zero means 1.
	LearningRate float64
	// DecaySteps is the number of iterations between reductions of η;
	// zero means 20.
	DecaySteps int
	// DecayFactor multiplies η every DecaySteps iterations; zero means 0.5.
	DecayFactor float64
}

// Name returns "zbs".
func (ZeroBasedSkill) Name() string { return "zbs" }

// Fit runs the iterations on d. It takes no settings.
func (e ZeroBasedSkill) Fit(ctx context.Context, d *data.Dataset, _ *model.Settings) (*model.Result, error) {
	if err := model.CheckFit(ctx, d); err != nil {
		return nil, err
	}
	start := time.Now()
	maxIter := orInt(e.MaxIterations, 100)
	rate := orFloat(e.LearningRate, 1)
	steps := orInt(e.DecaySteps, 20)
	factor := orFloat(e.DecayFactor, 0.5)

	k := d.NumClasses()
	skill := make([]float64, d.NumWorkers())
	for w := range skill {
		skill[w] = 1/float64(k) + 1e-5
	}
	var prev []int
	iter, converged := 0, false
	for iter < maxIter {
		iter++
		if iter%steps == 0 {
			rate *= factor
		}
		votes := vote.FirstArgmaxRows(vote.Skills{D: d, Skill: skill}, d.NumTasks(), k)
		acc, _ := vote.WorkerAccuracy(d, votes)
		moved := false
		for w := range skill {
			next := skill[w] + rate*(acc[w]-skill[w])
			moved = moved || next != skill[w]
			skill[w] = next
		}
		if !moved && slices.Equal(votes, prev) {
			converged = true
			break
		}
		prev = votes
	}
	status := "fixed point"
	if !converged {
		status = "IterationLimit"
	}
	return withSkills(&model.Result{
		Model:      e.Name(),
		Data:       d,
		Probs:      vote.Weighted(d, skill),
		Method:     "zero-based skill",
		Iterations: iter,
		Status:     status,
		// Crowd-Kit's definition is the fixed number of iterations: the
		// limit is the intended stop, not a failure.
		Converged: true,
		Runtime:   time.Since(start),
	}, skill), nil
}

// NumParams returns the number of fitted parameters on d: one skill per
// worker (Parametric). Result.WorkerSkills reports them.
func (ZeroBasedSkill) NumParams(d *data.Dataset) int { return voteParams(d) }

// orInt returns v, or def when v is zero.
func orInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// orFloat returns v, or def when v is zero.
func orFloat(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}
