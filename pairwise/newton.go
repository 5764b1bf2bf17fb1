package pairwise

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// newton takes the Newton steps of a Bradley-Terry fit (see BradleyTerry):
// the system (Laplacian + prior diagonal) δ = ∇L solved by conjugate
// gradients with the system's diagonal as the preconditioner.
type newton struct {
	c       *Comparisons
	lambda  float64
	threads int // goroutines of an evaluation of the objective
	// weight holds σ(d_c)σ(−d_c) for every comparison at the current
	// scores, the Laplacian's edge weights.
	weight []float64
	// curv holds the prior's curvature 2λσ(θ_i)σ(−θ_i) and diag the
	// diagonal of the negative Hessian, curv plus the weights of the
	// item's comparisons.
	curv, diag []float64
	// grad, delta, trial and the conjugate gradients' vectors are per
	// item.
	grad, delta, trial, res, dir, pre, hd []float64
}

// newNewton returns the Newton stepper for c with prior weight lambda.
func newNewton(c *Comparisons, lambda float64, threads int) *newton {
	n := len(c.Items)
	vec := func() []float64 { return make([]float64, n) }
	return &newton{c: c, lambda: lambda, threads: threads, weight: make([]float64, c.Len()),
		grad: vec(), curv: vec(), diag: vec(), delta: vec(), trial: vec(), res: vec(), dir: vec(), pre: vec(), hd: vec()}
}

// maxCG bounds the conjugate-gradient iterations of one Newton step.
const maxCG = 1000

// step moves theta by one Newton step, halved until the objective does not
// fall, and returns the largest change of a score that the whole step
// makes, the fit's measure of its distance from the maximum (0 if no part
// of the step raises the objective: the maximum to rounding).
func (nt *newton) step(theta []float64) (float64, error) {
	c := nt.c
	_, lp := btObjective(c, theta, nt.lambda, nt.grad, nt.weight, nt.threads)
	if math.IsNaN(lp) || math.IsInf(lp, 0) {
		return 0, fmt.Errorf("bt: the log-likelihood is not finite")
	}
	for i, t := range theta {
		s := sigmoid(t)
		nt.curv[i] = 2 * nt.lambda * s * (1 - s)
		nt.diag[i] = nt.curv[i]
	}
	for k, l := range c.Left {
		w := nt.weight[k]
		nt.diag[l] += w
		nt.diag[c.Right[k]] += w
	}
	nt.solve()
	full := 0.0
	for _, d := range nt.delta {
		full = max(full, math.Abs(d))
	}
	if gain := floats.Dot(nt.grad, nt.delta) / 2; gain <= 1e-10*(1+math.Abs(lp)) {
		// The step's predicted gain is below the rounding of L's sum,
		// where comparing L's values says nothing: near the maximum the
		// whole step is safe (Newton's quadratic convergence).
		floats.Add(theta, nt.delta)
		return full, nil
	}
	for range 60 {
		for i, d := range nt.delta {
			nt.trial[i] = theta[i] + d
		}
		_, lt := btObjective(c, nt.trial, nt.lambda, nil, nil, nt.threads)
		if lt >= lp {
			copy(theta, nt.trial)
			return full, nil
		}
		for i := range nt.delta {
			nt.delta[i] /= 2
		}
	}
	return 0, nil // no step of 2⁻⁶⁰ raised the objective: at the maximum to rounding
}

// solve sets delta to the solution of H δ = grad by preconditioned
// conjugate gradients, H the negative Hessian, to a residual below
// min(10⁻⁴, ‖grad‖) times the gradient's norm: an inexact Newton step that
// keeps the steps' quadratic convergence. Without a prior H is singular
// (every score shifted alike changes nothing) and the gradient sums to 0
// but for rounding, which solve removes, so that the system stays
// consistent.
func (nt *newton) solve() {
	if nt.lambda == 0 {
		mean := floats.Sum(nt.grad) / float64(len(nt.grad))
		floats.AddConst(-mean, nt.grad)
	}
	clear(nt.delta)
	copy(nt.res, nt.grad)
	rz := 0.0
	for i, r := range nt.res {
		nt.pre[i] = r / nt.diag[i]
		nt.dir[i] = nt.pre[i]
		rz += r * nt.pre[i]
	}
	gg := floats.Dot(nt.grad, nt.grad)
	eta := min(1e-4, math.Sqrt(gg))
	stop := eta * eta * gg
	for range maxCG {
		if floats.Dot(nt.res, nt.res) <= stop {
			return
		}
		nt.hessTimes(nt.dir, nt.hd)
		alpha := rz / floats.Dot(nt.dir, nt.hd)
		for i := range nt.delta {
			nt.delta[i] += alpha * nt.dir[i]
			nt.res[i] -= alpha * nt.hd[i]
		}
		rzNew := 0.0
		for i, r := range nt.res {
			nt.pre[i] = r / nt.diag[i]
			rzNew += r * nt.pre[i]
		}
		beta := rzNew / rz
		rz = rzNew
		for i := range nt.dir {
			nt.dir[i] = nt.pre[i] + beta*nt.dir[i]
		}
	}
}

// hessTimes sets out to H v, H the negative Hessian at the scores of the
// last step: the prior's curvature times v_i plus, for each comparison, its
// weight times the difference of its two items' v.
func (nt *newton) hessTimes(v, out []float64) {
	c := nt.c
	for i, k := range nt.curv {
		out[i] = k * v[i]
	}
	for k, l := range c.Left {
		r := c.Right[k]
		w := nt.weight[k] * (v[l] - v[r])
		out[l] += w
		out[r] -= w
	}
}
