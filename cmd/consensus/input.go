package main

import (
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data"
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
}

func (f *inputFlags) register(c *cobra.Command) {
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
	fl.Var(&f.maxMemory, "max-memory", "refuse inputs estimated to need more memory than this, such as 4GiB (default: the memory available; off: no check)")
}

func (f *inputFlags) options() (data.ReadOptions, error) {
	opt := data.ReadOptions{TaskColumn: f.taskCol, WorkerColumn: f.workerCol, LabelColumn: f.labelCol}
	switch f.sep {
	case "":
	case `\t`, "tab", "\t":
		opt.Sep = '\t'
	default:
		r := []rune(f.sep)
		if len(r) != 1 {
			return opt, usagef("--sep %q: want one character", f.sep)
		}
		if c := r[0]; c == '"' || c == '\r' || c == '\n' || c == utf8.RuneError || unicode.IsControl(c) {
			return opt, usagef("--sep %q: a separator cannot be a quote, a line break or a control character other than a tab", f.sep)
		}
		opt.Sep = r[0]
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

// load reads the labels and, when given, the gold labels. It prints a note
// on stderr when gold tasks have no labels.
func (f *inputFlags) load() (*data.Dataset, *data.Gold, error) {
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
	case f.input == "":
		return nil, nil, usagef("no labels: give --input FILE or --dataset NAME")
	}
	opt, err := f.options()
	if err != nil {
		return nil, nil, err
	}
	format, err := data.ParseFormat(f.format)
	if err != nil {
		return nil, nil, usageErr(err)
	}
	if err := checkReadMemory(f.input, format, f.maxMemory); err != nil {
		return nil, nil, err
	}
	d, err := data.LoadLabels(f.input, format, opt)
	if err != nil {
		return nil, nil, err
	}
	if f.gold == "" {
		return d, nil, nil
	}
	gopt := opt
	gopt.Sep = 0 // the gold file's own extension decides
	if f.sep != "" {
		gopt.Sep = opt.Sep
	}
	g, err := data.LoadGold(f.gold, "", d, gopt)
	if err != nil {
		return nil, nil, err
	}
	noteUnmatched(g)
	return d, g, nil
}

// readFlag returns the first flag set that only affects reading --input
// and --gold files, or "".
func (f *inputFlags) readFlag() string {
	switch {
	case f.sep != "":
		return "--sep"
	case f.format != "":
		return "--format"
	case f.classes != "":
		return "--classes"
	case f.taskCol != data.DefaultTaskColumn:
		return "--task-column"
	case f.workerCol != data.DefaultWorkerColumn:
		return "--worker-column"
	case f.labelCol != data.DefaultLabelColumn:
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
