package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/datasets"
)

// inputFlags are the flags that choose and read a data set, shared by the
// subcommands that take labels.
type inputFlags struct {
	input, gold, dataset string
	sep                  string
	taskCol, workerCol   string
	labelCol             string
	classes              string
	maxMemory            memLimit
	format               string
	goldLayout           goldFlags
}

func (f *inputFlags) register(c *cobra.Command) {
	// The labels file may also be the command's only argument.
	c.Args = cobra.MaximumNArgs(1)
	c.PreRunE = func(_ *cobra.Command, args []string) error { return f.positional(args) }
	fl := c.Flags()
	fl.StringVarP(&f.input, "input", "i", "", `labels file (task,worker,label), "-" for standard input; CSV, TSV, JSON Lines or Parquet by extension (.csv .tsv .jsonl .parquet, optionally .gz) or --format`)
	fl.StringVar(&f.format, "format", "", "format of --input: csv, tsv, jsonl or parquet (default: by extension, CSV for standard input)")
	fl.StringVarP(&f.gold, "gold", "g", "", "gold file (task,label) for evaluation")
	fl.StringVarP(&f.dataset, "dataset", "d", "", "use a data set shipped in the binary instead of --input/--gold (see 'consensus datasets')")
	fl.StringVar(&f.sep, "sep", "", `field separator: "," or "\t" (or "tab"); default from the file extension`)
	fl.StringVar(&f.taskCol, "task-column", "task", "name of the task column")
	fl.StringVar(&f.workerCol, "worker-column", "worker", "name of the worker column")
	fl.StringVar(&f.labelCol, "label-column", "label", "name of the label column")
	fl.StringVar(&f.classes, "classes", "", "comma-separated list of the classes, in order (default: the labels found, numeric order if all are numbers)")
	fl.Var(&f.maxMemory, "max-memory", "refuse inputs and fits that need more memory than this, such as 4GiB, checked before and while reading and before each fit (default: the memory available; off: no check)")
	f.goldLayout.register(c)
}

// parseSep parses the value of a separator flag: one character, "tab" or
// "\t" for a tab.
func parseSep(flag, s string) (rune, error) {
	switch s {
	case `\t`, "tab", "\t":
		return '\t', nil
	}
	r := []rune(s)
	if len(r) != 1 {
		return 0, usagef("--%s %q: want one character", flag, s)
	}
	if c := r[0]; c == '"' || c == '\r' || c == '\n' || c == utf8.RuneError || unicode.IsControl(c) {
		return 0, usagef("--%s %q: a separator cannot be a quote, a line break or a control character other than a tab", flag, s)
	}
	return r[0], nil
}

func (f *inputFlags) options() (dataio.ReadSettings, error) {
	opt := dataio.ReadSettings{TaskColumn: f.taskCol, WorkerColumn: f.workerCol, LabelColumn: f.labelCol}
	if f.sep != "" {
		s, err := parseSep("sep", f.sep)
		if err != nil {
			return opt, err
		}
		opt.Sep = s
	}
	if f.classes != "" {
		for _, c := range strings.Split(f.classes, ",") {
			c = strings.TrimSpace(c)
			if c == "" {
				return opt, usagef("--classes %q has an empty class", f.classes)
			}
			opt.Classes = append(opt.Classes, c)
		}
		if len(opt.Classes) < 2 {
			return opt, usagef("--classes %q: need at least two classes", f.classes)
		}
	}
	return opt, nil
}

// positional takes the labels file from the command's only argument, the
// form "consensus fit labels.csv", as if it had been given with --input.
// Without a labels file or a data set, labels piped or redirected to the
// command are its input "-", which the checks of its outputs then see.
func (f *inputFlags) positional(args []string) error {
	if len(args) > 0 {
		if f.input != "" || f.dataset != "" {
			return usagef("the labels file %s is given twice: as an argument and with --input or --dataset", args[0])
		}
		f.input = args[0]
	}
	if f.input == "" && f.dataset == "" && stdinPiped() {
		f.input = "-"
	}
	return nil
}

