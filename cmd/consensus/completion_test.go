package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/model"
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
		{[]string{"__complete", "pairwise", "fit", "--model", ""}, "bt\nnoisy-bt\n:4\n"},
	} {
		r := runIn(t, t.TempDir(), "", c.args...)
		if r.code != 0 || !strings.Contains(r.stdout, c.want) {
			t.Errorf("%v: exit %d, completions %q; want %q", c.args, r.code, r.stdout, c.want)
		}
	}
}

// TestCompletionOffersAccepted checks that completion offers only values
// the command accepts: simulate's models have a generative process (it
// refuses the others), and an unknown shell or help topic is a usage
// error, not help with exit status 0.
func TestCompletionOffersAccepted(t *testing.T) {
	r := runIn(t, t.TempDir(), "", "__complete", "simulate", "--model", "")
	names := strings.Fields(r.stdout)
	if len(names) < 10 || slices.Contains(names, "rfe") || slices.Contains(names, "mv") || slices.Contains(names, "wawa") {
		t.Errorf("simulate --model completes to %v", names)
	}
	for _, n := range names[:len(names)-1] { // the last is the directive
		est, err := model.ByName(n)
		if _, ok := est.(model.Composite); err != nil || !ok {
			t.Errorf("simulate --model %s: completed but not generative", n)
		}
	}
	for _, args := range [][]string{{"completion", "bsh"}, {"help", "fti"}, {"datasets", "lst"}} {
		r := runIn(t, t.TempDir(), "", args...)
		if r.code != 2 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %.40q, stderr %q; want 2 and one line", args, r.code, r.stdout, r.stderr)
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
