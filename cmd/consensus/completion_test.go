package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagValueCompletion checks the completion of --model, --dataset,
// the format flags and --solver on the commands that have them.
func TestFlagValueCompletion(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "fit", "--model", ""}, "vb-da-ds\n"},
		{[]string{"__complete", "report", "--dataset", ""}, "trec2010\n"},
		{[]string{"__complete", "fit", "--output-format", ""}, "jsonl\n"},
		{[]string{"__complete", "eval", "--gold-format", ""}, "tsv\n"},
		{[]string{"__complete", "bench", "--solver", ""}, "lbfgs\n"},
		{[]string{"__complete", "simulate", "--model", ""}, "da-glad\n"},
	} {
		r := runIn(t, t.TempDir(), "", c.args...)
		if r.code != 0 || !strings.Contains(r.stdout, c.want) {
			t.Errorf("%v: exit %d, completions %q; want %q", c.args, r.code, r.stdout, c.want)
		}
	}
}

// TestPositionalAndPipedInput checks that "consensus fit labels.csv" and
// labels piped to standard input without --input give the same consensus
// as --input, for fit, compare, report and agreement alike.
func TestPositionalAndPipedInput(t *testing.T) {
	dir := t.TempDir()
	if r := runIn(t, dir, "", "datasets", "export", "temp", "temp"); r.code != 0 {
		t.Fatalf("export: %s", r.stderr)
	}
	labels, err := os.ReadFile(filepath.Join(dir, "temp", "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want := runIn(t, dir, "", "fit", "--input", "temp/labels.csv", "-q")
	if want.code != 0 {
		t.Fatalf("fit --input: %s", want.stderr)
	}
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"fit", "temp/labels.csv", "-q"}},
		{string(labels), []string{"fit", "-q"}},
	} {
		if r := runIn(t, dir, c.stdin, c.args...); r.code != 0 || r.stdout != want.stdout {
			t.Errorf("%v: exit %d, output equal to --input's: %v (%s)", c.args, r.code, r.stdout == want.stdout, r.stderr)
		}
	}
	for _, args := range [][]string{
		{"compare", "temp/labels.csv", "--models", "rfe,vb-da-ds", "-q"},
		{"agreement", "temp/labels.csv"},
		{"report", "temp/labels.csv", "--models", "rfe,vb-da-ds", "-q", "-o", "r.html"},
	} {
		if r := runIn(t, dir, "", args...); r.code != 0 {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
}
