package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/model"
)

func joinNames() string { return strings.Join(model.Names(), ", ") }

func newModelsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "models",
		Short: "List the models with their default solver and one line each",
		Long: `models lists every model by name with its default --solver (em or lbfgs;
"-" for a model without that choice: rfe, mv, the variational vb-* fits and
the Crowd-Kit methods) and a one-line summary. The la-*, da-* and hda-*
models are every noise model under each assumption; the vb-* models are the
variational Bayes forms of the conjugate ones. The last line, auto, is not a
model: fit --model auto chooses one of a few candidates on held-out labels
and fits it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
}
