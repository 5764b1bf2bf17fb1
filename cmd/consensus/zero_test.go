package main

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestZeroMeansZero checks the rule of checkZeros on every command: each
// flag of zeroDefaults exists where the table says, and given as 0 (also
// written 0.0 or -0 where the flag is a float) is refused with exit status
// 2 before any work; and that a flag whose zero is a value is not.
func TestZeroMeansZero(t *testing.T) {
	var commands []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		commands = append(commands, c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRoot())
	for _, z := range zeroDefaults {
		found := false
		for _, c := range commands {
			path := strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), "consensus"), " ")
			f := c.Flags().Lookup(z.flag)
			if f == nil || (z.cmd != "" && z.cmd != path) {
				continue
			}
			found = true
			zeros := []string{"0"}
			if f.Value.Type() == "float64" {
				zeros = append(zeros, "0.0", "-0", "0e5")
			}
			for _, zero := range zeros {
				args := append(strings.Fields(path), "--"+z.flag, zero)
				if code := run(context.Background(), args); code != exitUsage {
					t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
				}
			}
		}
		if !found {
			t.Errorf("no command %q has a flag --%s", z.cmd, z.flag)
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"in.csv": hLabels})
	for _, args := range [][]string{
		{"simulate", "--objects", "2", "--seed", "0", "-o", "s.csv"},
		{"pairwise", "simulate", "--items", "3", "--comparisons", "5", "--spammers", "0", "-o", "c.csv"},
		{"fit", "in.csv", "-m", "la-ds", "--ridge", "0", "--threads", "0", "-q", "-o", "out.csv"},
	} {
		if r := runIn(t, dir, "", args...); r.code != 0 {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
	r := runIn(t, dir, "", "simulate", "--objects", "0", "--workers", "0", "-o", "s0.csv")
	if r.code != 2 || r.stderr != "consensus: --objects 0: want at least 1 object; leave the flag out for the default\n" {
		t.Errorf("simulate --objects 0: exit %d, stderr %q", r.code, r.stderr)
	}
}
