package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/optimize"

	"github.com/consensuslab/consensus/data"
)

// Fit maximises the log-likelihood of d under m and returns the consensus
// distributions at the optimum: the LA posteriors or the DA distributions
// q_j. It starts from Init and uses the method in s; the log-likelihood is
// computed together with its gradient in one pass over the labels.
//
// The function handed to the optimiser is the negative mean log-likelihood
// per label, -L/N, so that the tolerances in Settings do not depend on the
// size of the data.
func (m Model) Fit(d *data.Dataset, s *Settings) (*Result, error) {
	if err := checkData(d); err != nil {
		return nil, err
	}
	set := s.withDefaults()
	start := time.Now()
	obj := newObjective(m, d, set.Threads)
	x0 := set.Start
	if x0 == nil {
		x0 = m.Init(d)
	} else if len(x0) != obj.lay.Dim() {
		return nil, fmt.Errorf("model %s: start vector has %d values, want %d", m.Name(), len(x0), obj.lay.Dim())
	}
	if set.Fixed != nil && len(set.Fixed) != len(x0) {
		return nil, fmt.Errorf("model %s: fixed mask has %d values, want %d", m.Name(), len(set.Fixed), len(x0))
	}
	n := float64(d.NumLabels())

	// gonum calls Func and Grad separately, often at the same x: cache
	// the last evaluation.
	cacheX := make([]float64, len(x0))
	cacheG := make([]float64, len(x0))
	var cacheF float64
	cached := false
	evals := 0
	evaluate := func(x []float64) {
		if cached && slices.Equal(x, cacheX) {
			return
		}
		copy(cacheX, x)
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
	}
	prob := optimize.Problem{
		Func: func(x []float64) float64 {
			evaluate(x)
			return cacheF
		},
		Grad: func(grad, x []float64) {
			evaluate(x)
			copy(grad, cacheG)
		},
		Status: func() (optimize.Status, error) {
			if err := set.Context.Err(); err != nil {
				return optimize.Failure, err
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		GradientThreshold: set.GradientTol,
		MajorIterations:   set.MaxIterations,
		Converger: &optimize.FunctionConverge{
			Relative:   set.FunctionTol,
			Iterations: 10,
		},
	}
	if set.Progress != nil {
		settings.Recorder = &progressRecorder{f: set.Progress, start: start, max: set.MaxIterations, n: n}
	}
	var method optimize.Method
	switch set.Method {
	case CG:
		method = &optimize.CG{}
	default:
		method = &optimize.LBFGS{}
	}
	res, err := optimize.Minimize(prob, x0, settings, method)
	if cerr := set.Context.Err(); cerr != nil {
		return nil, cerr
	}
	if res == nil {
		return nil, fmt.Errorf("model %s: %v", m.Name(), err)
	}
	x := res.X
	if !finite(x) {
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
	}
	r.Probs = make([]float64, d.NumTasks()*d.NumClasses())
	obj.outputs(x, r.Probs)
	r.Runtime = time.Since(start)
	return r, nil
}

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

func finite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func checkData(d *data.Dataset) error {
	if d == nil || d.NumLabels() == 0 {
		return errors.New("no labels to fit")
	}
	if d.NumClasses() < 2 {
		return fmt.Errorf("only one class (%s) in the data: a consensus needs at least two; declare the others with --classes", d.Classes[0])
	}
	return d.Validate()
}

type progressRecorder struct {
	f     func(Progress)
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
	p.f(Progress{Iteration: p.iter, MaxIterations: p.max, LogLikelihood: -loc.F * p.n, Elapsed: time.Since(p.start)})
	return nil
}
