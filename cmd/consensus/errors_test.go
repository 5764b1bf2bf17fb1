package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/crowdkit"
)

// TestWithModelAdvice checks that the library's typed errors get the
// advice naming the flag that remedies them, keeping their type and
// whether they are usage errors, and that other errors pass unchanged.
func TestWithModelAdvice(t *testing.T) {
	other := errors.New("disk full")
	for _, tc := range []struct {
		name  string
		err   error
		want  string
		usage bool
	}{
		{"no training gold", usageErr(crowdkit.ErrNoTrainingGold),
			"gmv needs training gold to measure worker skills: no task has a gold class: give --train-gold FILE, or --train-fraction F with --gold", true},
		{"one class", fmt.Errorf("fitting la-ds: %w", model.ErrOneClass),
			"fitting la-ds: a consensus needs at least two classes: use --classes to list all the classes", false},
		{"other", other, "disk full", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := withModelAdvice(tc.err)
			if got.Error() != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if !errors.Is(got, tc.err) {
				t.Errorf("%v does not wrap %v", got, tc.err)
			}
			if isUsage(got) != tc.usage {
				t.Errorf("usage = %v, want %v", isUsage(got), tc.usage)
			}
		})
	}
}
