package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/crowdkit"
)

// usageError marks errors caused by the command line or the input data:
// they exit with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErr(err error) error { return usageError{err} }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func isUsage(err error) bool {
	var u usageError
	var in *dataio.InputError
	return errors.As(err, &u) || errors.As(err, &in)
}

// splitList returns the items of a comma-separated flag value, each
// trimmed of spaces, without empty items; nil for "".
func splitList(s string) []string {
	var items []string
	for _, it := range strings.Split(s, ",") {
		if it = strings.TrimSpace(it); it != "" {
			items = append(items, it)
		}
	}
	return items
}

// oneLine flattens an error message to a single line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " ")
}

// readFlags names the flags that change how one kind of file is read, for
// the advice added to its input errors; an empty name gives no advice.
type readFlags struct {
	sep     string // the separator flag, such as "--sep"
	tsv     string // the other remedy for a tab, such as "name the file .tsv"
	format  string // the format flag, such as "--format"
	columns string // the column flags, such as "--task-column and --label-column"
	classes string // the classes flag
}

var (
	// labelsFlags are the flags of the labels file.
	labelsFlags = readFlags{sep: "--sep", tsv: "name the file .tsv", format: "--format",
		columns: "--task-column, --worker-column and --label-column", classes: "--classes"}
	// goldFileFlags are the flags of the gold files, which leave the
	// labels file alone.
	goldFileFlags = readFlags{sep: "--gold-sep", tsv: "name the gold file .tsv", format: "--gold-format",
		columns: "--gold-task-column and --gold-label-column"}
)

// withModelAdvice adds to an error of package model whose remedy is a
// flag the advice that names it. Other errors are returned as they are.
func withModelAdvice(err error) error {
	switch {
	case errors.Is(err, crowdkit.ErrNoTrainingGold):
		return fmt.Errorf("%w: give --train-gold FILE, or --train-fraction F with --gold", err)
	case errors.Is(err, model.ErrOneClass):
		return fmt.Errorf("%w: use --classes to list all the classes", err)
	}
	return err
}

// withAdvice adds to an input error whose remedy is a reading option
// (dataio.InputError.Hint) the advice that names the flag of fl setting it.
// Other errors are returned as they are.
func withAdvice(err error, fl readFlags) error {
	var ie *dataio.InputError
	if !errors.As(err, &ie) {
		return err
	}
	e := *ie
	switch {
	case ie.Hint == dataio.HintSeparator && fl.sep != "":
		if ie.Arg == "\t" && fl.tsv != "" {
			e.Msg += fmt.Sprintf(" (use %s, or %s)", fl.sep, fl.tsv)
		} else {
			e.Msg += fmt.Sprintf(" (use %s)", fl.sep)
		}
	case ie.Hint == dataio.HintColumns && fl.columns != "":
		e.Msg += fmt.Sprintf("; other %s names can be given with %s", ie.Arg, fl.columns)
	case ie.Hint == dataio.HintClasses && fl.classes != "":
		e.Msg += fmt.Sprintf(" (given with %s)", fl.classes)
	case ie.Hint == dataio.HintOneClass && fl.classes != "" && ie.Arg != "":
		e.Msg += fmt.Sprintf(": use %s %s,OTHER to declare the other classes", fl.classes, ie.Arg)
	case ie.Hint == dataio.HintOneClass && fl.classes != "":
		e.Msg += fmt.Sprintf(": use %s to list all the classes", fl.classes)
	case ie.Hint == dataio.HintFormat && fl.format != "":
		e.Msg += ", or use " + fl.format
	default:
		return err
	}
	return &e
}
