package pairwise

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// objective is a function to maximise: it returns its value at x and, if
// grad is not nil, writes its gradient there.
type objective func(x, grad []float64) float64

// maximize maximises f from x0 with gonum's L-BFGS, minimising −f/n so that
// the tolerances are per comparison (n comparisons). It stops after maxIter
// iterations (0: 1,000), when the largest component of the gradient of f/n
// is below gradTol (0: 10⁻⁸), or when f has changed by less than a fraction
// 10⁻¹³ in 20 iterations; the last two count as converged. It returns the
// maximiser, the iterations and whether the fit converged, or ctx's error
// if ctx ends first. A line search that fails before the tests are met
// (the function flat to rounding) ends the fit, not converged, at its last
// iterate.
func maximize(ctx context.Context, name string, f objective, x0 []float64, n, maxIter int, gradTol, funcTol float64) (x []float64, iters int, converged bool, err error) {
	if maxIter == 0 {
		maxIter = 1000
	}
	if gradTol == 0 {
		gradTol = 1e-8
	}
	scale := 1 / float64(n)
	// gonum asks for the value and then the gradient at the same point:
	// one evaluation gives both, kept for the second call.
	var at, grad []float64
	var val float64
	eval := func(x []float64) {
		if at != nil && slices.Equal(at, x) {
			return
		}
		if at == nil {
			at, grad = make([]float64, len(x)), make([]float64, len(x))
		}
		copy(at, x)
		val = -f(x, grad) * scale
		for i := range grad {
			grad[i] *= -scale
		}
	}
	prob := optimize.Problem{
		Func: func(x []float64) float64 { eval(x); return val },
		Grad: func(g, x []float64) { eval(x); copy(g, grad) },
		Status: func() (optimize.Status, error) {
			if err := ctx.Err(); err != nil {
				return optimize.Failure, err
			}
			return optimize.NotTerminated, nil
		},
	}
	converge := &optimize.FunctionConverge{Relative: 1e-13, Iterations: 20}
	if funcTol > 0 {
		converge = &optimize.FunctionConverge{Relative: funcTol, Iterations: 1}
	}
	settings := &optimize.Settings{
		MajorIterations:   maxIter,
		GradientThreshold: gradTol,
		Converger:         converge,
	}
	res, err := optimize.Minimize(prob, x0, settings, &optimize.LBFGS{})
	if cerr := ctx.Err(); cerr != nil {
		return nil, 0, false, cerr
	}
	if res == nil {
		return nil, 0, false, fmt.Errorf("%s: %v", name, err)
	}
	for _, v := range res.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, false, fmt.Errorf("%s: the optimiser produced non-finite parameters (%v)", name, res.Status)
		}
	}
	switch res.Status {
	case optimize.GradientThreshold, optimize.FunctionConvergence:
		converged = err == nil
	}
	return res.X, res.MajorIterations, converged, nil
}
