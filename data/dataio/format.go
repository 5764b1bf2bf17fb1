package dataio

import (
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

// Format is the file format of a labels or gold file.
type Format string

// The supported formats. The empty Format means: choose by the file name
// (see FormatOf).
const (
	// CSV is comma-separated text with a header line (RFC 4180 quoting);
	// ReadSettings.Sep may choose another separator.
	CSV Format = "csv"
	// TSV is tab-separated text with a header line.
	TSV Format = "tsv"
	// JSONL is JSON Lines (also called NDJSON): one JSON object a line,
	// such as {"task":"t1","worker":"w1","label":"cat"}.
	JSONL Format = "jsonl"
	// Parquet is an Apache Parquet file with one flat column per field.
	Parquet Format = "parquet"
)

// Formats lists the supported formats.
func Formats() []Format { return []Format{CSV, TSV, JSONL, Parquet} }

// ParseFormat returns the Format named s: "csv", "tsv" (or "tab"),
// "jsonl" (or "ndjson") or "parquet", in any case. The empty string
// returns the empty Format, which means "by the file name".
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return "", nil
	case "csv":
		return CSV, nil
	case "tsv", "tab":
		return TSV, nil
	case "jsonl", "ndjson", "jsonlines":
		return JSONL, nil
	case "parquet", "pq":
		return Parquet, nil
	}
	return "", fmt.Errorf("unknown format %q (valid: csv, tsv, jsonl, parquet)", s)
}

// FormatOf returns the format implied by a file name's extension, ignoring
// a trailing ".gz": TSV for ".tsv" and ".tab", JSONL for ".jsonl" and
// ".ndjson", Parquet for ".parquet" and ".pq", and CSV for anything else,
// including standard input ("-").
func FormatOf(name string) Format {
	lower := strings.TrimSuffix(strings.ToLower(name), ".gz")
	switch filepath.Ext(lower) {
	case ".tsv", ".tab":
		return TSV
	case ".jsonl", ".ndjson":
		return JSONL
	case ".parquet", ".pq":
		return Parquet
	}
	return CSV
}

// CheckOutputName reports whether the name of an output file says its
// format: an extension FormatOf knows (".csv", ".tsv", ".tab", ".jsonl",
// ".ndjson", ".parquet", ".pq", each optionally followed by ".gz"), or no
// extension at all (CSV, as standard output, "-", and devices such as
// /dev/null). Another extension (".json", ".xlsx", ".txt", ".csv.bz2")
// promises a format that would not be written, and is an error.
func CheckOutputName(name string) error {
	ext := filepath.Ext(strings.TrimSuffix(strings.ToLower(name), ".gz"))
	switch ext {
	case "", ".csv", ".tsv", ".tab", ".jsonl", ".ndjson", ".parquet", ".pq":
		return nil
	}
	return fmt.Errorf("the extension %s names no table format; name the file .csv, .tsv, .jsonl or .parquet (optionally .gz)", ext)
}

// resolve returns f, or the format of name if f is empty.
func (f Format) resolve(name string) Format {
	if f == "" {
		return FormatOf(name)
	}
	return f
}

// textSep returns the separator of text format f: opt.Sep, or a comma
// for CSV and a tab for TSV.
func textSep(f Format, opt ReadSettings) rune {
	switch {
	case opt.Sep != 0:
		return opt.Sep
	case f == TSV:
		return '\t'
	}
	return ','
}

// ReadLabelsAs reads noisy labels from r in the given format (empty: by
// the name's extension, see FormatOf) and returns them as a Dataset.
//
// CSV and TSV are read as by ReadLabels. A JSON Lines file has one object a
// line with the keys named by opt (by default "task", "worker" and
// "label"); values may be strings or numbers, and a number keeps its
// literal text (so 1 and 1.0 are different labels, as they would be in a
// CSV file); other keys are ignored. A Parquet file has flat columns of
// those names; strings, integers, floating-point numbers and booleans are
// accepted and turned into text, other columns are ignored. Input in any
// format may be gzip-compressed.
//
// Every problem is reported as an *InputError: its Line is the physical
// line for CSV, TSV and JSON Lines, and the 1-based row number for Parquet.
// Rows are streamed into a Builder in every format; a Parquet file that is
// not a regular file (standard input, or gzip-compressed) is first copied
// to a temporary file, since Parquet must be read from the end.
func ReadLabelsAs(ctx context.Context, r io.Reader, name string, f Format, opt ReadSettings) (*data.Dataset, error) {
	f = f.resolve(name)
	opt.Sep = textSep(f, opt)
	return readLabels(ctx, r, name, f, opt)
}

// ReadGoldAs reads gold labels for d from r in the given format (empty: by
// the name's extension). CSV and TSV are read as by ReadGold; JSON Lines
// and Parquet as described at ReadLabelsAs, with the same rules as ReadGold.
func ReadGoldAs(ctx context.Context, r io.Reader, name string, f Format, d *data.Dataset, opt ReadSettings) (*data.Gold, error) {
	f = f.resolve(name)
	opt.Sep = textSep(f, opt)
	return readGold(ctx, r, name, f, d, opt)
}

// ErrArgument is wrapped by the error of a reading function given an
// invalid argument rather than bad input: a nil reader, or ReadTable's nil
// row function. Callers test it with errors.Is.
var ErrArgument = errors.New("dataio: invalid argument")

