package model

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/optimize"
)

// TestGradientConverge checks the gradient test of gradient fits: the
// largest |g_i| below max(tol, 10⁻¹²) converges, a NaN component never
// does, and otherwise FunctionConverge decides.
func TestGradientConverge(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		tol  float64
		g    []float64
		want optimize.Status
	}{
		{"below tol", 1e-7, []float64{1e-8, -5e-8, 0}, optimize.GradientThreshold},
		{"negative component above tol", 1e-7, []float64{1e-8, -2e-7}, optimize.NotTerminated},
		{"at tol", 1e-7, []float64{1e-7}, optimize.NotTerminated},
		{"tiny tol, gonum's 1e-12", 1e-20, []float64{5e-13}, optimize.GradientThreshold},
		{"NaN first", 1e-7, []float64{nan, 0}, optimize.NotTerminated},
		{"NaN last", 1e-7, []float64{0, 1e-9, nan}, optimize.NotTerminated},
		{"no gradient", 1e-7, nil, optimize.NotTerminated},
	} {
		t.Run(c.name, func(t *testing.T) {
			conv := &gradientConverge{tol: c.tol, FunctionConverge: optimize.FunctionConverge{Relative: 1e-10, Iterations: 10}}
			conv.Init(len(c.g))
			if got := conv.Converged(&optimize.Location{F: 1, Gradient: c.g}); got != c.want {
				t.Errorf("Converged(%v) = %v, want %v", c.g, got, c.want)
			}
		})
	}
	// With a large gradient, FunctionConverge stops after 10 iterations
	// without improvement.
	conv := &gradientConverge{tol: 1e-7, FunctionConverge: optimize.FunctionConverge{Relative: 1e-10, Iterations: 10}}
	conv.Init(1)
	var st optimize.Status
	for range 12 {
		st = conv.Converged(&optimize.Location{F: 1, Gradient: []float64{1}})
	}
	if st != optimize.FunctionConvergence {
		t.Errorf("flat function: status %v, want FunctionConvergence", st)
	}
}
