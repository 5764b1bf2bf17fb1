package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFitAuto checks fit --model auto: stderr says what it chose with one
// line per candidate, the summary names the chosen model, the output is
// that model's, byte for byte, and the same for any --threads; the flags of
// a named model work with it.
func TestFitAuto(t *testing.T) {
	dir := t.TempDir()
	ok := func(args ...string) result { t.Helper(); return mustRun(t, dir, args...) }
	r := ok("fit", "--dataset", "temp", "-m", "auto", "-o", "auto.csv", "--workers", "w.csv", "--threads", "1")
	chose := regexp.MustCompile(`(?m)^auto: chose (\S+), the lowest held-out likelihood loss among vb-ds, vb-onecoin and vb-glad \(3 splits of all 462 tasks, 4620 labels\); `).FindStringSubmatch(r.stderr)
	if chose == nil {
		t.Fatalf("no choice line:\n%s", r.stderr)
	}
	model := chose[1]
	for _, m := range []string{"vb-ds", "vb-onecoin", "vb-glad"} {
		if !regexp.MustCompile(`(?m)^auto: [ *] ` + m + ` +[0-9.]+ +[0-9]+ iterations`).MatchString(r.stderr) {
			t.Errorf("no score line for %s:\n%s", m, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "auto: * "+model+" ") || !strings.Contains(r.stderr, "model "+model+" (chosen by --model auto): 462 tasks") ||
		!strings.Contains(r.stderr, "gold (462 tasks): accuracy") {
		t.Errorf("the chosen model is not marked or not in the summary:\n%s", r.stderr)
	}
	ok("fit", "--dataset", "temp", "-m", model, "-o", "named.csv", "-q")
	ok("fit", "--dataset", "temp", "-m", "auto", "-o", "threads.csv", "-q", "--threads", "2")
	auto, named, threads := readFile(t, dir, "auto.csv"), readFile(t, dir, "named.csv"), readFile(t, dir, "threads.csv")
	if auto != named || auto != threads {
		t.Errorf("fit -m auto differs from fit -m %s or between --threads 1 and 2", model)
	}
	if readFile(t, dir, "w.csv") == "" {
		t.Error("--workers wrote nothing")
	}

	r = ok("fit", "--dataset", "temp", "-m", "auto", "--auto-models", "rfe,vb-da-ds", "--auto-criterion", "output-reliable", "--layout", "crowdkit", "-o", "ck.csv")
	if !strings.Contains(r.stderr, "held-out output-reliable loss among rfe and vb-da-ds") || strings.Contains(r.stderr, "vb-la-ds") {
		t.Errorf("--auto-models and --auto-criterion not applied:\n%s", r.stderr)
	}
	if !strings.HasPrefix(readFile(t, dir, "ck.csv"), "task,agg_label,") {
		t.Error("--layout crowdkit not applied")
	}
	if r := ok("fit", "--dataset", "temp", "-m", "auto", "-q", "-o", "q.csv"); r.stderr != "" {
		t.Errorf("--quiet printed %q", r.stderr)
	}
	in := simulated(t, dir, 100, 8, "da-ds")
	ok("fit", "-i", in, "-m", "auto", "-o", "sim.jsonl")
	if !strings.HasPrefix(readFile(t, dir, "sim.jsonl"), `{"task":`) {
		t.Error("sim.jsonl is not JSON Lines")
	}
}

// TestFitAutoRefusals checks the usage errors of --model auto and that
// --strict applies to the final fit.
func TestFitAutoRefusals(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--auto-models", "vb-da-ds"}, exitUsage, "--auto-models and --auto-criterion need --model auto"},
		{[]string{"-m", "auto", "--auto-models", "vb-da-ds,nope"}, exitUsage, `--auto-models: unknown model "nope"`},
		{[]string{"-m", "auto", "--auto-criterion", "gold"}, exitUsage, `--auto-criterion: unknown criterion "gold"`},
		{[]string{"-m", "auto", "--auto-models", " , "}, exitUsage, "--auto-models: no models"},
		{[]string{"-m", "auto", "--tasks", "t.csv"}, exitUsage, "--tasks: model vb-ds has no per-task parameters"},
		{[]string{"-m", "auto", "--train-fraction", "0.5"}, exitUsage, "cannot use training gold"},
		{[]string{"-m", "auto", "--max-iter", "2", "--strict"}, exitFailure, "did not converge"},
	}
	for _, c := range cases {
		args := append([]string{"fit", "--dataset", "temp", "-o", "out.csv"}, c.args...)
		r := runIn(t, dir, "", args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, r.code, r.stderr, c.code, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "out.csv")); err == nil {
			t.Errorf("%v: wrote out.csv", c.args)
			os.Remove(filepath.Join(dir, "out.csv"))
		}
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mustRun runs the command in dir with args and fails the test unless it
// exits with status 0.
func mustRun(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := runIn(t, dir, "", args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
	}
	return r
}
