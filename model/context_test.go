package model

import (
	"context"
	"errors"
	"testing"

	"github.com/consensuslab/consensus/datasets"
)

// TestFitNilContext checks that every registered estimator refuses a nil
// context with errNilContext instead of fitting or panicking.
func TestFitNilContext(t *testing.T) {
	d, _, err := datasets.Load("temp")
	if err != nil {
		t.Fatal(err)
	}
	var ctx context.Context // nil
	for _, e := range Registry() {
		t.Run(e.Name, func(t *testing.T) {
			res, err := e.New().Fit(ctx, d, nil)
			if !errors.Is(err, errNilContext) || res != nil {
				t.Errorf("Fit(nil ctx) = %v, %v; want nil, %v", res, err, errNilContext)
			}
		})
	}
}

// TestFitCancelled checks that the iterative estimators stop when their
// context is cancelled: one cancelled before the fit gives no result and
// an error wrapping context.Canceled, and one cancelled from the first
// progress report stops the fit at the next iteration.
func TestFitCancelled(t *testing.T) {
	d, _, err := datasets.Load("temp")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		method Method
	}{
		{"la-ds", EM}, // EM + SQUAREM
		{"la-ds", LBFGS},
		{"la-glad", Auto},
		{"da-glad", CG},
		{"hda-ds", Auto},
		{"vb-la-ds", Auto},
		{"vb-da-ds", Auto},
	} {
		t.Run(tc.name+"/"+tc.method.String(), func(t *testing.T) {
			est, err := ByName(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			res, err := est.Fit(ctx, d, &Settings{Method: tc.method})
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Errorf("cancelled before the fit: %v, %v; want nil and context.Canceled", res, err)
			}

			ctx, cancel = context.WithCancel(context.Background())
			defer cancel()
			reports := 0
			set := &Settings{Method: tc.method, Progress: func(Progress) {
				reports++
				cancel()
			}}
			res, err = est.Fit(ctx, d, set)
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Errorf("cancelled during the fit: %v, %v; want nil and context.Canceled", res, err)
			}
			if reports > 2 {
				t.Errorf("%d progress reports after the cancellation at the first; want at most one more", reports-1)
			}
		})
	}
}
