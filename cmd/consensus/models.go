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
		Short: "List the models with one line each",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			for _, e := range model.Registry() {
				fmt.Fprintf(tw, "%s\t%s\n", e.Name, e.Summary)
			}
			return tw.Flush()
		},
	}
}
