package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
)

// usageArgs makes every argument error of cmd and its subcommands a usage
// error (exit status 2), including an unknown subcommand.
func usageArgs(cmd *cobra.Command) {
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return usageErr(err)
			}
			return nil
		}
	}
	if cmd.HasSubCommands() && cmd.Args == nil && cmd.Run == nil && cmd.RunE == nil {
		// Left alone, cobra reports an unknown subcommand as a plain
		// error (exit status 1). With Args and a RunE that shows the
		// help, the unknown name reaches Args instead.
		cmd.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
		cmd.Args = func(c *cobra.Command, a []string) error {
			if len(a) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q for %q", a[0], c.CommandPath())
			if c.SuggestionsMinimumDistance <= 0 {
				c.SuggestionsMinimumDistance = 2
			}
			if s := c.SuggestionsFor(a[0]); len(s) > 0 {
				msg += fmt.Sprintf("; did you mean %s?", strings.Join(s, " or "))
			}
			return usagef("%s (commands: %s)", msg, strings.Join(subcommands(c), ", "))
		}
	}
	for _, c := range cmd.Commands() {
		usageArgs(c)
	}
}

func subcommands(c *cobra.Command) []string {
	var names []string
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	return names
}

// checkFinite returns a usage error if v, the value of flag name, is NaN,
// infinite or negative.
func checkFinite(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return usagef("--%s %v: want a finite number", name, v)
	}
	if v < 0 {
		return usagef("--%s %v: must not be negative", name, v)
	}
	return nil
}

// checkOutputs checks output paths before any work is done: no output may
// be the same file as an input or as another output — by path, through a
// symbolic link (existing or dangling, see output.Resolve) or as a hard
// link — and its directory must exist. The path "-" (standard input or
// output) and "" are skipped. inFlags and outFlags name the flag of each
// input and output, for messages.
func checkOutputs(inFlags, inputs, outFlags, outputs []string) error {
	for i, out := range outputs {
		if out == "" || out == "-" {
			continue
		}
		for j, in := range inputs {
			if in != "" && in != "-" && sameFile(in, out) {
				return usagef("--%s %s is also an input file (--%s %s); writing it would replace the input", outFlags[i], out, inFlags[j], in)
			}
		}
		for j, prev := range outputs[:i] {
			if prev != "" && prev != "-" && sameFile(prev, out) {
				return usagef("--%s and --%s name the same file %s", outFlags[j], outFlags[i], out)
			}
		}
		if fi, err := os.Stat(out); err == nil && fi.IsDir() {
			return usagef("--%s %s is a directory; give a file name", outFlags[i], out)
		}
		target, err := output.Resolve(out)
		if err != nil {
			return usagef("--%s %s: %v", outFlags[i], out, errMsg(err))
		}
		dir := filepath.Dir(out)
		if fi, err := os.Lstat(out); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			dir = filepath.Dir(target) + " (where the link points)"
		}
		fi, err := os.Stat(filepath.Dir(target))
		switch {
		case errors.Is(err, os.ErrNotExist):
			return usagef("--%s %s: directory %s does not exist", outFlags[i], out, dir)
		case err != nil:
			return usagef("--%s %s: %v", outFlags[i], out, errMsg(err))
		case !fi.IsDir():
			return usagef("--%s %s: %s is not a directory", outFlags[i], out, dir)
		}
	}
	return nil
}

// sameFile reports whether paths a and b name the same file: the same path
// once symbolic links are followed (also a dangling link, which names the
// file writing it would create), or the same existing file (hard links).
func sameFile(a, b string) bool {
	ra, err1 := output.Resolve(a)
	rb, err2 := output.Resolve(b)
	if err1 == nil && err2 == nil && ra == rb {
		return true
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// convergenceWarning returns the one-line warning printed in the summary of
// a fit that stopped before an optimum, with advice fitting the reason
// (r.Stop). The run still writes its result and exits 0.
func convergenceWarning(r *model.Result) string {
	advice := "raise --max-iter; if the fit still stops at the limit, its maximum-likelihood optimum may lie at infinity or on the boundary, where more iterations do not help: the vb-* models converge (the default, " + model.DefaultModel + "); --strict makes this an error"
	switch {
	case strings.HasPrefix(r.Model, "vb-"):
		advice = "raise --max-iter: variational fits improve at every iteration, slowly on some data; --strict makes this an error"
	case errors.Is(r.Stop, model.ErrNonFinite):
		advice = "the parameters ran into overflow; --ridge 0.01 keeps them finite"
	case errors.Is(r.Stop, model.ErrLineSearch):
		advice = "the result is usable but may not be the optimum; try the other --solver or --ridge 0.01"
	}
	return fmt.Sprintf("warning: the fit did not converge (%s); %s", r.Status, advice)
}
