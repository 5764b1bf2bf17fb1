package model_test

import (
	"context"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/model"
)

// TestReads checks which settings the registered models say they read:
// the maximum-likelihood forms all but ParamTol, the variational ones the
// iteration limit and the stopping rule (and a start, when their noise
// posterior can set its workers), and the closed-form and
// Crowd-Kit methods none (kos, zbs and mmsr take their iteration count
// through model.IterationSetter instead).
func TestReads(t *testing.T) {
	all := []model.Setting{model.SetMethod, model.SetMaxIterations, model.SetGradientTol, model.SetFunctionTol, model.SetParamTol, model.SetRidge, model.SetStart}
	for _, c := range []struct {
		name  string
		reads []model.Setting
		iters bool
	}{
		{"la-ds", []model.Setting{model.SetMethod, model.SetMaxIterations, model.SetGradientTol, model.SetFunctionTol, model.SetRidge, model.SetStart}, false},
		{"hda-glad", []model.Setting{model.SetMethod, model.SetMaxIterations, model.SetGradientTol, model.SetFunctionTol, model.SetRidge, model.SetStart}, false},
		{"vb-da-ds", []model.Setting{model.SetMaxIterations, model.SetFunctionTol, model.SetParamTol, model.SetStart}, false},
		{"vb-da-glad", []model.Setting{model.SetMaxIterations, model.SetFunctionTol, model.SetParamTol, model.SetStart}, false},
		{"rfe", nil, false},
		{"wawa", nil, false},
		{"gmv", nil, false},
		{"kos", nil, true},
		{"zbs", nil, true},
		{"mmsr", nil, true},
	} {
		est, err := model.ByName(c.name)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := est.(model.SettingsReader)
		for _, s := range all {
			want := false
			for _, x := range c.reads {
				want = want || x == s
			}
			if got := r != nil && r.Reads(s); got != want {
				t.Errorf("%s reads setting %d: %v, want %v", c.name, s, got, want)
			}
		}
		if _, ok := est.(model.IterationSetter); ok != c.iters {
			t.Errorf("%s: IterationSetter %v, want %v", c.name, ok, c.iters)
		}
	}
}

// TestWithMaxIterations checks that the iteration count set through
// IterationSetter is the one a fit runs: zbs and kos stop after one
// iteration, and mmsr after at most one sweep.
func TestWithMaxIterations(t *testing.T) {
	d, _, err := datasets.Load("rte")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"zbs", "kos", "mmsr"} {
		est, _ := model.ByName(name)
		one := est.(model.IterationSetter).WithMaxIterations(1)
		r, err := one.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Iterations > 1 {
			t.Errorf("%s with one iteration ran %d", name, r.Iterations)
		}
		full, err := est.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		if full.Iterations <= 1 {
			t.Errorf("%s by default ran %d iterations, so the test shows nothing", name, full.Iterations)
		}
	}
}
