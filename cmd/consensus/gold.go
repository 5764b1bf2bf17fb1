package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
)

// goldFlags give the gold file a layout of its own: its separator, format
// and column names. Unset, the gold file is read as the labels file is (the
// same --sep and column names) and, if its header does not fit that, with
// its own defaults: the separator of its extension and the columns 'task'
// and 'label'.
type goldFlags struct {
	sep, format, taskCol, labelCol string
}

func (g *goldFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&g.sep, "gold-sep", "", "field separator of the gold files (default: as --sep if their header fits it, else by their extension)")
	fl.StringVar(&g.format, "gold-format", "", "format of the gold files: csv, tsv, jsonl or parquet (default: by extension)")
	fl.StringVar(&g.taskCol, "gold-task-column", "", "name of the task column of the gold files (default: as --task-column if their header has it, else task)")
	fl.StringVar(&g.labelCol, "gold-label-column", "", "name of the label column of the gold files (default: as --label-column if their header has it, else label)")
}

// set reports whether any gold layout flag is given.
func (g *goldFlags) set() bool {
	return g.sep != "" || g.format != "" || g.taskCol != "" || g.labelCol != ""
}

// loadGold reads the gold file path for d. labels holds the options the
// labels file was read with (its separator only if --sep was given).
func (g *goldFlags) loadGold(ctx context.Context, path string, d *data.Dataset, labels dataio.ReadSettings, sepGiven bool) (*data.Gold, error) {
	own := dataio.ReadSettings{TaskColumn: g.taskCol, LabelColumn: g.labelCol, MaxMemory: labels.MaxMemory}
	format, err := dataio.ParseFormat(g.format)
	if err != nil {
		return nil, usagef("--gold-format: %v", err)
	}
	if g.sep != "" {
		s, err := parseSep("gold-sep", g.sep)
		if err != nil {
			return nil, err
		}
		own.Sep = s
	}
	if g.set() {
		gd, err := dataio.LoadGold(ctx, path, format, d, own)
		return gd, goldHint(err)
	}
	inherited := labels
	inherited.Classes = nil
	if !sepGiven {
		inherited.Sep = 0 // the gold file's own extension decides
	}
	gd, err := dataio.LoadGold(ctx, path, "", d, inherited)
	if err == nil || path == "-" || !headerError(err) || sameLayout(inherited, own) {
		return gd, goldHint(err)
	}
	// The labels' layout does not fit the gold header: try the gold
	// file's own defaults before giving up.
	gd, err2 := dataio.LoadGold(ctx, path, "", d, own)
	if err2 == nil {
		fmt.Fprintf(os.Stderr, "note: %s is read with its own layout (separator by its extension, columns 'task' and 'label'), not that of the labels file\n", path)
		return gd, nil
	}
	return nil, goldHint(err2)
}

// sameLayout reports whether two option sets read a header alike.
func sameLayout(a, b dataio.ReadSettings) bool {
	col := func(s, def string) string {
		if s = strings.TrimSpace(s); s == "" {
			return def
		}
		return s
	}
	return a.Sep == b.Sep && col(a.TaskColumn, "task") == col(b.TaskColumn, "task") && col(a.LabelColumn, "label") == col(b.LabelColumn, "label")
}

// headerError reports whether err is about the header (the columns or the
// separator) rather than about the rows.
func headerError(err error) bool {
	var ie *dataio.InputError
	return errors.As(err, &ie) && (ie.Hint == dataio.HintColumns || ie.Hint == dataio.HintSeparator)
}

// goldHint adds to an error reading a gold file the advice that names the
// gold layout flags, which do not change how the labels file is read.
func goldHint(err error) error { return withAdvice(err, goldFileFlags) }
