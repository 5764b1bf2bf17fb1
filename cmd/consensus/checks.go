package main

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
)

// usageArgs makes every argument error of cmd and its subcommands a usage
// error (exit status 2), including an unknown subcommand (such as
// "completion bsh") and an unknown help topic. cobra's help and completion
// commands must exist by then (InitDefaultHelpCmd,
// InitDefaultCompletionCmd).
func usageArgs(cmd *cobra.Command) {
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return usageErr(err)
			}
			return nil
		}
	}
	if cmd.HasSubCommands() && cmd.Run == nil && cmd.RunE == nil {
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
	if cmd.Name() == "help" && cmd.HasParent() && cmd.Parent() == cmd.Root() {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if _, rest, err := c.Root().Find(a); err != nil || len(rest) > 0 {
				return usagef("unknown help topic %q (commands: %s)", strings.Join(a, " "), strings.Join(subcommands(c.Root()), ", "))
			}
			return nil
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

// maxResamples is the most bootstrap resamples a command takes: each
// costs a number kept until the end (and a pass over the gold tasks), so
// a count past this would allocate gigabytes, or fail to, before any
// output.
const maxResamples = 1_000_000

// checkResamples returns a usage error if n, the value of the resampling
// flag name, is above maxResamples.
func checkResamples(name string, n int) error {
	if n > maxResamples {
		return usagef("--%s %d: want at most %d resamples", name, n, maxResamples)
	}
	return nil
}

// checkOutputs checks a command's inputs and outputs before any work is
// done (output.CheckPaths: no output replaces an input or another output,
// a stream is read once, every output can be written). inFlags and
// outFlags name the flag of each input and output, for messages. An error
// of the command line is a usage error.
func checkOutputs(inFlags, inputs, outFlags, outputs []string) error {
	paths := func(flags, p []string) []output.Path {
		out := make([]output.Path, len(p))
		for i := range p {
			out[i] = output.Path{Flag: flags[i], Path: p[i]}
		}
		return out
	}
	err := output.CheckPaths(paths(inFlags, inputs), paths(outFlags, outputs))
	if errors.Is(err, output.ErrBadPath) {
		return usageErr(err)
	}
	return err
}

// checkTables checks the names of table outputs (flags names their flags)
// written in format f, or by their extension when f is empty: an
// extension that names no format is refused (dataio.CheckOutputName), with
// formatFlag, when not empty, as the other remedy.
func checkTables(f dataio.Format, formatFlag string, flags, paths []string) error {
	if f != "" {
		return nil
	}
	for i, p := range paths {
		if err := dataio.CheckOutputName(p); err != nil {
			if formatFlag != "" {
				return usagef("--%s %s: %v, or use %s", flags[i], p, err, formatFlag)
			}
			return usagef("--%s %s: %v", flags[i], p, err)
		}
	}
	return nil
}

// convergenceWarning returns the one-line warning printed in the summary of
// a fit that stopped before an optimum, with advice fitting the reason
// (r.Stop) and to est, the estimator fitted. The run still writes its
// result and exits 0.
func convergenceWarning(est model.Estimator, r *model.Result) string {
	advice := "raise --max-iter; if the fit still stops at the limit, its maximum-likelihood optimum may lie at infinity or on the boundary, where more iterations do not help: the vb-* models converge (the default, " + model.DefaultModel + "); --strict makes this an error"
	v, variational := est.(model.VariationalFitter)
	switch {
	case variational && v.Variational():
		advice = "raise --max-iter: variational fits improve at every iteration, slowly on some data; --strict makes this an error"
	case errors.Is(r.Stop, model.ErrNonFinite):
		advice = "the parameters ran into overflow; --ridge 0.01 keeps them finite"
	case errors.Is(r.Stop, model.ErrLineSearch):
		advice = "the result is usable but may not be the optimum; try the other --solver or --ridge 0.01"
	}
	return fmt.Sprintf("warning: the fit did not converge (%s); %s", r.Status, advice)
}
