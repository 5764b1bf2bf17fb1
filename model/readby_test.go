package model_test

import (
	"testing"

	"github.com/consensuslab/consensus/model"
)

// TestSettingsReadBy checks which settings fits read with given settings:
// the gradient tolerance only by the gradient methods (not by la-ds's
// default EM, unless a ridge or another solver is set), the iteration
// limit by kos, zbs and mmsr through model.IterationSetter, nothing by
// wawa.
func TestSettingsReadBy(t *testing.T) {
	for _, c := range []struct {
		name  string
		set   *model.Settings
		which model.Setting
		want  bool
	}{
		{"la-ds", nil, model.SetGradientTol, false},
		{"la-ds", &model.Settings{Method: model.EM}, model.SetGradientTol, false},
		{"la-ds", &model.Settings{Method: model.LBFGS}, model.SetGradientTol, true},
		{"la-ds", &model.Settings{Ridge: 1}, model.SetGradientTol, true},
		{"la-ds", nil, model.SetFunctionTol, true},
		{"la-ds", nil, model.SetParamTol, false},
		{"la-glad", nil, model.SetGradientTol, true},
		{"la-glad", &model.Settings{Method: model.EM}, model.SetGradientTol, false},
		{"vb-da-ds", nil, model.SetMaxIterations, true},
		{"vb-da-ds", nil, model.SetGradientTol, false},
		{"mmsr", nil, model.SetMaxIterations, true},
		{"mmsr", nil, model.SetFunctionTol, false},
		{"wawa", nil, model.SetMaxIterations, false},
	} {
		est, err := model.ByName(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.set.ReadBy(est, c.which); got != c.want {
			t.Errorf("%s with %+v: ReadBy(setting %d) = %v, want %v", c.name, c.set, c.which, got, c.want)
		}
	}
}

// TestWithMaxIterationsList checks that model.WithMaxIterations sets the
// count of the IterationSetters only, and that 0 leaves the list as it is.
func TestWithMaxIterationsList(t *testing.T) {
	var ests []model.Estimator
	for _, n := range []string{"la-ds", "kos", "mmsr"} {
		est, err := model.ByName(n)
		if err != nil {
			t.Fatal(err)
		}
		ests = append(ests, est)
	}
	for _, c := range []struct {
		n       int
		changed []bool
	}{
		{0, []bool{false, false, false}},
		{-1, []bool{false, false, false}},
		{3, []bool{false, true, true}},
	} {
		got := model.WithMaxIterations(ests, c.n)
		if len(got) != len(ests) {
			t.Fatalf("n=%d: %d estimators, want %d", c.n, len(got), len(ests))
		}
		for i := range got {
			if changed := got[i] != ests[i]; changed != c.changed[i] {
				t.Errorf("n=%d: %s changed %v, want %v", c.n, ests[i].Name(), changed, c.changed[i])
			}
		}
	}
}
