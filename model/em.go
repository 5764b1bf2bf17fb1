package model

import (
	"context"
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

// fitsByEM reports whether a fit with the settings set runs EM: when
// asked to, or with Method Auto when both sides have closed-form M-steps
// (hasMStep, asked only then) and no ridge or fixed parameters.
func fitsByEM(set Settings, hasMStep func() bool) bool {
	switch set.Method {
	case EM:
		return true
	case Auto:
		return set.Ridge == 0 && set.Fixed == nil && hasMStep()
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
// one pass over the labels: the M-step of the objects (DA's q_j) runs
// inside the pass, on each batch of objects as soon as their expected
// counts are complete (see evalTo). L never decreases from one accepted iterate to
// the next (up to the pseudo-count's effect, below 10⁻⁸ of a label's
// log-likelihood). The fit stops when one EM step x ↦ F(x) changes L by at
// most FunctionTol·|L|, or after MaxIterations M-steps.
func (m Model) fitEM(ctx context.Context, d *data.Dataset, set Settings, obj *objective, x0 []float64, start time.Time) (*Result, error) {
	return m.runEM(ctx, d, set, obj, x0, start, true)
}

// emRun is the state of one EM fit: the M-steppers, the expected counts of
// the shared blocks that the E-step fills, and the counts of M-steps and
// passes so far.
type emRun struct {
	ctx    context.Context
	obj    *objective
	nm     noise.MStepper
	lm     latent.MStepper
	set    Settings
	start  time.Time
	shared []float64 // expected counts of the worker, object and global blocks at the last point passed
	accT   []float64 // those of the task block, for an assumption without a per-object M-step
	iter   int       // M-steps taken
	evals  int       // passes
}

// evalTo runs the E-step at x and the M-step after it: it returns L(x)
// and writes F(x), the EM map's next point, into dst, which must not be
// x. A latent.ObjectMStepper's objects take their M-step inside the pass
// (objective.passTo): each batch's expected counts, accumulated in dst's
// rows, become its new parameters there as soon as the batch is done, and
// the M-step of the shared blocks follows the pass. F(x) is computed
// whether or not the fit takes it (e.iter counts those it takes): that
// saves the passes over the J·K task block that a separate M-step would
// make (reading the counts, writing the parameters, and copying x there
// first). A non-finite L is returned as it is.
func (e *emRun) evalTo(x, dst []float64) (float64, error) {
	lay := e.obj.lay
	_, _, _, xt := lay.Split(x)
	w, o, g, t := lay.Split(dst)
	aw, ao, ag := e.shared[lay.W[0]:lay.W[1]], e.shared[lay.O[0]:lay.O[1]], e.shared[lay.G[0]:lay.G[1]]
	om, fused := e.lm.(latent.ObjectMStepper)
	var ll float64
	if fused {
		e.obj.fused = fusedMStep{om: om, src: xt}
		ll = e.obj.passTo(x, e.shared, t)
		e.obj.fused = fusedMStep{}
	} else {
		if e.accT == nil {
			e.accT = make([]float64, len(t))
		}
		ll = e.obj.passTo(x, e.shared, e.accT)
		copy(t, xt)
	}
	e.evals++
	// The shared blocks' M-step, from x's values (which an M-step may
	// read) and their counts.
	copy(dst[:lay.T[0]], x[:lay.T[0]])
	e.nm.MStep(aw, ao, w, o)
	if fused {
		om.MStepGlobal(ag, g)
	} else {
		e.lm.MStep(ag, e.accT, g, t)
	}
	return ll, e.ctx.Err()
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
// log-likelihood prev, and the M-step after it into dst (see evalTo),
// reports x to Progress as an accepted iterate, and returns L(x) and
// whether the fit has converged.
func (e *emRun) step(x, dst []float64, prev float64) (float64, bool, error) {
	ll, err := e.evalTo(x, dst)
	if err != nil {
		return 0, false, err
	}
	if !isFinite(ll) {
		return 0, false, fmt.Errorf("EM reached a non-finite log-likelihood after %d iterations", e.iter)
	}
	e.accept(ll)
	return ll, e.converged(prev, ll), nil
}

// plain runs unaccelerated EM from x, whose log-likelihood is ll, with
// f = F(x): x ← F(x) until convergence.
func (e *emRun) plain(x, f []float64, ll float64) (emEnd, error) {
	for e.iter < e.set.MaxIterations {
		e.iter++
		var done bool
		var err error
		if ll, done, err = e.step(f, x, ll); err != nil {
			return emEnd{}, err
		}
		if done {
			return emEnd{f, ll, "FunctionConvergence", true}, nil
		}
		x, f = f, x
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
	if set.Fixed != nil {
		return nil, fmt.Errorf("model %s: EM does not support fixed parameters; use lbfgs or cg", m.Name())
	}
	x := x0
	if set.Start != nil {
		// x0 is the caller's: work on a copy. Otherwise it is Init's, and
		// a copy would only cost memory (a vector of J·K values for DA).
		x = slices.Clone(x0)
	}
	e := &emRun{ctx: ctx, obj: obj, nm: nm, lm: lm, set: set, start: start, shared: make([]float64, obj.lay.T[0])}
	f := make([]float64, len(x)) // F(x)
	ll, err := e.evalTo(x, f)
	if err != nil {
		return nil, err
	}
	if !isFinite(ll) {
		return nil, fmt.Errorf("model %s: EM reached a non-finite log-likelihood after 0 iterations", m.Name())
	}
	var end emEnd
	if squarem {
		end, err = e.squarem(x, f, ll)
	} else {
		end, err = e.plain(x, f, ll)
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
