package dataio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/internal/ingest"
)

// Default column names of label and gold files.
const (
	DefaultTaskColumn   = "task"
	DefaultWorkerColumn = "worker"
	DefaultLabelColumn  = "label"
)

// ReadSettings controls how the readers of this package read a file. The
// zero value selects the documented defaults.
//
// The context given to a reader, if not nil, stops the reading when it is
// cancelled: the reader returns an error wrapping the context's error.
type ReadSettings struct {
	// Sep is the field separator. If it is zero, the separator is chosen
	// from the extension of the file name: a tab for ".tsv" and ".tab"
	// files, a comma otherwise. A trailing ".gz" is ignored for this
	// purpose.
	Sep rune

	// TaskColumn, WorkerColumn and LabelColumn name the header columns
	// holding the task identifier, the worker identifier and the label.
	// Empty names select "task", "worker" and "label". Header names are
	// matched after trimming white space; an exact match is preferred and
	// a match ignoring case is accepted otherwise. ReadGold uses only
	// TaskColumn and LabelColumn.
	TaskColumn, WorkerColumn, LabelColumn string

	// Classes, if not empty, lists the classes and fixes their order; a
	// label outside the list is an error, and classes that no worker
	// chose are still part of the Dataset. If Classes is empty, the
	// classes are the distinct labels found, ordered numerically when all
	// of them parse as numbers (so 1 < 2 < 10) and lexically otherwise.
	// ReadGold ignores Classes: gold labels must be classes of the
	// Dataset they refer to.
	Classes []string

	// MaxMemory, if positive, bounds the memory in bytes that reading may
	// take, enforced while reading: by readMemory of the labels
	// and distinct identifiers read so far, and by the length of a line
	// (a quarter of MaxMemory at most). A read that would exceed it stops
	// with an *InputError wrapping ErrLimit, which names the line. Whatever
	// MaxMemory, a line longer than 1 GiB (ingest.MaxLine) is an error.
	MaxMemory int64
}

// InputError describes a problem with an input file. Its Error method
// returns a single line of the form "FILE:LINE: message", or "FILE: message"
// when the problem does not belong to one line.
//
// Messages name no option of a program: where the remedy is one of the
// caller's options (another separator, other column names, the list of
// classes, the format), Hint says which, and a program adds advice naming
// its own option, such as a command-line flag.
type InputError struct {
	// File is the file name as given to the reader.
	File string
	// Line is the 1-based physical line of the file where the problem
	// is, counting the header line and blank lines (for Parquet, the
	// 1-based row); it is 0 when the problem concerns the file as a
	// whole.
	Line int
	// Msg describes the problem and, where possible, what to do about it.
	Msg string
	// Err is the underlying error, if any, such as an error from the
	// operating system or ErrLimit; it may be nil.
	Err error
	// Hint classifies a problem that one of the reader's options can
	// remedy; it is NoHint for the others.
	Hint Hint
	// Arg is the detail of the Hint: the separator that splits the
	// header (HintSeparator), the word for a column in the format,
	// "column" or "key" (HintColumns), or the only class found, if it
	// can be written in a comma-separated list as it is
	// (HintOneClass); it is empty otherwise.
	Arg string
}

// Hint says which option of a reader can remedy the problem of an
// *InputError, for a program to name its own option in its advice.
type Hint uint8

// The hints of an *InputError.
const (
	// NoHint marks problems that no reading option remedies.
	NoHint Hint = iota
	// HintSeparator marks a header that another separator (Arg) would
	// split into the wanted columns: ReadSettings.Sep, or a file name
	// ending in .tsv for a tab.
	HintSeparator
	// HintColumns marks a header (for JSON Lines, a record's keys; for
	// Parquet, the schema) without some of the wanted columns:
	// ReadSettings.TaskColumn, WorkerColumn and LabelColumn name others.
	HintColumns
	// HintClasses marks a problem with ReadSettings.Classes: a label
	// outside them, or a list that is not valid.
	HintClasses
	// HintOneClass marks labels of one class only (Arg, if it can be
	// written in a comma-separated list as it is): ReadSettings.Classes
	// can declare the others.
	HintOneClass
	// HintFormat marks content that does not match the format the file
	// name implies: the format can be given explicitly.
	HintFormat
)

// Error returns the one-line description of the problem.
func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Unwrap returns the underlying error, which may be nil.
func (e *InputError) Unwrap() error { return e.Err }

// ReadLabels reads noisy labels from r, a delimited text file with a header
// line, and returns them as a Dataset. Each data row gives one label: the
// task, the worker and the label in the columns named by opt (by default
// "task", "worker" and "label", in any order). Columns beyond these are
// ignored, but every row must have as many fields as the header.
//
// The name is used in error messages, to choose the separator when
// opt.Sep is zero, and, without directory and extensions, as the Dataset's
// Name.
//
// The input must be UTF-8. A leading byte order mark is skipped, CRLF and
// LF line endings are both accepted, blank lines are skipped, fields may be
// quoted as in RFC 4180, and white space around each cell is trimmed. If the
// input is gzip-compressed, it is decompressed first. Rows are fed straight
// into a Builder, so the input is read in one pass without keeping its text.
//
// Every problem with the input is reported as an *InputError naming the
// file and, where it applies, the line: a missing or empty header, missing
// columns, rows with too few or too many fields, empty cells, unbalanced
// quotes, invalid UTF-8, labels outside opt.Classes, no data rows, and
// data with fewer than two classes.
func ReadLabels(ctx context.Context, r io.Reader, name string, opt ReadSettings) (*data.Dataset, error) {
	if opt.Sep == 0 {
		opt.Sep = sepFor(name)
	}
	return readLabels(ctx, r, name, CSV, opt)
}

