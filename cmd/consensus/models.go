package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/model"
)

func joinNames() string { return strings.Join(model.Names(), ", ") }

// modelList is what 'consensus models --format json' writes: the default
// model, every registered model with its capabilities (model.Describe),
// and --model auto with its default candidates.
type modelList struct {
	Default string               `json:"default"`
	Models  []model.Capabilities `json:"models"`
	Auto    autoEntry            `json:"auto"`
}

// autoEntry describes --model auto, which is not a model: it chooses one
// of Candidates (by default) on held-out labels and fits it.
type autoEntry struct {
	Name       string   `json:"name"`
	Summary    string   `json:"summary"`
	Candidates []string `json:"candidates"`
}

func newModelsCmd() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "models",
		Short: "List the models with their default solver and one line each",
		Long: `models lists every model by name with its default --solver (em or lbfgs;
"-" for a model without that choice: rfe, mv, the variational vb-* fits and
the Crowd-Kit methods) and a one-line summary. The la-*, da-* and hda-*
models are every noise model under each assumption; the vb-* models are the
variational Bayes forms of the conjugate ones. The last line, auto, is not a
model: fit --model auto chooses one of a few candidates on held-out labels
and fits it.

With --format json, models writes one JSON object: "default" (the model fit
uses without --model), "models" (every model with its name, summary, default
solver and capabilities: its noise model and assumption, what its fits
answer, whether they report worker or task parameters, which of fit's flags
it accepts, and the numbers of classes it supports) and "auto" (its
summary and default candidates). Programs read this instead of lists of
model names of their own.`,
		Example: `  consensus models
  consensus models --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch format {
			case "text":
			case "json":
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(modelList{
					Default: model.DefaultModel,
					Models:  model.DescribeAll(),
					Auto:    autoEntry{Name: autoName, Summary: autoSummary, Candidates: compare.AutoModels},
				})
			default:
				return usagef("--format %q: want text or json", format)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			for _, e := range model.Registry() {
				solver := e.Solver
				if solver == "" {
					solver = "-"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Name, solver, e.Summary)
			}
			fmt.Fprintf(tw, "%s\t-\t%s\n", autoName, autoSummary)
			return tw.Flush()
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text (a table) or json (every model with its capabilities)")
	return c
}
