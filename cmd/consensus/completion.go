package main

import (
	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/model"
)

// modelValues gives, by command path, the values of a --model flag that
// does not take every registered model, so that completion offers only
// what the command accepts.
var modelValues = map[string]func() []string{
	"consensus pairwise fit": func() []string { return []string{"bt", "noisy-bt"} },
	"consensus simulate":     generativeModels,
}

// generativeModels returns the registered models that simulate can draw
// from: those with a generative process (model.Composite).
func generativeModels() []string {
	var names []string
	for _, n := range model.Names() {
		if est, err := model.ByName(n); err == nil {
			if _, ok := est.(model.Composite); ok {
				names = append(names, n)
			}
		}
	}
	return names
}

// completeFlagValues registers shell completion of flag values on every
// command below c that has the flag and no completion of its own:
// --model with the registered models, --dataset with the shipped data sets,
// --format, --output-format, --gold-format, --predictions-format and
// --init-workers-format with the file formats, and
// --solver with the solvers; --model of the commands in modelValues with
// their own models.
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
		if m, ok := modelValues[c.CommandPath()]; ok && name == "model" {
			f = m
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