// Columns names the columns of a table that ReadTable reads.
type Columns struct {
	// Names lists the columns the table must have. A name matches a
	// header column (for JSON Lines, a key; for Parquet, a top-level
	// column) exactly or else ignoring case, after trimming white space.
	Names []string
	// Roles says what each of Names holds, such as "task" or "label",
	// for messages; if it is nil, the roles are the names. A column
	// whose role is "label" refuses NaN and infinities (see validate.go).
	Roles []string
	// More, if not nil, is called once with the header — the names of
	// the header line, the keys of the first JSON Lines record, or the
	// Parquet columns — and returns further columns to read, named as
	// in the header, and their roles, such as every column whose name
	// starts with "p_". Their cells follow those of Names. An error
	// stops the reading: it becomes an *InputError naming the header's
	// line and its columns, such as "p.csv:1: the columns are 'task',
	// 'x': " followed by the error's text.
	More func(header []string) (names, roles []string, err error)
}

// roles returns c.Roles, or the names if it is nil.
func (c Columns) roles() []string {
	if c.Roles == nil {
		return c.Names
	}
	return c.Roles
}

// more returns the names and roles of c.Names and of the columns that
// c.More adds for the header.
func (c Columns) more(header []string) (names, roles []string, err error) {
	names = append([]string(nil), c.Names...)
	roles = append([]string(nil), c.roles()...)
	n, r, err := c.More(header)
	if err != nil {
		return nil, nil, fmt.Errorf("the columns are %s: %w", showList(header), err)
	}
	for i, s := range n {
		names = append(names, strings.Clone(s))
		role := s
		if i < len(r) {
			role = r[i]
		}
		roles = append(roles, strings.Clone(role))
	}
	return names, roles, nil
}

// ReadTable reads the columns cols of a table from r in format f (empty:
// by the name's extension, see FormatOf) and calls row with the trimmed
// cells of each data row, in the order of cols.Names then of the columns
// cols.More adds, and the row's line (for Parquet, its 1-based row). The
// cells are valid only during the call: the slice is reused, and a cell
// may point into the reader's buffer, so a cell kept must be copied
// (strings.Clone).
//
// The table is read as ReadLabelsAs reads labels, in any format and
// gzip-compressed or not, with the same rules for values (validate.go):
// cells are text, neither empty nor null, columns the table lacks are an
// error naming the columns it has, and ctx, opt.Sep and
// opt.MaxMemory apply (the memory limit also bounds the text read, for a
// caller that keeps what it reads). The column options of opt and
// opt.Classes are not used. A table without rows is an error.
//
// An error returned by row stops the reading and is returned: an
// *InputError as it is, any other error as an *InputError naming the file
// and the row's line, with the error's text as its message. A nil r or
// row is an error wrapping ErrArgument.
func ReadTable(ctx context.Context, r io.Reader, name string, f Format, opt ReadSettings, cols Columns, row func(cells []string, line int) error) error {
	file := displayName(name)
	if row == nil {
		return fmt.Errorf("%w: no row function to read %s with", ErrArgument, file)
	}
	f = f.resolve(name)
	g := newGuard(ctx, opt, file)
	if g != nil {
		g.total = true
	}
	src, done, err := openSource(r, name, f, textSep(f, opt), cols, g)
	if err != nil {
		return err
	}
	defer done()
	rows := 0
	for {
		cells, line, err := src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		rows++
		if err := row(cells, line); err != nil {
			var ie *InputError
			if errors.As(err, &ie) {
				return err
			}
			return &InputError{File: file, Line: line, Msg: err.Error(), Err: err}
		}
		if err := g.Row(line, ingest.Size{}); err != nil {
			return err
		}
	}
	if rows == 0 {
		return src.noRows()
	}
	return nil
}

// LoadTable reads a table from the named file, or from standard input if
// path is "-", with ReadTable.
func LoadTable(ctx context.Context, path string, f Format, opt ReadSettings, cols Columns, row func(cells []string, line int) error) error {
	r, done, err := openPath(path)
	if err != nil {
		return err
	}
	defer done()
	return ReadTable(ctx, r, path, f, opt, cols, row)
}

// LoadLabels reads noisy labels from the named file, or from standard input
// if path is "-", in the given format (empty: by the extension), with
// ReadLabelsAs.
func LoadLabels(ctx context.Context, path string, f Format, opt ReadSettings) (*data.Dataset, error) {
	r, done, err := openPath(path)
	if err != nil {
		return nil, err
	}
	defer done()
	return ReadLabelsAs(ctx, r, path, f, opt)
}

// LoadGold reads gold labels for d from the named file, or from standard
// input if path is "-", in the given format (empty: by the extension), with
// ReadGoldAs.
func LoadGold(ctx context.Context, path string, f Format, d *data.Dataset, opt ReadSettings) (*data.Gold, error) {
	r, done, err := openPath(path)
	if err != nil {
		return nil, err
	}
	defer done()
	return ReadGoldAs(ctx, r, path, f, d, opt)
}

// openPath opens a file, or returns standard input for "-".
func openPath(path string) (io.Reader, func(), error) {
	if path == "-" {
		return os.Stdin, func() {}, nil
	}
	f, err := openFile(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}
