package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/model"
)

// TestConvergenceWarningReason checks that the advice follows the error
// that stopped the fit (model.Result.Stop), not the text of its status.
func TestConvergenceWarningReason(t *testing.T) {
	for _, c := range []struct {
		r    *model.Result
		want string
	}{
		{&model.Result{Model: "da-glad", Status: "Failure: " + model.ErrNonFinite.Error(), Stop: model.ErrNonFinite}, "--ridge 0.01 keeps them finite"},
		{&model.Result{Model: "da-glad", Status: "Failure", Stop: fmt.Errorf("wrapped: %w", model.ErrLineSearch)}, "try the other --solver"},
		{&model.Result{Model: "da-glad", Status: "IterationLimit: " + model.ErrNonFinite.Error()}, "raise --max-iter"},
		{&model.Result{Model: "vb-da-ds", Status: "IterationLimit", Stop: model.ErrNonFinite}, "variational fits improve"},
	} {
		est, err := model.ByName(c.r.Model)
		if err != nil {
			t.Fatal(err)
		}
		if got := convergenceWarning(est, c.r); !strings.Contains(got, c.want) || !strings.Contains(got, c.r.Status) {
			t.Errorf("%s, %v: %q, want the status and %q", c.r.Model, c.r.Stop, got, c.want)
		}
	}
}