// fileArg takes a command's input file from its only argument, as if it
// had been given with --input: input is the --input flag's value and what
// names the file in the message when both are given, such as "labels".
func fileArg(what string, input *string, args []string) error {
	if len(args) == 1 {
		if *input != "" {
			return usagef("the %s file %s is given twice: as an argument and with --input", what, args[0])
		}
		*input = args[0]
	}
	return nil
}

// stdinPiped reports whether standard input is a pipe or a regular file
// (labels piped or redirected to the command), not a terminal or a device
// such as /dev/null.
func stdinPiped() bool {
	fi, err := os.Stdin.Stat()
	if err != nil {
		return false
	}
	m := fi.Mode()
	return m&os.ModeNamedPipe != 0 || m.IsRegular()
}

// load reads the labels and, when given, the gold labels. It prints a note
// on stderr when gold tasks have no labels.
func (f *inputFlags) load(ctx context.Context) (*data.Dataset, *data.Gold, error) {
	switch {
	case f.dataset != "" && (f.input != "" || f.gold != ""):
		return nil, nil, usagef("--dataset cannot be combined with --input or --gold")
	case f.dataset != "" && f.readFlag() != "":
		return nil, nil, usagef("%s applies to --input files, not to --dataset", f.readFlag())
	case f.dataset != "":
		d, g, err := datasets.Load(f.dataset)
		if err != nil {
			return nil, nil, usageErr(err)
		}
		noteUnmatched(g)
		return d, g, nil
	case f.input == "" && stdinPiped():
		f.input = "-"
	case f.input == "":
		return nil, nil, usagef("no labels: give a labels file (or --input FILE), --dataset NAME, or pipe the labels to standard input")
	}
	opt, err := f.options()
	if err != nil {
		return nil, nil, err
	}
	format, err := dataio.ParseFormat(f.format)
	if err != nil {
		return nil, nil, usageErr(err)
	}
	if err := checkReadMemory(f.input, format, opt, f.maxMemory); err != nil {
		return nil, nil, err
	}
	opt.MaxMemory = f.maxMemory.bytes()
	d, err := dataio.LoadLabels(ctx, f.input, format, opt)
	if err != nil {
		return nil, nil, limitHint(withAdvice(err, labelsFlags))
	}
	if f.gold == "" {
		return d, nil, nil
	}
	g, err := f.loadGold(ctx, f.gold, d)
	if err != nil {
		return nil, nil, err
	}
	noteUnmatched(g)
	return d, g, nil
}

// loadGold reads a gold file for d with the gold layout flags (see
// goldFlags).
func (f *inputFlags) loadGold(ctx context.Context, path string, d *data.Dataset) (*data.Gold, error) {
	opt, err := f.options()
	if err != nil {
		return nil, err
	}
	opt.MaxMemory = f.maxMemory.bytes()
	g, err := f.goldLayout.loadGold(ctx, path, d, opt, f.sep != "")
	return g, limitHint(err)
}

// limitHint adds to an error of a read stopped by the memory limit what
// to do about it.
func limitHint(err error) error {
	if errors.Is(err, dataio.ErrLimit) {
		return usagef("%v; use a machine with more memory, or --max-memory to change the limit", err)
	}
	return err
}

// readFlag returns the first flag set that only affects reading --input
// and --gold files, or "".
func (f *inputFlags) readFlag() string {
	switch {
	case f.sep != "":
		return "--sep"
	case f.goldLayout.set():
		return "--gold-sep, --gold-format, --gold-task-column or --gold-label-column"
	case f.format != "":
		return "--format"
	case f.classes != "":
		return "--classes"
	case f.taskCol != dataio.DefaultTaskColumn:
		return "--task-column"
	case f.workerCol != dataio.DefaultWorkerColumn:
		return "--worker-column"
	case f.labelCol != dataio.DefaultLabelColumn:
		return "--label-column"
	}
	return ""
}

func noteUnmatched(g *data.Gold) {
	if g == nil || g.Unmatched == 0 {
		return
	}
	fmt.Fprintf(os.Stderr, "note: %d gold tasks have no labels and are left out of the metrics (e.g. %s)\n",
		g.Unmatched, strings.Join(g.UnmatchedTasks, ", "))
}
