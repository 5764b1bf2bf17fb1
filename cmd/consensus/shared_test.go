package main

import (
	"strings"
	"testing"
)

// TestFitSharedErrors checks the summary's shared-errors lines: on the
// correlated regime the default names the pair who share a mistake and
// says that its true class allows for it, and vb-la-ds points to ebcc; on independent workers, with repeated labels of one
// worker, and for ebcc itself, it says what it should and nothing else.
func TestFitSharedErrors(t *testing.T) {
	dir := t.TempDir()
	ok := func(args ...string) result { t.Helper(); return mustRun(t, dir, args...) }
	ok("simulate", "--regime", "correlated", "--seed", "1", "-o", "c.csv")
	ok("simulate", "--regime", "spammers", "--seed", "1", "-o", "s.csv")
	r := ok("fit", "c.csv", "-o", "out.csv")
	if !strings.Contains(r.stderr, "shared errors: workers w0 and w1 agree on 71% of 3355 shared tasks") || !strings.Contains(r.stderr, "the true class allows for their shared mistakes") ||
		strings.Count(r.stderr, "shared errors:") != 1 {
		t.Errorf("correlated regime:\n%s", r.stderr)
	}
	r = ok("fit", "c.csv", "-m", "vb-la-ds", "-o", "out.csv")
	if !strings.Contains(r.stderr, "shared errors: workers w0 and w1 agree") || !strings.Contains(r.stderr, "--model ebcc does not") {
		t.Errorf("correlated regime, vb-la-ds:\n%s", r.stderr)
	}
	for _, args := range [][]string{{"fit", "s.csv", "-o", "out.csv"}, {"fit", "c.csv", "-m", "ebcc", "-o", "out.csv"}, {"fit", "c.csv", "-m", "vb-da-ds", "-o", "out.csv"}} {
		if r := ok(args...); strings.Contains(r.stderr, "shared errors") {
			t.Errorf("%v:\n%s", args, r.stderr)
		}
	}
	r = ok("fit", "--dataset", "duchenne", "-o", "out.csv")
	if !strings.Contains(r.stderr, "shared errors: worker AJD52BBYND0MZ labelled tasks more than once") || strings.Contains(r.stderr, "ebcc") {
		t.Errorf("duchenne:\n%s", r.stderr)
	}
}
