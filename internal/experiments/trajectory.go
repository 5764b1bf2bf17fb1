package experiments

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// fitTrajectory is a fit observed at several iteration limits.
type fitTrajectory struct {
	// At lists the iteration limits, ascending.
	At []int
	// Probs[i] is the consensus (J×K) that Model.Fit returns with
	// MaxIterations At[i]: the fit at major iteration At[i], or at its
	// end if it stopped earlier.
	Probs [][]float64
	// Final is the consensus where the fit stopped, Iterations the number
	// of major iterations done, Status the reason and Converged whether it
	// is an optimum rather than the iteration limit.
	Final      []float64
	Iterations int
	Status     string
	Converged  bool
}

// trajectory fits m to d with the settings s, exactly as m.Fit(ctx, d, s) does
// with s.Method LBFGS or CG (model.Auto is taken as LBFGS, which is what
// Fit picks for models without an EM algorithm)
// (same objective, initialisation, optimiser and stopping rules), and
// records the parameters after each major iteration listed in at, so that
// a single run gives what Fit would return for every iteration limit in at
// (capped by s.MaxIterations). The consensus at recorded parameters is
// computed by Fit itself, started there with every parameter fixed.
//
// It relies on Fit maximising the mean log-likelihood per label, minus the
// ridge penalty (λ/2N) Σ x², with gonum's optimiser and the stopping rules
// documented at model.Settings; a test checks it against Fit.
func trajectory(ctx context.Context, m model.Model, d *data.Dataset, s model.Settings, at []int) (*fitTrajectory, error) {
	if s.MaxIterations == 0 {
		s.MaxIterations = 1000
	}
	if s.GradientTol == 0 {
		s.GradientTol = 1e-7
	}
	if s.FunctionTol == 0 {
		s.FunctionTol = 1e-10
	}
	at = slices.Clone(at)
	slices.Sort(at)
	at = slices.Compact(at)
	n := float64(d.NumLabels())
	threads := max(s.Threads, 1)

	x0 := m.Init(d)
	cacheX := make([]float64, len(x0))
	cacheG := make([]float64, len(x0))
	var cacheF float64
	cached := false
	// As in Fit: an overflow stops the fit at the last finite iterate, and
	// a line search making more than maxLineSearchCalls calls is cut.
	nonFinite := false
	rec := &checkpoints{at: at}
	evaluate := func(x []float64) {
		if cached && slices.Equal(x, cacheX) {
			return
		}
		copy(cacheX, x)
		cacheF = -m.LogLikelihood(d, x, cacheG, threads) / n
		for i := range cacheG {
			cacheG[i] = -cacheG[i] / n
		}
		if s.Ridge > 0 {
			lambda := s.Ridge / n
			var sq float64
			for i, v := range x {
				sq += v * v
				cacheG[i] += lambda * v
			}
			cacheF += lambda / 2 * sq
		}
		cached = true
		if math.IsNaN(cacheF) || math.IsInf(cacheF, 0) || !allFinite(cacheG) {
			nonFinite = true
		}
	}
	prob := optimize.Problem{
		Func: func(x []float64) float64 { rec.calls++; evaluate(x); return cacheF },
		Grad: func(grad, x []float64) { rec.calls++; evaluate(x); copy(grad, cacheG) },
		Status: func() (optimize.Status, error) {
			if err := ctx.Err(); err != nil {
				return optimize.Failure, err
			}
			if nonFinite {
				return optimize.Failure, model.ErrNonFinite
			}
			if rec.calls-rec.atMajor > maxLineSearchCalls {
				return optimize.Failure, model.ErrLineSearch
			}
			return optimize.NotTerminated, nil
		},
	}
	for len(rec.xs) < len(at) && at[len(rec.xs)] <= 0 {
		rec.xs = append(rec.xs, slices.Clone(x0))
	}
	settings := &optimize.Settings{
		GradientThreshold: s.GradientTol,
		MajorIterations:   s.MaxIterations,
		Converger:         &optimize.FunctionConverge{Relative: s.FunctionTol, Iterations: 10},
		Recorder:          rec,
	}
	var method optimize.Method = &optimize.LBFGS{}
	if s.Method == model.CG {
		method = &optimize.CG{}
	}
	res, err := optimize.Minimize(prob, x0, settings, method)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if res == nil {
		return nil, fmt.Errorf("%s: %v", m.Name(), err)
	}
	for len(rec.xs) < len(at) {
		rec.xs = append(rec.xs, res.X)
	}
	tr := &fitTrajectory{At: at, Iterations: res.MajorIterations, Status: res.Status.String()}
	if err != nil {
		tr.Status += ": " + err.Error()
	}
	switch res.Status {
	case optimize.GradientThreshold, optimize.FunctionConvergence, optimize.StepConvergence, optimize.Success:
		tr.Converged = err == nil
	}
	for _, x := range rec.xs {
		p, err := consensusAt(ctx, m, d, x)
		if err != nil {
			return nil, err
		}
		tr.Probs = append(tr.Probs, p)
	}
	if tr.Final, err = consensusAt(ctx, m, d, res.X); err != nil {
		return nil, err
	}
	return tr, nil
}

// consensusAt returns the consensus of m on d at the parameters x, by a
// fit that starts at x with every parameter fixed.
func consensusAt(ctx context.Context, m model.Model, d *data.Dataset, x []float64) ([]float64, error) {
	fixed := make([]bool, len(x))
	for i := range fixed {
		fixed[i] = true
	}
	r, err := m.Fit(ctx, d, &model.Settings{Start: x, Fixed: fixed, Threads: 1})
	if err != nil {
		return nil, err
	}
	return r.Probs, nil
}

// checkpoints is an optimize.Recorder that copies the location at the
// major iterations listed in at.
type checkpoints struct {
	at   []int
	iter int
	xs   [][]float64
	// calls counts the calls of the function and its gradient, and
	// atMajor its value at the last major iteration.
	calls, atMajor int
}

// maxLineSearchCalls is model.Fit's bound on the calls of one line search.
const maxLineSearchCalls = 400

func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func (c *checkpoints) Init() error { return nil }

func (c *checkpoints) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if op&optimize.MajorIteration == 0 {
		return nil
	}
	c.iter++
	c.atMajor = c.calls
	for len(c.xs) < len(c.at) && c.at[len(c.xs)] <= c.iter {
		c.xs = append(c.xs, slices.Clone(loc.X))
	}
	return nil
}
