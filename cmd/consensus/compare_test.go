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
