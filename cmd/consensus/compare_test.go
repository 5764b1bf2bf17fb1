package main

import (
	"strings"
	"testing"
)

// TestCompareCLI runs compare on a shipped data set with gold (a few fast
// models) and on labels without gold (held-out criterion), and checks the
// ranked table and the recommendation.
func TestCompareCLI(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"compare", "--dataset", "temp", "--models", "rfe,la-onecoin,hda-onecoin", "--bootstrap", "50", "-q"},
			[]string{"log loss [95% CI]", "hda-onecoin", "recommended: ", "gold tasks"}},
		{[]string{"compare", "--dataset", "temp", "--models", "rfe,la-onecoin", "--criterion", "heldout", "--splits", "2", "--bootstrap", "50", "-q"},
			[]string{"held-out log loss", "held-out labels in 2 splits", "recommended: "}},
	}
	for _, c := range cases {
		r := runIn(t, dir, "", c.args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d, stderr %s", c.args, r.code, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, r.stdout)
			}
		}
	}
	if r := runIn(t, dir, "", "compare", "--dataset", "temp", "--criterion", "nope"); r.code != 2 {
		t.Errorf("bad criterion: exit %d, want 2", r.code)
	}
}

// TestCompareParallelAndFailures checks that --parallel beyond the number
// of fits does not shrink each fit's memory share (the result is that of
// --parallel 1 under a limit that lets the fits run), and that a
// comparison in which no model could be fitted exits 1 with one line.
func TestCompareParallelAndFailures(t *testing.T) {
	dir := t.TempDir()
	args := []string{"compare", "--dataset", "rte", "--models", "mv,la-ds", "--criterion", "heldout", "--bootstrap", "20", "-q", "--max-memory", "64M"}
	one := runIn(t, dir, "", append(args, "--parallel", "1")...)
	many := runIn(t, dir, "", append(args, "--parallel", "1000000")...)
	if one.code != 0 || many.code != 0 || one.stdout != many.stdout || strings.Contains(many.stdout, "failed") {
		t.Errorf("--parallel 1: exit %d %q; --parallel 1000000: exit %d %q %s", one.code, one.stdout, many.code, many.stdout, many.stderr)
	}
	r := runIn(t, dir, "", "compare", "--dataset", "rte", "--models", "la-glad,da-glad", "--max-memory", "600k", "-q")
	if r.code != 1 || !strings.Contains(r.stderr, "models could be fitted") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}
