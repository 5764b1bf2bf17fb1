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
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model/internal/fitting"
	"github.com/consensuslab/consensus/noise"
	"gonum.org/v1/gonum/optimize"
)

// Fit maximises the log-likelihood of d under m and returns the consensus
// distributions at the optimum: the LA posteriors or the DA distributions
// q_j. It starts from Init and uses the method in s; the log-likelihood is
// computed together with its gradient in one pass over the labels.
//
// The function handed to the optimiser is the negative mean log-likelihood
// per label, -L/N, so that the tolerances in Settings do not depend on the
// size of the data.
//
// A fit whose workers are on average worse than chance (Result.Agreement
// below 1/K: the mirror mode, in which the classes are switched) goes
// through the label-switching guard described at Guard: it is fitted
// again from starts on the other side of the switch, and the fit whose
// workers agree best with its consensus is kept; its Method says which.
// Fits from Settings.Start or with Settings.Fixed are kept as they are.
//
// A fit with training gold (latent.WithGold with some known class) is not
// guarded, since its gold tasks fix which class is which, and is made from
// two starts, Init's and one whose workers start from the gold tasks alone
// (goldWeights), keeping the one of higher log-likelihood: from the
// majority vote alone a majority of adversarial workers is followed, from
// the gold alone it is found.
func (m Model) Fit(ctx context.Context, d *data.Dataset, s *Settings) (*Result, error) {
	if err := CheckParts(m.Noise, m.Latent, true); err != nil {
		return nil, err
	}
	gold := knownClasses(m.Latent)
	fixed := s != nil && (s.Start != nil || s.Fixed != nil)
	r, err := m.FitOnce(ctx, d, s)
	switch {
	case err != nil || fixed:
		return r, err
	case gold == nil:
		return Guard{}.Check(ctx, m, d, s, r)
	}
	var set Settings
	if s != nil {
		set = *s
	}
	set.Start = m.initWith(d, GoldWeights(gold))
	g, err := m.FitOnce(ctx, d, &set)
	if err != nil {
		return nil, err
	}
	return KeepBetter(r, g, r.LogLikelihood, g.LogLikelihood), nil
}

// KeepBetter returns the one of a and b whose criterion (la, lb: the
// log-likelihood or bound) is higher, with the iterations, evaluations and
// time of both; if it is b, a fit from the gold tasks alone, its Method
// says so.
func KeepBetter(a, b *Result, la, lb float64) *Result {
	best, other := a, b
	if lb > la {
		best, other = b, a
		best.Method += "; the workers started from the gold tasks"
	}
	best.Iterations += other.Iterations
	best.Evaluations += other.Evaluations
	best.Runtime += other.Runtime
	return best
}

// knownClasses returns the gold classes of a (latent.WithGold, possibly
// inside other wrappers) if some object has one, and nil otherwise.
func knownClasses(a latent.Assumption) []int {
	for {
		if g, ok := a.(latent.WithGold); ok {
			if slices.IndexFunc(g.Class, func(c int) bool { return c >= 0 }) >= 0 {
				return g.Class
			}
			return nil
		}
		u, ok := a.(unwrapper)
		if !ok {
			return nil
		}
		a = u.Unwrap()
	}
}

