package main

import (
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
