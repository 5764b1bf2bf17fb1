package pairwise

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// NoisyBT fits the noisy Bradley-Terry model (Crowd-Kit's
// NoisyBradleyTerry): worker w compares by quality with probability
// γ_w = σ(g_w) and otherwise picks the left item with probability
// β_w = σ(b_w), so that
//
//	P(left ≻ right | w) = γ_w σ(θ_left − θ_right) + (1 − γ_w) β_w.
//
// The fit maximises the log-likelihood of the comparisons plus the log
// priors λ (log σ(θ_i) + log σ(−θ_i)) on every score (as BradleyTerry's)
// and log σ(x) + log σ(−x) on every g_w and b_w, which are uniform priors
// on γ_w and β_w maximised in their logits, by L-BFGS (gonum's
// optimize.LBFGS) with the analytic gradient, from the Bradley-Terry
// scores, γ_w = σ(1) and β_w = 1/2. The zero value is the default: λ = 1,
// at most 1,000 iterations, convergence when the largest component of the
// gradient of the objective per comparison is below 10⁻⁸ or the
// objective has changed by less than a fraction 10⁻¹³ in 20 iterations
// (FuncTol sets another fraction, in one iteration).
//
// Unlike Bradley-Terry's, this objective is not concave, so the fit finds
// a local maximum; the start from the Bradley-Terry scores makes it the
// one near them.
type NoisyBT struct {
	// Prior is the weight λ of the scores' prior; 0 means 1.
	Prior float64
	// MaxIterations bounds the L-BFGS iterations; 0 means 1,000.
	MaxIterations int
	// Threads is the number of goroutines that evaluate the objective;
	// 0 means all cores. The result does not depend on it.
	Threads int
	// GradTol is the convergence test on the largest component of the
	// gradient of the objective divided by the number of comparisons;
	// 0 means 10⁻⁸.
	GradTol float64
	// FuncTol, if positive, stops the fit when an iteration changes the
	// objective by less than this fraction of its size (at least 1), as
	// the ftol of SciPy's L-BFGS-B, which is Crowd-Kit's tol; 0 means a
	// fraction 10⁻¹³ over 20 iterations.
	FuncTol float64
}

// ErrNoWorkers is the error of a noisy fit of comparisons without workers.
var ErrNoWorkers = errors.New("the noisy Bradley-Terry model needs the worker of every comparison (a worker column)")

// ErrTies is the error of a noisy fit of comparisons with ties, which the
// noisy model does not describe (BradleyTerry fits them).
var ErrTies = errors.New("the noisy Bradley-Terry model has no ties; fit the comparisons with Bradley-Terry, which counts a tie as half a win for each item")

