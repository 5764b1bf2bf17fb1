package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --strict turns a fit that stops at its iteration limit into a failure
// that writes nothing, whatever the model (it asks the result whether the
// fit converged: Crowd-Kit's iterative methods too, which have no
// parameter vector); the default model and the closed-form votes pass.
func TestStrict(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args  []string
		code  int
		wrote bool
	}{
		{[]string{"fit", "--dataset", "rte", "-m", "da-ds", "--max-iter", "2", "--strict", "-q"}, exitFailure, false},
		{[]string{"fit", "--dataset", "rte", "-m", "da-ds", "--max-iter", "2", "-q"}, exitOK, true},
		{[]string{"fit", "--dataset", "rte", "--strict", "-q"}, exitOK, true},
		{[]string{"fit", "--dataset", "rte", "-m", "mmsr", "--max-iter", "1", "--strict", "-q"}, exitFailure, false},
		{[]string{"fit", "--dataset", "rte", "-m", "mmsr", "--strict", "-q"}, exitOK, true},
		{[]string{"fit", "--dataset", "rte", "-m", "wawa", "--strict", "-q"}, exitOK, true},
		{[]string{"fit", "--dataset", "rte", "-m", "mv", "--strict", "-q"}, exitOK, true},
	}
	for i, c := range cases {
		out := filepath.Join(dir, "out"+string(rune('a'+i))+".csv")
		if code := run(context.Background(), append(c.args, "-o", out)); code != c.code {
			t.Errorf("%v: exit %d, want %d", c.args, code, c.code)
		}
		if _, err := os.Stat(out); (err == nil) != c.wrote {
			t.Errorf("%v: output written %v, want %v", c.args, err == nil, c.wrote)
		}
	}
}

// TestConvergenceAdvice checks the advice of the warning of a fit stopped
// at its limit: variational fits are told to run longer, maximum-likelihood
// ones also where to turn when that does not help.
func TestConvergenceAdvice(t *testing.T) {
	cases := []struct{ model, want string }{
		{"vb-da-ds", "raise --max-iter: variational fits improve at every iteration"},
		{"da-glad", "the vb-* models converge (the default, vb-ds)"},
	}
	for _, c := range cases {
		r := runIn(t, t.TempDir(), "", "fit", "--dataset", "temp", "-m", c.model, "--max-iter", "1", "-o", "out.csv")
		if r.code != 0 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want %q", c.model, r.code, r.stderr, c.want)
		}
	}
}