// FitOnce is Fit without the label-switching guard (Guard): one fit from
// the start of s (nil: the defaults), for a family that runs the guard on
// its own terms, as package hda does.
func (m Model) FitOnce(ctx context.Context, d *data.Dataset, s *Settings) (*Result, error) {
	if err := CheckParts(m.Noise, m.Latent, true); err != nil {
		return nil, err
	}
	if err := CheckFit(ctx, d); err != nil {
		return nil, err
	}
	if err := latent.Check(m.Latent, d); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if err := noise.CheckClasses(m.Noise, d.NumClasses()); err != nil {
		return nil, fmt.Errorf("model %s: %w", m.Name(), err)
	}
	set := s.WithDefaults()
	start := time.Now()
	obj, err := buildObjective(m, d, set.Threads)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	x0 := set.Start
	if x0 == nil {
		x0 = m.Init(d)
	} else if len(x0) != obj.lay.Dim() {
		return nil, fmt.Errorf("model %s: start vector has %d values, want %d", m.Name(), len(x0), obj.lay.Dim())
	}
	if set.Fixed != nil && len(set.Fixed) != len(x0) {
		return nil, fmt.Errorf("model %s: fixed mask has %d values, want %d", m.Name(), len(set.Fixed), len(x0))
	}
	if set.Method == Auto {
		method := LBFGS
		if fitsByEM(set, obj.hasMStep) {
			method = EM
		}
		set.Method = method
	}
	if set.Method == EM {
		return m.fitEM(ctx, d, set, obj, x0, start)
	}
	n := float64(d.NumLabels())

	// With every parameter from some index on held (Settings.Fixed, such
	// as the q_j of Guard's relabelled start), gonum's vectors hold
	// only the dim before it (see optimDim); full is the whole vector the
	// objective takes, its held part from x0.
	dim := len(x0)
	if !set.fullOptim {
		dim = optimDim(set.Fixed, len(x0))
	}
	var full []float64
	if dim < len(x0) {
		full = mem.Make[float64](len(x0))
		copy(full, x0)
	}
	// gonum calls Func and Grad separately, often at the same x: cache
	// the last evaluation.
	cacheX := mem.Make[float64](dim)
	cacheG := mem.Make[float64](len(x0))
	var cacheF float64
	cached := false
	evals := 0
	// nonFinite is set when an evaluation overflows (a NaN or an infinity
	// in the value or the gradient, which gonum's line searches cannot
	// recover from); Status then stops the fit at the last finite iterate.
	nonFinite := false
	// calls counts the calls of Func and Grad, and atMajor its value at
	// the last major iteration: a line search that keeps calling them
	// without finishing (gonum's can cycle at one point forever when the
	// function is flat to rounding) is stopped by Status.
	calls, atMajor := 0, 0
	evaluate := func(x []float64) {
		if cached && slices.Equal(x, cacheX) {
			return
		}
		copy(cacheX, x)
		if full != nil {
			copy(full, x)
			x = full
		}
		cacheF = -obj.eval(x, cacheG) / n
		for i := range cacheG {
			cacheG[i] = -cacheG[i] / n
		}
		if set.Ridge > 0 {
			cacheF += ridge(set.Ridge/n, x, cacheG)
		}
		for i, f := range set.Fixed {
			if f {
				cacheG[i] = 0
			}
		}
		cached = true
		evals++
		if !fitting.IsFinite(cacheF) || !num.AllFinite(cacheG) {
			nonFinite = true
		}
	}
	prob := optimize.Problem{
		Func: func(x []float64) float64 {
			calls++
			evaluate(x)
			return cacheF
		},
		Grad: func(grad, x []float64) {
			calls++
			evaluate(x)
			copy(grad, cacheG)
		},
		Status: func() (optimize.Status, error) {
			if err := ctx.Err(); err != nil {
				return optimize.Failure, err
			}
			if nonFinite {
				return optimize.Failure, ErrNonFinite
			}
			if calls-atMajor > maxLineSearchCalls {
				return optimize.Failure, ErrLineSearch
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		MajorIterations: set.MaxIterations,
		Converger: &gradientConverge{
			tol: set.GradientTol,
			FunctionConverge: optimize.FunctionConverge{
				Relative:   set.FunctionTol,
				Iterations: 10,
			},
		},
	}
	settings.Recorder = &progressRecorder{f: set.Progress, start: start, max: set.MaxIterations, n: n,
		major: func() { atMajor = calls }}
	var method optimize.Method
	// The methods' own gradient tests are off (NaN): gradientConverge
	// makes them, faster.
	switch set.Method {
	case CG:
		method = &optimize.CG{GradStopThreshold: math.NaN()}
	default:
		method = &optimize.LBFGS{GradStopThreshold: math.NaN()}
	}
	res, err := optimize.Minimize(prob, x0[:dim], settings, method)
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if res == nil {
		return nil, fmt.Errorf("model %s: %v", m.Name(), err)
	}
	x := res.X
	if full != nil {
		copy(full, x)
		x = full
	}
	if !num.AllFinite(x) {
		return nil, fmt.Errorf("model %s: the optimiser produced non-finite parameters (%v)", m.Name(), res.Status)
	}
	r := &Result{
		Model:         m.Name(),
		Data:          d,
		Params:        x,
		Iterations:    res.MajorIterations,
		Evaluations:   evals,
		Status:        res.Status.String(),
		Converged:     converged(res.Status, err),
		Method:        set.Method.String(),
		model:         m,
		obj:           obj,
		LogLikelihood: obj.eval(x, make([]float64, len(x))),
	}
	if err != nil && !r.Converged {
		r.Status += ": " + err.Error()
		r.Stop = err
	}
	r.Probs = obj.outputs(x)
	if !fitting.IsFinite(r.LogLikelihood) || !num.AllFinite(r.Probs) {
		which := "fitted"
		if res.MajorIterations == 0 {
			which = "initial"
		}
		return nil, fmt.Errorf("model %s: the log-likelihood is not finite at the %s parameters; start from other values or use a ridge", m.Name(), which)
	}
	r.Runtime = time.Since(start)
	return r, nil
}

// gradientConverge is the convergence test of a gradient fit, made at every
// major iteration: the fit has converged (optimize.GradientThreshold) when
// the largest absolute component of the gradient is below tol, or below
// 10⁻¹², the threshold of gonum's methods, whichever is larger; otherwise
// FunctionConverge decides. It is what gonum does with
// Settings.GradientThreshold = tol and the methods' default
// GradStopThreshold, in the same order, without floats.Norm(g, ∞), whose
// math.Max per component made the two tests about a tenth of the time of a
// DA-GLAD fit.
type gradientConverge struct {
	tol float64
	optimize.FunctionConverge
}

// Converged returns the status of the fit at loc.
func (c *gradientConverge) Converged(loc *optimize.Location) optimize.Status {
	if loc.Gradient != nil && maxAbs(loc.Gradient) < max(c.tol, gonumGradStop) {
		return optimize.GradientThreshold
	}
	return c.FunctionConverge.Converged(loc)
}

// gonumGradStop is the default GradStopThreshold of gonum's LBFGS and CG.
const gonumGradStop = 1e-12

// maxAbs returns the largest |g_i|, NaN if some g_i is NaN.
func maxAbs(g []float64) float64 {
	var m float64
	for _, v := range g {
		a := math.Abs(v)
		if a > m {
			m = a
		} else if a != a {
			return a
		}
	}
	return m
}

// ErrLineSearch is the error in Result.Status of a fit stopped because one
// line search called the function more than maxLineSearchCalls times
// without finishing, which happens when the function is flat to rounding
// along the search direction. The result holds the last iterate.
var ErrLineSearch = fmt.Errorf("the line search made no progress in %d evaluations (the function is flat to rounding); the result is the last iterate", maxLineSearchCalls/2)

// maxLineSearchCalls bounds the calls of the function and its gradient in
// one line search; a normal one needs fewer than 40.
const maxLineSearchCalls = 400

// ErrNonFinite is the error in Result.Status of a fit stopped because an
// evaluation of the log-likelihood or its gradient overflowed (a parameter
// far in the range where exp overflows, such as a GLAD log difficulty above
// 709). The result holds the last iterate with finite values.
var ErrNonFinite = errors.New("non-finite log-likelihood or gradient at a trial point (a parameter overflowed); the result is the last finite iterate")

// converged tells whether a gonum status means the optimum was reached
// (as opposed to a limit or a failure).
func converged(st optimize.Status, err error) bool {
	if err != nil {
		return false
	}
	switch st {
	case optimize.GradientThreshold, optimize.FunctionConvergence, optimize.StepConvergence, optimize.Success:
		return true
	}
	return false
}

// ErrOneClass is returned, wrapped with the class, by every fit of a data
// set with a single class (data.Dataset.Classes): a consensus needs at
// least two. A data set read from labels that all name one class needs
// the other classes declared (dataio.ReadSettings.Classes).
var ErrOneClass = errors.New("a consensus needs at least two classes")

// checkData returns an error if d cannot be fitted: no labels, one class,
// or a failed data.Dataset.Validate.
func checkData(d *data.Dataset) error {
	if d == nil || d.NumLabels() == 0 {
		return errors.New("no labels to fit")
	}
	if d.NumClasses() < 2 {
		return fmt.Errorf("only one class (%s) in the data: %w", d.Classes[0], ErrOneClass)
	}
	return d.Validate()
}

type progressRecorder struct {
	f     func(Progress) // may be nil
	major func()         // called at every major iteration
	start time.Time
	max   int
	n     float64
	iter  int
}

func (p *progressRecorder) Init() error { return nil }

func (p *progressRecorder) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if op&optimize.MajorIteration == 0 {
		return nil
	}
	p.iter++
	p.major()
	if p.f == nil {
		return nil
	}
	p.f(Progress{Iteration: p.iter, MaxIterations: p.max, LogLikelihood: -loc.F * p.n, Elapsed: time.Since(p.start)})
	return nil
}

// optimDim returns the number of the n parameters that a gradient fit
// hands to gonum's optimiser when fixed holds every parameter from some
// index on: the free ones before it, rounded up to a multiple of four (the
// held ones in between stay at their values, their gradient zero). The
// held parameters' gradient is zero and their steps are zero, so they add
// only zeros to gonum's sums; with the same first multiple of four
// parameters the sums' four-way unrolled loops (f64.DotUnitary) add the
// same numbers in the same order, and the fit is the same bit for bit,
// while the optimiser's history (L-BFGS keeps 15 pairs of vectors) holds
// only the free parameters. Without fixed, without a held suffix or
// without a free parameter, it returns n.
func optimDim(fixed []bool, n int) int {
	if fixed == nil {
		return n
	}
	free := n
	for free > 0 && fixed[free-1] {
		free--
	}
	if free == 0 {
		return n // nothing to fit: gonum takes the whole vector as before
	}
	return min(n, (free+3)/4*4)
}

// GoldWeights returns the weights of every label in a start from the gold
// objects alone (noise.Variational.Start, noise.Model.Init): one-hot at
// the known class of an object with gold (gold[j] ≥ 0), zero for the
// others, so that the workers start as the gold shows them.
func GoldWeights(gold []int) data.TaskWeights {
	return data.WithClasses(nil, gold)
}