// Fit fits the model to c. It returns ctx's error if ctx ends first.
func (m NoisyBT) Fit(ctx context.Context, c *Comparisons) (*Result, error) {
	bt := BradleyTerry{Prior: m.Prior, Threads: m.Threads}
	if err := bt.check(); err != nil {
		return nil, err
	}
	if m.MaxIterations < 0 || m.GradTol < 0 || math.IsNaN(m.GradTol) || m.FuncTol < 0 || math.IsNaN(m.FuncTol) {
		return nil, fmt.Errorf("the iteration limit %d and the tolerances %v (gradient) and %v (function) must not be negative", m.MaxIterations, m.GradTol, m.FuncTol)
	}
	if c.Len() == 0 {
		return nil, ErrNoComparisons
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	if !c.HasWorkers() {
		return nil, ErrNoWorkers
	}
	if c.HasTies() {
		return nil, ErrTies
	}
	start, err := bt.Fit(ctx, c)
	if err != nil {
		return nil, err
	}
	n, nw := len(c.Items), len(c.Workers)
	x0 := make([]float64, n+2*nw)
	copy(x0, start.Scores)
	for w := range nw {
		x0[n+w] = 1
	}
	obj := noisyObjective{c: c, lambda: bt.lambda(), threads: m.Threads}
	x, iters, converged, err := maximize(ctx, "noisy-bt", obj.eval, x0, c.Len(), m.MaxIterations, m.GradTol, m.FuncTol)
	if err != nil {
		return nil, err
	}
	r := &Result{
		Model: "noisy-bt", Items: c.Items, Workers: c.Workers, Wins: start.Wins, Games: start.Games,
		Scores:     append([]float64(nil), x[:n]...),
		Skills:     make([]float64, nw),
		Biases:     make([]float64, nw),
		Iterations: iters,
		Converged:  converged,
	}
	for w := range nw {
		r.Skills[w] = sigmoid(x[n+w])
		r.Biases[w] = sigmoid(x[n+nw+w])
	}
	r.LogPosterior = obj.eval(x, nil)
	r.LogLikelihood = obj.logLikelihood(x, r.LogPosterior)
	return r, nil
}

// noisyObjective is the noisy model's log posterior (up to a constant) as a
// function of x = (θ_1 … θ_n, g_1 … g_W, b_1 … b_W).
type noisyObjective struct {
	c      *Comparisons
	lambda float64 // the scores' prior weight
	// threads is the number of goroutines of an evaluation (0: all
	// cores).
	threads int
	// gamma and beta hold every worker's γ_w and β_w at the x of the
	// evaluation, taken once per worker rather than per comparison.
	gamma, beta []float64
	// buf holds the terms of a block of comparisons.
	buf []noisyTerm
}

// eval returns the log posterior at x and, if grad is not nil, writes its
// gradient there. The per-comparison terms are computed on o.threads
// goroutines and added in the comparisons' order (runBlocks), so the result
// does not depend on the number of goroutines.
func (o *noisyObjective) eval(x, grad []float64) float64 {
	c := o.c
	n, nw := len(c.Items), len(c.Workers)
	if grad != nil {
		clear(grad)
	}
	if o.gamma == nil {
		o.gamma, o.beta = make([]float64, nw), make([]float64, nw)
		o.buf = make([]noisyTerm, min(blockSize, c.Len()))
	}
	for w := range nw {
		o.gamma[w], o.beta[w] = sigmoid(x[n+w]), sigmoid(x[n+nw+w])
	}
	var lp float64
	runBlocks(c.Len(), o.threads, func(lo, hi, at int) {
		for k := lo; k < hi; k++ {
			o.buf[at+k-lo] = o.term(x, k, grad != nil)
		}
	}, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			t := &o.buf[k-lo]
			lp += t.logP
			if grad == nil {
				continue
			}
			l, rt, w := c.Left[k], c.Right[k], c.Worker[k]
			grad[l] += t.dd
			grad[rt] -= t.dd
			grad[n+int(w)] += t.dg
			grad[n+nw+int(w)] += t.db
		}
	})
	for i, v := range x {
		lambda := o.priorWeight(i)
		if lambda == 0 {
			continue
		}
		pv, pd := logisticPrior(lambda, v)
		lp += pv
		if grad != nil {
			grad[i] += pd
		}
	}
	return lp
}

// noisyTerm is one comparison's term of the log posterior and its
// derivatives with respect to θ_left (−θ_right's), g_w and b_w.
type noisyTerm struct {
	logP, dd, dg, db float64
}

// term returns comparison k's term at x, with its derivatives if deriv is
// set.
func (o *noisyObjective) term(x []float64, k int, deriv bool) noisyTerm {
	c := o.c
	d := x[c.Left[k]] - x[c.Right[k]]
	w := c.Worker[k]
	gamma, beta := o.gamma[w], o.beta[w]
	sign := 1.0
	if !c.LeftWon[k] {
		d, beta, sign = -d, 1-beta, -1
	}
	s := sigmoid(d)
	p := gamma*s + (1-gamma)*beta
	t := noisyTerm{logP: math.Log(p)}
	if deriv {
		t.dd = sign * (gamma * s * (1 - s) / p) // ∂ log p / ∂θ_left, through d = θ_winner − θ_loser
		t.dg = gamma * (1 - gamma) * (s - beta) / p
		t.db = sign * (1 - gamma) * beta * (1 - beta) / p
	}
	return t
}

// priorWeight returns the weight of parameter i's logistic prior: λ for a
// score, 1 for a worker's g_w and b_w.
func (o *noisyObjective) priorWeight(i int) float64 {
	if i < len(o.c.Items) {
		return o.lambda
	}
	return 1
}

// logLikelihood returns the log-likelihood of the comparisons at x, given
// lp, the log posterior there (eval's value): lp less the priors.
func (o *noisyObjective) logLikelihood(x []float64, lp float64) float64 {
	for i, v := range x {
		pv, _ := logisticPrior(o.priorWeight(i), v)
		lp -= pv
	}
	return lp
}
