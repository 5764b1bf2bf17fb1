package model

import (
	"math"
	"sync"

	"github.com/consensuslab/consensus/internal/mem"
	"github.com/consensuslab/consensus/model/internal/fitting"
)

// squarem runs EM from x, whose log-likelihood is ll and whose expected
// counts are in e.acc, accelerated by SQUAREM (Varadhan and Roland 2008,
// "Simple and globally convergent methods for accelerating the convergence
// of any EM algorithm", scheme S3), on the parameter vector the M-steps
// write (logits). A cycle from x₀ with L(x₀) known is:
//
//	x₁ = F(x₀), x₂ = F(x₁), r = x₁ - x₀, v = x₂ - 2x₁ + x₀,
//	α = clamp(‖r‖/‖v‖, 1, αmax),
//	x' = x₀ + 2α r + α² v,
//
// then one E-step at x' and, if L(x') ≥ L(x₁), a stabilising M-step: the
// next cycle starts at F(x'). If L(x') < L(x₁) (or is not finite) the
// extrapolation is rejected and the next cycle starts at x₂, the plain EM
// step; α = 1 gives x' = x₂ without a trial. So the accepted iterates x₀,
// x₁, x' (or x₂), F(x'), … never decrease L. The shared parameters take
// one α and every object's own parameters their own (see extrapolate).
// αmax starts at 1 and is
// multiplied by 4 after an accepted step (α = 1 included) at αmax and
// divided by 4 (down to 1) after a rejected one.
//
// Besides the parameters and the expected counts it keeps one more vector
// of parameters (x₂, or x₁ on the way) and r in single precision: v is
// formed from x₂ - x₀ - 2r when needed, and x' overwrites x₀. r and the
// step length only steer the extrapolation, whose result is checked by its
// log-likelihood, so their precision does not affect the fixed point.
//
// The convergence test is plain EM's, applied to every EM step it takes
// (x₀ → x₁, x' → F(x') and x₁ → x₂ when it is evaluated): the fit stops
// when one of them changes L by at most FunctionTol·|L|.
func (e *emRun) squarem(x []float64, ll float64) (emEnd, error) {
	y := mem.Make[float64](len(x))
	r := mem.Make[float32](len(x))
	maxStep := 1.0
	for {
		// x = x₀, ll = L(x₀), e.acc holds the counts at x₀.
		if e.iter >= e.set.MaxIterations {
			return emEnd{x, ll, "IterationLimit", false}, nil
		}
		e.each(func(b [2]int) { copy(y[b[0]:b[1]], x[b[0]:b[1]]) })
		e.mstep(y) // x₁
		e.each(func(b [2]int) {
			for i := b[0]; i < b[1]; i++ {
				r[i] = float32(y[i] - x[i])
			}
		})
		ll1, done, err := e.step(y, ll)
		if err != nil {
			return emEnd{}, err
		}
		if done {
			return emEnd{y, ll1, "FunctionConvergence", true}, nil
		}
		if e.iter >= e.set.MaxIterations {
			return emEnd{y, ll1, "IterationLimit", false}, nil
		}
		e.mstep(y) // x₂
		// x ← x', unless every step length is 1 (x' = x₂).
		if alpha := e.extrapolate(x, y, r, maxStep); alpha > 1 {
			llx, err := e.eval(x)
			if err != nil {
				return emEnd{}, err
			}
			if llx >= ll1 { // false for NaN
				e.accept(llx)
				if alpha == maxStep {
					maxStep *= fitting.SquaremStepGrowth
				}
				if e.iter >= e.set.MaxIterations {
					return emEnd{x, llx, "IterationLimit", false}, nil
				}
				e.mstep(x) // F(x')
				if ll, done, err = e.step(x, llx); err != nil {
					return emEnd{}, err
				}
				if done {
					return emEnd{x, ll, "FunctionConvergence", true}, nil
				}
				continue
			}
			if alpha == maxStep {
				maxStep = max(1, maxStep/fitting.SquaremStepGrowth)
			}
		} else if maxStep == 1 {
			maxStep = fitting.SquaremStepGrowth
		}
		x, y = y, x // x₂
		if ll, done, err = e.step(x, ll1); err != nil {
			return emEnd{}, err
		}
		if done {
			return emEnd{x, ll, "FunctionConvergence", true}, nil
		}
	}
}

