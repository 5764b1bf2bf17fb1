package latent_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// TestCheck checks that Check refuses, with an error naming the problem
// and wrapping ErrUnsuited, every setting that does not suit the data set
// (one task, K = 2), and accepts the others; that NewEvaluator returns the
// same error, instead of panicking, on every refused one and works on every
// accepted one.
func TestCheck(t *testing.T) {
	d := oneTask(t)
	for _, c := range []struct {
		name string
		a    latent.Assumption
		want string // a substring of the error; "" means no error
	}{
		{"nil", nil, "no assumption"},
		{"la", latent.LA{}, ""},
		{"da", latent.DA{}, ""},
		{"gold/no base", latent.WithGold{Class: []int{0}}, "no Base"},
		{"gold/nil class", latent.WithGold{Base: latent.DA{}}, ""},
		{"gold/one class", latent.WithGold{Base: latent.LA{}, Class: []int{1}}, ""},
		{"gold/no gold", latent.WithGold{Base: latent.LA{}, Class: []int{-1}}, ""},
		{"gold/short", latent.WithGold{Base: latent.LA{}, Class: []int{}}, "0 entries for 1 tasks"},
		{"gold/long", latent.WithGold{Base: latent.LA{}, Class: []int{0, 1}}, "2 entries for 1 tasks"},
		{"gold/class too high", latent.WithGold{Base: latent.LA{}, Class: []int{2}}, "Class[0] = 2"},
		{"gold/class too low", latent.WithGold{Base: latent.LA{}, Class: []int{-2}}, "Class[0] = -2"},
		{"gold/base refused", latent.WithGold{Base: latent.Dirichlet{Alpha: -1}, Class: []int{0}}, "Alpha = -1"},
		{"dirichlet/zero", latent.Dirichlet{}, ""},
		{"dirichlet/p", latent.Dirichlet{Alpha: 2, P: []float64{0.25, 0.75}}, ""},
		{"dirichlet/negative alpha", latent.Dirichlet{Alpha: -0.5}, "Alpha = -0.5"},
		{"dirichlet/NaN alpha", latent.Dirichlet{Alpha: math.NaN()}, "Alpha = NaN"},
		{"dirichlet/infinite alpha", latent.Dirichlet{Alpha: math.Inf(1)}, "Alpha = +Inf"},
		{"dirichlet/short p", latent.Dirichlet{Alpha: 1, P: []float64{1}}, "1 values for 2 classes"},
		{"dirichlet/negative p", latent.Dirichlet{Alpha: 1, P: []float64{-0.5, 1.5}}, "P[0] = -0.5"},
		{"dirichlet/NaN p", latent.Dirichlet{Alpha: 1, P: []float64{0.5, math.NaN()}}, "P[1] = NaN"},
		{"dirichlet/p sum", latent.Dirichlet{Alpha: 1, P: []float64{0.5, 0.6}}, "sums to 1.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := latent.Check(c.a, d)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("Check: %v, want nil", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("Check: %v, want an error with %q", err, c.want)
			case c.a == nil:
				return
			case c.want != "" && !errors.Is(err, latent.ErrUnsuited):
				t.Errorf("Check: %v does not wrap ErrUnsuited", err)
			}
			ev, evErr := c.a.NewEvaluator(d)
			switch {
			case c.want == "" && (evErr != nil || ev == nil):
				t.Fatalf("NewEvaluator: %v, %v, want an evaluator", ev, evErr)
			case c.want != "" && (ev != nil || evErr == nil || evErr.Error() != err.Error() || !errors.Is(evErr, latent.ErrUnsuited)):
				t.Fatalf("NewEvaluator: %v, %v, want Check's error, wrapping ErrUnsuited", ev, evErr)
			}
		})
	}
}

// TestFitChecks checks that a fit of package model returns Check's error,
// instead of panicking, on an assumption Check refuses.
func TestFitChecks(t *testing.T) {
	d := oneTask(t)
	// A model without an assumption is incomplete, refused before Check.
	if _, err := (model.Model{Noise: noise.OneCoin{}}).Fit(context.Background(), d, nil); !errors.Is(err, model.ErrIncomplete) {
		t.Errorf("fit without an assumption: %v, want model.ErrIncomplete", err)
	}
	for _, a := range []latent.Assumption{
		latent.WithGold{Base: latent.LA{}, Class: []int{0, 1}},
		latent.WithGold{Base: latent.DA{}, Class: []int{5}},
		latent.Dirichlet{Alpha: 1, P: []float64{1}},
	} {
		m := model.Model{Noise: noise.OneCoin{}, Latent: a}
		if _, err := m.Fit(context.Background(), d, nil); err == nil || !strings.Contains(err.Error(), "latent: ") {
			t.Errorf("fit with %#v: %v, want the error of latent.Check", a, err)
		}
	}
}

// TestNilData checks that every assumption refuses a nil data set with an
// error wrapping ErrUnsuited, in Check and NewEvaluator, instead of a nil
// dereference.
func TestNilData(t *testing.T) {
	for _, a := range []latent.Assumption{
		latent.LA{}, latent.DA{}, latent.Dirichlet{Alpha: 1},
		latent.WithGold{Base: latent.LA{}, Class: []int{0}},
	} {
		if _, err := a.NewEvaluator(nil); !errors.Is(err, latent.ErrUnsuited) || err.Error() != "latent: nil data set" {
			t.Errorf("%T.NewEvaluator(nil): %v, want latent: nil data set", a, err)
		}
		if _, ok := a.(latent.Checker); ok {
			if err := latent.Check(a, nil); !errors.Is(err, latent.ErrUnsuited) {
				t.Errorf("Check(%T, nil): %v, want an error wrapping ErrUnsuited", a, err)
			}
		}
	}
}
