package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/mem"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model/internal/fitting"
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

// fitsByEM reports whether a fit with the settings set runs EM: when
// asked to, or with Method Auto when both sides have closed-form M-steps
// (hasMStep, asked only then) and there is no ridge.
func fitsByEM(set Settings, hasMStep func() bool) bool {
	switch set.Method {
	case EM:
		return true
	case Auto:
		return set.Ridge == 0 && hasMStep()
	}
	return false
}

// fitEM maximises the log-likelihood with the EM algorithm, written through
// the composition of a noise model and an assumption, and accelerated by
// SQUAREM (see squarem):
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
// One E-step followed by one M-step is the EM map x ↦ F(x). Each F costs
// one pass over the labels. L never decreases from one accepted iterate to
// the next (up to the pseudo-count's effect, below 10⁻⁸ of a label's
// log-likelihood). The fit stops when one EM step x ↦ F(x) changes L by at
// most FunctionTol·|L|, or after MaxIterations M-steps.
func (m Model) fitEM(ctx context.Context, d *data.Dataset, set Settings, obj *objective, x0 []float64, start time.Time) (*Result, error) {
	return m.runEM(ctx, d, set, obj, x0, start, true)
}

// emRun is the state of one EM fit: the M-steppers, the vector of expected
// counts the E-step fills, and the counts of M-steps and passes so far.
type emRun struct {
	ctx   context.Context
	obj   *objective
	nm    noise.MStepper
	lm    latent.MStepper
	set   Settings
	start time.Time
	acc   []float64 // expected counts at the last point passed
	iter  int       // M-steps
	evals int       // passes
	// hold lists the parameters Settings.Fixed marks, with their start
	// values, which every M-step puts back.
	hold []heldParam
}

// heldParam is a parameter that an EM fit holds at its start value.
type heldParam struct {
	i int
	v float64
}

// eval runs the E-step at x: it returns L(x) and leaves the expected counts
// at x in e.acc. A non-finite L is returned as it is.
func (e *emRun) eval(x []float64) (float64, error) {
	ll := e.obj.pass(x, e.acc)
	e.evals++
	return ll, e.ctx.Err()
}

// mstep overwrites x, the point of the last E-step, with F(x), the M-step's
// parameters given the expected counts of that E-step. The per-object part
// of a latent.TaskMStepper runs on the objective's chunks in parallel.
func (e *emRun) mstep(x []float64) {
	w, o, g, t := e.obj.lay.Split(x)
	aw, ao, ag, at := e.obj.lay.Split(e.acc)
	e.nm.MStep(aw, ao, w, o)
	if om, ok := e.lm.(latent.TaskMStepper); ok {
		om.MStepGlobal(ag, g)
		e.obj.forChunks(func(c *chunk) { om.MStepTasks(c.lo, c.hi, at, t) })
	} else {
		e.lm.MStep(ag, at, g, t)
	}
	for _, h := range e.hold {
		x[h.i] = h.v
	}
	e.iter++
}

// accept reports an accepted iterate with log-likelihood ll to Progress.
func (e *emRun) accept(ll float64) {
	if e.set.Progress != nil {
		e.set.Progress(Progress{Iteration: e.iter, MaxIterations: e.set.MaxIterations, LogLikelihood: ll, Elapsed: time.Since(e.start)})
	}
}

// converged reports whether an EM step from a point with log-likelihood
// prev to one with ll has changed L by at most FunctionTol·|L|.
func (e *emRun) converged(prev, ll float64) bool {
	return math.Abs(ll-prev) <= e.set.FunctionTol*math.Abs(ll)
}

// emEnd is where an EM fit ended: the parameters, their log-likelihood and
// the status.
type emEnd struct {
	x         []float64
	ll        float64
	status    string
	converged bool
}

// step runs the E-step at x, the result of an EM step from a point of
// log-likelihood prev, reports x to Progress as an accepted iterate, and
// returns L(x) and whether the fit has converged.
func (e *emRun) step(x []float64, prev float64) (float64, bool, error) {
	ll, err := e.eval(x)
	if err != nil {
		return 0, false, err
	}
	if !fitting.IsFinite(ll) {
		return 0, false, fmt.Errorf("EM reached a non-finite log-likelihood after %d iterations", e.iter)
	}
	e.accept(ll)
	return ll, e.converged(prev, ll), nil
}

// plain runs unaccelerated EM from x, whose log-likelihood is ll and whose
// expected counts are in e.acc: x ← F(x) until convergence.
func (e *emRun) plain(x []float64, ll float64) (emEnd, error) {
	for e.iter < e.set.MaxIterations {
		e.mstep(x)
		var done bool
		var err error
		if ll, done, err = e.step(x, ll); err != nil {
			return emEnd{}, err
		}
		if done {
			return emEnd{x, ll, "FunctionConvergence", true}, nil
		}
	}
	return emEnd{x, ll, "IterationLimit", false}, nil
}

// runEM is fitEM, accelerated by SQUAREM if squarem is set and plain EM
// otherwise.
func (m Model) runEM(ctx context.Context, d *data.Dataset, set Settings, obj *objective, x0 []float64, start time.Time, squarem bool) (*Result, error) {
	nm, ok1 := obj.noise.(noise.MStepper)
	lm, ok2 := obj.latent.(latent.MStepper)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("model %s: %w", m.Name(), ErrNoMStep)
	}
	if set.Ridge > 0 {
		return nil, fmt.Errorf("model %s: EM does not support a ridge penalty; use lbfgs or cg", m.Name())
	}
	x := x0
	if set.Start != nil {
		// x0 is the caller's: work on a copy. Otherwise it is Init's, and
		// a copy would only cost memory (a vector of J·K values for DA).
		x = slices.Clone(x0)
	}
	e := &emRun{ctx: ctx, obj: obj, nm: nm, lm: lm, set: set, start: start, acc: mem.Make[float64](len(x))}
	for i, f := range set.Fixed {
		if f {
			e.hold = append(e.hold, heldParam{i, x0[i]})
		}
	}
	ll, err := e.eval(x)
	if err != nil {
		return nil, err
	}
	if !fitting.IsFinite(ll) {
		return nil, fmt.Errorf("model %s: EM reached a non-finite log-likelihood after 0 iterations", m.Name())
	}
	var end emEnd
	if squarem {
		end, err = e.squarem(x, ll)
	} else {
		end, err = e.plain(x, ll)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("model %s: %w", m.Name(), err)
	}
	r := &Result{
		Model:         m.Name(),
		Data:          d,
		Params:        end.x,
		Iterations:    e.iter,
		Evaluations:   e.evals,
		Status:        end.status,
		Converged:     end.converged,
		Method:        EM.String(),
		model:         m,
		obj:           obj,
		LogLikelihood: end.ll,
	}
	r.Probs = obj.outputs(end.x)
	r.Runtime = time.Since(start)
	return r, nil
}
