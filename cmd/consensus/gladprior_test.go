package main

import (
	"strings"
	"testing"
)

// TestGLADPrior checks fit --glad-prior: with a prior LA-GLAD on rte
// converges (its maximum-likelihood fit stops at the iteration limit) and
// reports a finite log loss; a model without GLAD noise or a negative
// variance is a usage error.
func TestGLADPrior(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		contains string
		absent   string
	}{
		{[]string{"--model", "la-glad", "--glad-prior", "1"}, 0, "stopped: FunctionConvergence", "Inf"},
		{[]string{"--model", "la-ds", "--glad-prior", "1"}, 2, "--glad-prior needs a GLAD model", ""},
		{[]string{"--model", "vb-la-ds", "--glad-prior", "1"}, 2, "--glad-prior needs a GLAD model", ""},
		{[]string{"--model", "da-glad", "--glad-prior", "-1"}, 2, "--glad-prior -1", ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"fit", "--dataset", "rte", "-o", "out.csv"}, tc.args...)
			r := runIn(t, dir, "", args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.contains) || (tc.absent != "" && strings.Contains(r.stderr, tc.absent)) {
				t.Errorf("exit %d (want %d), stderr %q: want it to contain %q and not %q", r.code, tc.code, r.stderr, tc.contains, tc.absent)
			}
		})
	}
}
