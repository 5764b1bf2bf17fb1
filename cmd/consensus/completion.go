package main

import (
	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/model"
)

// completeFlagValues registers shell completion of flag values on every
// command below c that has the flag and no completion of its own:
// --model with the registered models, --dataset with the shipped data sets,
// --format, --output-format, --gold-format, --predictions-format and
// --init-workers-format with the file formats, and
// --solver with the solvers.
func completeFlagValues(c *cobra.Command) {
	formats := []string{"csv", "tsv", "jsonl", "parquet"}
	values := map[string]func() []string{
		"model":               model.Names,
		"dataset":             datasets.Names,
		"format":              func() []string { return formats },
		"output-format":       func() []string { return formats },
		"gold-format":         func() []string { return formats },
		"predictions-format":  func() []string { return formats },
		"init-workers-format": func() []string { return formats },
		"solver":              func() []string { return []string{"auto", "lbfgs", "cg", "em"} },
	}
	for name, f := range values {
		if c.Flags().Lookup(name) == nil {
			continue
		}
		if _, ok := c.GetFlagCompletionFunc(name); ok {
			continue
		}
		f := f
		c.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return f(), cobra.ShellCompDirectiveNoFileComp
		})
	}
	for _, sub := range c.Commands() {
		completeFlagValues(sub)
	}
}