// extrapolate overwrites x₀ with SQUAREM's x' = x₀ + 2α r + α² v,
// v = x₂ - x₀ - 2r, and returns the largest α it used. The shared
// parameters (the worker and global blocks) take one step length, α =
// ‖r‖/‖v‖ over them; every object's own parameters (its rows of the object
// and task blocks), which given the shared ones enter the likelihood of that
// object's labels only, take their own, α_j = ‖r_j‖/‖v_j‖. Every α is
// clamped to [1, maxStep], and is 1 where it is not a number (r = v = 0).
// The objects are done on the objective's chunks in parallel.
func (e *emRun) extrapolate(x0, x2 []float64, r []float32, maxStep float64) float64 {
	lay := e.obj.lay
	shared := [][2]int{lay.W, lay.G}
	used := stepLength(x0, x2, r, maxStep, shared...)
	for _, b := range shared {
		extrapolateRange(x0, x2, r, used, b)
	}
	do, dt := e.rowDims()
	if do+dt == 0 {
		return used // no parameters of objects' own (LA)
	}
	var mu sync.Mutex
	e.obj.forChunks(func(c *chunk) {
		most := 1.0
		rows := e.objectRows(c.lo, c.lo)
		o, t := rows[0][0], rows[1][0] // object j's rows start here
		for range c.hi - c.lo {
			ob, tb := [2]int{o, o + do}, [2]int{t, t + dt}
			rr, vv := sumSquares(x0, x2, r, tb[0], tb[1])
			if do > 0 { // (DA-DS has none: no calls on empty rows)
				r1, v1 := sumSquares(x0, x2, r, ob[0], ob[1])
				rr, vv = r1+rr, v1+vv
			}
			a := clampStep(rr, vv, maxStep)
			most = max(most, a)
			if do > 0 {
				extrapolateRange(x0, x2, r, a, ob)
			}
			extrapolateRange(x0, x2, r, a, tb)
			o, t = o+do, t+dt
		}
		mu.Lock()
		used = max(used, most) // the same whatever the order
		mu.Unlock()
	})
	return used
}

// objectRows returns the index ranges of the rows of objects [lo, hi) in
// the object and the task blocks.
func (e *emRun) objectRows(lo, hi int) [2][2]int {
	lay := e.obj.lay
	do, dt := e.rowDims()
	return [2][2]int{
		{lay.O[0] + lo*do, lay.O[0] + hi*do},
		{lay.T[0] + lo*dt, lay.T[0] + hi*dt},
	}
}

// rowDims returns the number of parameters of one object in the object
// block and in the task block.
func (e *emRun) rowDims() (do, dt int) {
	lay := e.obj.lay
	nt := max(e.obj.d.NumTasks(), 1)
	return (lay.O[1] - lay.O[0]) / nt, (lay.T[1] - lay.T[0]) / nt
}

// each runs f on index ranges that together cover the parameter vector:
// the worker and global blocks on the calling goroutine, then every chunk's
// rows of the object and task blocks, in parallel.
func (e *emRun) each(f func(b [2]int)) {
	f(e.obj.lay.W)
	f(e.obj.lay.G)
	e.obj.forChunks(func(c *chunk) {
		for _, b := range e.objectRows(c.lo, c.hi) {
			f(b)
		}
	})
}

// stepLength returns ‖r‖/‖v‖ over the ranges [b[0], b[1]) of x₀, x₂ and r,
// with v = x₂ - x₀ - 2r, clamped to [1, maxStep] (see clampStep).
func stepLength(x0, x2 []float64, r []float32, maxStep float64, ranges ...[2]int) float64 {
	var rr, vv float64
	for _, b := range ranges {
		r, v := sumSquares(x0, x2, r, b[0], b[1])
		rr += r
		vv += v
	}
	return clampStep(rr, vv, maxStep)
}

// sumSquares returns ‖r‖² and ‖v‖² over [lo, hi), v = x₂ - x₀ - 2r.
func sumSquares(x0, x2 []float64, r []float32, lo, hi int) (rr, vv float64) {
	for i := lo; i < hi; i++ {
		ri := float64(r[i])
		v := x2[i] - x0[i] - 2*ri
		rr += ri * ri
		vv += v * v
	}
	return rr, vv
}

// clampStep returns the step length √(rr/vv) clamped to [1, maxStep]: 1 if
// rr = 0 or it is not a number, maxStep if vv = 0 < rr.
func clampStep(rr, vv, maxStep float64) float64 {
	if !(rr > 0) || math.IsNaN(vv) {
		return 1
	}
	if vv == 0 {
		return maxStep
	}
	return min(max(math.Sqrt(rr/vv), 1), maxStep)
}

// extrapolateRange overwrites x₀[b[0]:b[1]] with x₀ + 2α r + α² v,
// v = x₂ - x₀ - 2r: with x₂ itself for α = 1.
func extrapolateRange(x0, x2 []float64, r []float32, alpha float64, b [2]int) {
	if alpha == 1 {
		copy(x0[b[0]:b[1]], x2[b[0]:b[1]])
		return
	}
	a2 := alpha * alpha
	for i := b[0]; i < b[1]; i++ {
		ri := float64(r[i])
		x0[i] += 2*alpha*ri + a2*(x2[i]-x0[i]-2*ri)
	}
}
