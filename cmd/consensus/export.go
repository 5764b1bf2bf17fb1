package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/output"
)

func newDatasetsExportCmd() *cobra.Command {
	var format string
	var gz bool
	c := &cobra.Command{
		Use:   "export NAME DIR",
		Short: "Write a shipped data set's labels, gold and SOURCE.md into a directory",
		Long: `export writes the shipped data set NAME into the directory DIR (created if
needed): DIR/labels.<ext> (task,worker,label), DIR/gold.<ext> (task,label;
the gold tasks that have noisy labels) and DIR/SOURCE.md (provenance and
licence), in --format csv (the default), tsv, jsonl or parquet, and
gzip-compressed with --gzip (<ext>.gz). Parquet columns are strings. The
files are written all or nothing, and never over existing files: an
existing file of one of those names is refused. 'consensus fit --input DIR/labels.csv --gold DIR/gold.csv' reads
them back into the same data set.`,
		Example: `  consensus datasets export rte rte
  consensus fit --input rte/labels.csv --gold rte/gold.csv --model da-ds --output rte.csv
  consensus eval --predictions rte.csv --gold rte/gold.csv
  consensus datasets export duchenne data --format parquet`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, dir := args[0], args[1]
			f, err := dataio.ParseFormat(format)
			if err != nil {
				return usageErr(err)
			}
			if f == "" {
				f = dataio.CSV
			}
			d, g, err := datasets.Load(name)
			if err != nil {
				return usageErr(err)
			}
			src, err := datasets.Source(name)
			if err != nil {
				return err
			}
			if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
				return usagef("%s exists and is not a directory", dir)
			}
			ext := "." + string(f)
			if gz {
				ext += ".gz"
			}
			labels, gold, source := filepath.Join(dir, "labels"+ext), filepath.Join(dir, "gold"+ext), filepath.Join(dir, "SOURCE.md")
			// The names are export's, not the user's: it writes only
			// new files.
			for _, p := range []string{labels, gold, source} {
				if _, err := os.Lstat(p); err == nil {
					return usagef("%s already exists; export does not replace files: remove it, or export into another directory", p)
				}
			}
			if err := os.MkdirAll(dir, 0o777); err != nil {
				return usagef("cannot create directory %s: %v", dir, output.PathMessage(err))
			}
			if err := checkOutputs(nil, nil, []string{"labels", "gold", "source"}, []string{labels, gold, source}); err != nil {
				return err
			}
			err = output.WriteFiles(cmd.Context(),
				output.LabelsFile(labels, f, d),
				output.GoldFile(gold, f, d, g),
				output.File{Path: source, Write: func(w io.Writer) error {
					_, err := io.WriteString(w, src)
					return err
				}})
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s (%d labels), %s (%d gold tasks) and %s\n",
				labels, d.NumLabels(), gold, g.Len(), source)
			return err
		},
	}
	c.Flags().StringVar(&format, "format", "csv", "file format: csv, tsv, jsonl or parquet")
	c.Flags().BoolVar(&gz, "gzip", false, "gzip-compress the labels and gold files (.gz)")
	c.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return datasets.Names(), cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	c.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"csv", "tsv", "jsonl", "parquet"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}