// labelColumns returns the columns of a labels file that opt names.
func labelColumns(opt ReadSettings) Columns {
	return Columns{
		Names: []string{
			orDefault(opt.TaskColumn, DefaultTaskColumn),
			orDefault(opt.WorkerColumn, DefaultWorkerColumn),
			orDefault(opt.LabelColumn, DefaultLabelColumn),
		},
		Roles: []string{"task", "worker", "label"},
	}
}

// goldColumns returns the columns of a gold file that opt names.
func goldColumns(opt ReadSettings) Columns {
	return Columns{
		Names: []string{orDefault(opt.TaskColumn, DefaultTaskColumn), orDefault(opt.LabelColumn, DefaultLabelColumn)},
		Roles: []string{"task", "label"},
	}
}

// readLabels reads labels in format f (not empty; for CSV and TSV,
// opt.Sep is set).
func readLabels(ctx context.Context, r io.Reader, name string, f Format, opt ReadSettings) (*data.Dataset, error) {
	file := displayName(name)
	classes, err := cleanClasses(opt.Classes)
	if err != nil {
		return nil, &InputError{File: file, Msg: err.Error(), Hint: HintClasses}
	}
	g := newGuard(ctx, opt, file)
	src, done, err := openSource(r, name, f, opt.Sep, labelColumns(opt), g)
	if err != nil {
		return nil, err
	}
	defer done()
	return labelsFrom(src, name, classes, g)
}

// ReadGold reads known true classes for tasks of d from r, a delimited text
// file with a header line and the columns named by opt.TaskColumn and
// opt.LabelColumn (by default "task" and "label"). Other columns are
// ignored. The file format and the name are handled as by ReadLabels.
//
// Every gold label must be one of d.Classes. A task listed more than once
// must have the same label each time; it counts once. A gold task that is
// not one of d.Tasks (for a data set read from a file: that has no noisy
// labels) is not an error: it is counted in Gold.Unmatched, and
// the first five such identifiers are kept in Gold.UnmatchedTasks. It is an
// error, however, if no gold task at all has noisy labels in d. Gold tasks
// are kept in the order of their first row.
func ReadGold(ctx context.Context, r io.Reader, name string, d *data.Dataset, opt ReadSettings) (*data.Gold, error) {
	if opt.Sep == 0 {
		opt.Sep = sepFor(name)
	}
	return readGold(ctx, r, name, CSV, d, opt)
}

// readGold reads gold labels in format f (not empty; for CSV and TSV,
// opt.Sep is set).
func readGold(ctx context.Context, r io.Reader, name string, f Format, d *data.Dataset, opt ReadSettings) (*data.Gold, error) {
	file := displayName(name)
	if d == nil || d.NumClasses() == 0 {
		return nil, &InputError{File: file, Msg: "no labels data set to match the gold labels to"}
	}
	g := newGuard(ctx, opt, file)
	src, done, err := openSource(r, name, f, opt.Sep, goldColumns(opt), g)
	if err != nil {
		return nil, err
	}
	defer done()
	return goldFrom(src, file, d, g)
}

// textReader returns a reader of the text in r: gzip-compressed input is
// decompressed, and a leading UTF-8 byte order mark is skipped.
func textReader(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if p, _ := br.Peek(2); len(p) == 2 && p[0] == 0x1f && p[1] == 0x8b {
		zr, err := ingest.NewGzipMembers(br)
		if err != nil {
			return nil, fmt.Errorf("corrupt compressed file: %w", err)
		}
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	if p, _ := br.Peek(3); bytes.Equal(p, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	return br, nil
}

// openFile opens a file for reading, translating failures into an
// *InputError.
func openFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		msg := err.Error()
		var pe *os.PathError
		if errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		return nil, &InputError{File: path, Msg: "cannot open the file: " + msg, Err: err}
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, &InputError{File: path, Msg: "is a directory, not a file"}
	}
	return f, nil
}

// sepFor returns the separator implied by a file name.
func sepFor(name string) rune {
	switch strings.ToLower(filepath.Ext(strings.TrimSuffix(strings.ToLower(name), ".gz"))) {
	case ".tsv", ".tab":
		return '\t'
	}
	return ','
}

// cleanClasses trims the class names given in options and checks them.
func cleanClasses(classes []string) ([]string, error) {
	if len(classes) == 0 {
		return nil, nil
	}
	out := make([]string, len(classes))
	for i, c := range classes {
		out[i] = strings.TrimSpace(c)
		if out[i] == "" {
			return nil, errors.New("the list of classes has an empty class name")
		}
		for _, p := range out[:i] {
			if p == out[i] {
				return nil, fmt.Errorf("the list of classes names class %s twice", show(p))
			}
		}
	}
	if len(out) == 1 {
		return nil, fmt.Errorf("the list of classes names only one class, %s; at least two are needed", show(out[0]))
	}
	if len(out) > data.MaxClasses {
		return nil, fmt.Errorf("the list of classes names %d classes, at most %d are supported", len(out), data.MaxClasses)
	}
	return out, nil
}
