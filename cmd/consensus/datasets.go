package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/datasets"
)

func newDatasetsCmd() *cobra.Command {
	var source string
	c := &cobra.Command{
		Use:   "datasets",
		Short: "List the data sets shipped in the binary, or show one's provenance",
		Example: `  consensus datasets
  consensus datasets --source duchenne
  consensus datasets export rte rte        # rte/labels.csv, rte/gold.csv, rte/SOURCE.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if source != "" {
				s, err := datasets.Source(source)
				if err != nil {
					return usageErr(err)
				}
				_, err = fmt.Fprint(cmd.OutOrStdout(), s)
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "name\tclasses\tobjects\tworkers\tlabels\tlabels/object\tgold\t")
			for _, name := range datasets.Names() {
				d, g, err := datasets.Load(name)
				if err != nil {
					return err
				}
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.2f\t%d\t\n", name, d.NumClasses(), d.NumTasks(), d.NumWorkers(),
					d.NumLabels(), float64(d.NumLabels())/float64(d.NumTasks()), g.Len())
			}
			return tw.Flush()
		},
	}
	c.AddCommand(newDatasetsExportCmd())
	c.Flags().StringVar(&source, "source", "", "print the provenance and licence (SOURCE.md) of this data set")
	return c
}
