package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
)

func init() { extraCommands = append(extraCommands, newMultilabelCmd) }

// multilabelFlags holds the flags of "multilabel".
type multilabelFlags struct {
	input, format, sep    string
	task, worker, label   string
	labelSep, empty       string
	model, out, outFormat string
	seed                  uint64
	maxMemory             memLimit
	quiet                 bool
}

func newMultilabelCmd() *cobra.Command {
	var f multilabelFlags
	c := &cobra.Command{
		Use:   "multilabel [LABELS]",
		Short: "Aggregate multi-label data (several classes per label) by binary relevance",
		Long: `multilabel aggregates labels that name several classes each, such as the tags
a worker gives an image, by binary relevance (Crowd-Kit's BinaryRelevance):
for every class, the model (--model, any of 'consensus models' that needs no
gold) fits the binary labels "the class is chosen" of every label, with its
default settings, and a task's classes are those whose consensus is
"chosen" (ties broken with --seed).

The input has the columns task, worker and label, in CSV, TSV, JSON Lines
or Parquet, optionally gzip-compressed; a label cell lists the chosen
classes separated by --label-sep (default "|"), such as "house|tree"; a
worker who chose none writes the --empty-label text. The output has one
row per task: task, labels (the chosen classes, sorted, joined by
--label-sep; the --empty-label text if none) and p_<class>, the fitted
probability that the class is chosen.`,
		Example: `  consensus multilabel tags.csv --model la-ds -o tags-consensus.csv
  consensus multilabel tags.csv --model mv --label-sep ';' --empty-label none`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := fileArg("labels", &f.input, args); err != nil {
				return err
			}
			return f.run(cmd)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&f.input, "input", "i", "", `labels file, "-" for standard input; CSV, TSV, JSON Lines or Parquet by extension (.csv .tsv .jsonl .parquet, optionally .gz) or --format`)
	fl.StringVar(&f.format, "format", "", "format of --input: csv, tsv, jsonl or parquet (default: by extension, CSV for standard input)")
	fl.StringVar(&f.sep, "sep", "", `field separator: "," or "\t" (or "tab"); default from the file extension`)
	fl.StringVar(&f.task, "task-column", "task", "name of the task column")
	fl.StringVar(&f.worker, "worker-column", "worker", "name of the worker column")
	fl.StringVar(&f.label, "label-column", "label", "name of the label column")
	fl.StringVar(&f.labelSep, "label-sep", "|", "separator of the classes within a label cell")
	fl.StringVar(&f.empty, "empty-label", "", `the label cell of a worker who chose no class, such as "none" (default: every label names a class)`)
	fl.StringVarP(&f.model, "model", "m", model.DefaultModel, "model fitted to every class's binary labels (see 'consensus models')")
	fl.Uint64Var(&f.seed, "seed", 1, "seed for breaking ties in the binary consensus labels")
	fl.Var(&f.maxMemory, "max-memory", "refuse inputs that need more memory than this while reading, such as 4GiB (default: the memory available; off: no check)")
	fl.StringVarP(&f.out, "output", "o", "-", `consensus file (task,labels,p_<class>...); "-" is standard output; format by extension`)
	fl.StringVar(&f.outFormat, "output-format", "", "format of --output: csv, tsv, jsonl or parquet (default: by extension, CSV for standard output)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no summary on stderr")
	return c
}

// run checks the flags, reads the label sets, fits and writes the table.
func (f *multilabelFlags) run(cmd *cobra.Command) error {
	est, err := model.ByName(f.model)
	if err != nil {
		return usageErr(err)
	}
	if f.labelSep == "" {
		return usagef("--label-sep: want a separator, such as \"|\"")
	}
	if f.empty != "" && strings.Contains(f.empty, f.labelSep) {
		return usagef("--empty-label %q contains the --label-sep %q", f.empty, f.labelSep)
	}
	ofmt, err := dataio.ParseFormat(f.outFormat)
	if err != nil {
		return usagef("--output-format: %v", err)
	}
	ifmt, err := dataio.ParseFormat(f.format)
	if err != nil {
		return usagef("--format: %v", err)
	}
	if err := checkOutputs([]string{"input"}, []string{f.input}, []string{"output"}, []string{f.out}); err != nil {
		return err
	}
	if err := checkTables(ofmt, "--output-format", []string{"output"}, []string{f.out}); err != nil {
		return err
	}
	opt := dataio.ReadSettings{MaxMemory: f.maxMemory.bytes()}
	if f.sep != "" {
		if opt.Sep, err = parseSep("sep", f.sep); err != nil {
			return err
		}
	}
	path := f.input
	if path == "" {
		if !stdinPiped() {
			return usagef("no labels: give a file, or pipe them to standard input")
		}
		path = "-"
	}
	m, err := output.LoadMultiLabels(cmd.Context(), path, ifmt, opt, output.MultiLabelColumns{
		Task: f.task, Worker: f.worker, Label: f.label, Sep: f.labelSep, Empty: f.empty})
	if errors.Is(err, output.ErrNoClasses) {
		return usageErr(err)
	}
	if err != nil {
		return limitHint(err)
	}
	br, err := model.FitBinaryRelevance(cmd.Context(), est, m, nil)
	if err != nil {
		return usageErr(err)
	}
	t, err := output.MultiLabelTable(br, f.seed, f.labelSep, f.empty)
	if err != nil {
		return err
	}
	if err := output.WriteFiles(cmd.Context(), output.TableFile(f.out, ofmt, t)); err != nil {
		return err
	}
	if !f.quiet {
		fmt.Fprintf(cmd.ErrOrStderr(), "multilabel: %d tasks, %d workers, %d labels, %d classes; %s fitted to each class's binary labels\n",
			len(m.Tasks), len(m.Workers), len(m.Task), len(m.Classes), f.model)
	}
	return nil
}
