package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --q-prior and --staged change the prior and the form of the vb-da-*
// models, the summary names the hand-built form, and any other model, a
// negative pseudo-count or auto's default candidates (vb-hda-ds and
// vb-la-ds take neither) are usage errors with no output.
func TestQPriorFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string // in the summary
	}{
		{[]string{"--dataset", "rte", "-m", "vb-da-ds"}, "model vb-da-ds: "},
		{[]string{"--dataset", "rte", "-m", "vb-da-ds", "--q-prior", "0.5"}, "model vb-da-ds: "},
		{[]string{"--dataset", "rte", "-m", "vb-da-ds", "--q-prior", "1"}, "model vb-da-ds (prior 1): "},
		{[]string{"--dataset", "rte", "-m", "vb-da-ds", "--staged"}, "model vb-da-ds (staged): "},
		{[]string{"--dataset", "rte", "-m", "vb-da-onecoin", "--q-prior", "2", "--staged"}, "model vb-da-onecoin (staged) (prior 2): "},
	} {
		r := mustRun(t, dir, append([]string{"fit", "-o", "out.csv"}, c.args...)...)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: summary without %q:\n%s", c.args, c.want, r.stderr)
		}
	}
	// A smoother prior moves every output towards the centre: the largest
	// probability of the first task falls.
	first := func(args ...string) string {
		mustRun(t, dir, append([]string{"fit", "--dataset", "rte", "-m", "vb-da-ds", "-o", "out.csv", "--quiet"}, args...)...)
		return strings.Split(readFile(t, dir, "out.csv"), "\n")[1]
	}
	if a, b := first(), first("--q-prior", "4"); a == b {
		t.Errorf("--q-prior 4 left the output as it was: %s", a)
	}
	for _, args := range [][]string{
		{"-m", "la-ds", "--q-prior", "1"},
		{"-m", "vb-hda-ds", "--staged"},
		{"--q-prior", "-1"},
		{"--q-prior", "NaN"},
		{"--q-prior", "0"},
		{"--q-prior", "1e16"},
		{"-m", "auto", "--q-prior", "1"},
	} {
		r := runIn(t, dir, "", append([]string{"fit", "--dataset", "rte", "-o", "bad.csv"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "q-prior") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming --q-prior", args, r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "bad.csv")); err == nil {
			t.Errorf("%v: wrote bad.csv", args)
		}
	}
}

// TestQPriorPrecision checks that the log-likelihood reported at the
// largest --q-prior is that of the prior's limit (a pseudo-count of 10⁴
// is already near it on rte), not the rounding noise of the evidence
// bound's log Γ terms, which at 10¹⁶ reported -202.336 for -5302.87.
func TestQPriorPrecision(t *testing.T) {
	dir := t.TempDir()
	ll := func(a string) float64 {
		r := mustRun(t, dir, "fit", "--dataset", "rte", "-m", "vb-da-ds", "--q-prior", a, "-o", "out.csv")
		i := strings.Index(r.stderr, "log-likelihood ")
		if i < 0 {
			t.Fatalf("no log-likelihood in %q", r.stderr)
		}
		var v float64
		fmt.Sscan(strings.TrimSuffix(strings.Fields(r.stderr[i+len("log-likelihood "):])[0], ","), &v)
		return v
	}
	if a, b := ll("1e4"), ll("1e6"); math.Abs(a-b) > 0.1 || b > 0 {
		t.Errorf("log-likelihood %v at --q-prior 1e4, %v at 1e6", a, b)
	}
}

// compare applies --q-prior, --staged and --glad-prior to the models of
// its list that take them and leaves the others as they are; an option
// that fits none of them, or a bad value, is a usage error.
func TestCompareModelOptions(t *testing.T) {
	dir := t.TempDir()
	r := mustRun(t, dir, "compare", "--dataset", "temp", "--models", "vb-da-ds,la-ds,la-glad",
		"--q-prior", "1", "--glad-prior", "1", "--criterion", "heldout", "--splits", "1", "--bootstrap", "10",
		"--output-format", "csv", "--quiet")
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n")[1:] {
		rows = append(rows, strings.Split(line, ",")[1])
	}
	for _, want := range []string{"vb-da-ds (prior 1)", "la-ds", "la-glad"} {
		found := false
		for _, m := range rows {
			found = found || m == want
		}
		if !found {
			t.Errorf("rows %q: no %q", rows, want)
		}
	}
	for _, args := range [][]string{
		{"--models", "la-ds", "--q-prior", "1"},
		{"--models", "la-ds,vb-la-ds", "--staged"},
		{"--models", "vb-da-ds", "--glad-prior", "1"},
		{"--models", "vb-da-ds", "--q-prior", "-1"},
		{"--models", "la-glad", "--glad-prior", "NaN"},
	} {
		r := runIn(t, dir, "", append([]string{"compare", "--dataset", "temp"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "prior") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming the option", args, r.code, r.stderr)
		}
	}
}
