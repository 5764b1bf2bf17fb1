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

// checkOutputs checks output paths before any work is done: each must be
// distinct from the others and from the inputs, and its directory must
// exist. The path "-" (standard output) and "" are skipped. flags names the
// flag of each output, for messages.
func checkOutputs(inputs []string, flags []string, outputs []string) error {
	same := func(a, b string) bool {
		if filepath.Clean(a) == filepath.Clean(b) {
			return true
		}
		fa, err1 := os.Stat(a)
		fb, err2 := os.Stat(b)
		return err1 == nil && err2 == nil && os.SameFile(fa, fb)
	}
	for i, out := range outputs {
		if out == "" || out == "-" {
			continue
		}
		for _, in := range inputs {
			if in != "" && in != "-" && same(in, out) {
				return usagef("--%s %s is also an input file; writing it would replace the input", flags[i], out)
			}
		}
		for j, prev := range outputs[:i] {
			if prev != "" && prev != "-" && same(prev, out) {
				return usagef("--%s and --%s name the same file %s", flags[j], flags[i], out)
			}
		}
		if fi, err := os.Stat(out); err == nil && fi.IsDir() {
			return usagef("--%s %s is a directory; give a file name", flags[i], out)
		}
		dir := filepath.Dir(out)
		fi, err := os.Stat(dir)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return usagef("--%s %s: directory %s does not exist", flags[i], out, dir)
		case err != nil:
			return usagef("--%s %s: %v", flags[i], out, errMsg(err))
		case !fi.IsDir():
			return usagef("--%s %s: %s is not a directory", flags[i], out, dir)
		}
	}
	return nil
}

// convergenceWarning returns the one-line warning printed in the summary of
// a fit that stopped before an optimum, with advice fitting the reason. The
// run still writes its result and exits 0.
func convergenceWarning(status string) string {
	advice := "raise --max-iter or loosen --func-tol"
	switch {
	case strings.Contains(status, model.ErrNonFinite.Error()):
		advice = "the parameters ran into overflow; --ridge 0.01 keeps them finite"
	case strings.Contains(status, model.ErrLineSearch.Error()):
		advice = "the result is usable but may not be the optimum; try the other --solver or --ridge 0.01"
	}
	return fmt.Sprintf("warning: the fit did not converge (%s); %s", status, advice)
}
