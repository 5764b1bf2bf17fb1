package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// ErrNoMStep is returned by Fit with the EM method for a model whose noise
// model or assumption has no closed-form M-step.
var ErrNoMStep = errors.New("EM needs closed-form M-steps (noise.MStepper and latent.MStepper), which only Dawid-Skene under LA or DA has; use lbfgs or cg")

// hasMStep reports whether both sides of the objective have closed-form
// M-steps, so that EM applies.
func (o *objective) hasMStep() bool {
	_, ok1 := o.noise.(noise.MStepper)
	_, ok2 := o.latent.(latent.MStepper)
	return ok1 && ok2
}

// fitEM maximises the log-likelihood with the EM algorithm, written through
// the composition of a noise model and an assumption:
//
//   - E-step: one pass of the objective at the current parameters. The
//     weights g_i(z) the assumption hands to the noise model are the E-step's
//     responsibilities (the LA posterior γ_j(z) for every label of object j,
//     the DA responsibility r_i(z) of each label), and what the two sides
//     accumulate from them before FinishGrad are the expected counts: a DS
//     worker's C_w(z, y) = Σ g_i(z) over its labels y_i = y, LA's
//     Σ_j (γ_j - p), DA's Σ_{i ∈ j} (r_i - q_j). The same pass gives the
//     log-likelihood L at the current parameters.
//   - M-step: noise.MStepper and latent.MStepper turn those counts into new
//     parameters (DS: confusion rows ∝ C_w(z, ·) plus a tiny pseudo-count;
//     LA: p = mean γ_j if the prior is learned; DA: q_j = mean r_i).
//
// Each iteration costs one pass over the labels and needs, besides the
// data, the parameter vector and one vector of counts of the same length:
// no optimiser history. L never decreases from one iteration to the next
// (up to the pseudo-count's effect, below 10⁻⁸ of a label's
// log-likelihood). The fit stops when the relative change of L is at most
// FunctionTol, or after MaxIterations M-steps.
func (m Model) fitEM(d *data.Dataset, set Settings, obj *objective, x0 []float64, start time.Time) (*Result, error) {
	nm, ok1 := obj.noise.(noise.MStepper)
	lm, ok2 := obj.latent.(latent.MStepper)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("model %s: %w", m.Name(), ErrNoMStep)
	}
	if set.Ridge > 0 {
		return nil, fmt.Errorf("model %s: EM does not support a ridge penalty; use lbfgs or cg", m.Name())
	}
	if set.Fixed != nil {
		return nil, fmt.Errorf("model %s: EM does not support fixed parameters; use lbfgs or cg", m.Name())
	}
	x := slices.Clone(x0)
	acc := make([]float64, len(x))
	var (
		ll        float64
		prev      = math.NaN()
		iter      int
		evals     int
		converged bool
		status    string
	)
	for {
		ll = obj.pass(x, acc) // E-step, and L at x
		evals++
		if err := set.Context.Err(); err != nil {
			return nil, err
		}
		if math.IsNaN(ll) || math.IsInf(ll, 0) {
			return nil, fmt.Errorf("model %s: EM reached a non-finite log-likelihood after %d iterations", m.Name(), iter)
		}
		if iter > 0 && set.Progress != nil {
			set.Progress(Progress{Iteration: iter, MaxIterations: set.MaxIterations, LogLikelihood: ll, Elapsed: time.Since(start)})
		}
		if iter > 0 && math.Abs(ll-prev) <= set.FunctionTol*math.Abs(ll) {
			converged, status = true, "FunctionConvergence"
			break
		}
		if iter >= set.MaxIterations {
			status = "IterationLimit"
			break
		}
		w, o, g, t := obj.lay.Split(x)
		aw, ao, ag, at := obj.lay.Split(acc)
		nm.MStep(aw, ao, w, o)
		lm.MStep(ag, at, g, t)
		prev = ll
		iter++
	}
	r := &Result{
		Model:         m.Name(),
		Data:          d,
		Params:        x,
		Iterations:    iter,
		Evaluations:   evals,
		Status:        status,
		Converged:     converged,
		Method:        EM.String(),
		model:         m,
		obj:           obj,
		LogLikelihood: ll,
	}
	r.Probs = make([]float64, d.NumTasks()*d.NumClasses())
	obj.outputs(x, r.Probs)
	r.Runtime = time.Since(start)
	return r, nil
}
