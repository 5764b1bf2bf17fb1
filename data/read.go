package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Default column names of label and gold files.
const (
	DefaultTaskColumn   = "task"
	DefaultWorkerColumn = "worker"
	DefaultLabelColumn  = "label"
)

// ReadOptions controls how ReadLabels and ReadGold read a delimited text
// file. The zero value selects the documented defaults.
type ReadOptions struct {
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

	// Context, if not nil, stops the reading when it is cancelled: the
	// reader returns an error wrapping the context's error.
	Context context.Context

	// MaxMemory, if positive, bounds the memory in bytes that reading may
	// take, enforced while reading: by EstimateReadMemory of the labels
	// and distinct identifiers read so far, and by the length of a line
	// (a quarter of MaxMemory at most). A read that would exceed it stops
	// with an *InputError wrapping ErrLimit, which names the line.
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
	// split into the wanted columns: ReadOptions.Sep, or a file name
	// ending in .tsv for a tab.
	HintSeparator
	// HintColumns marks a header (for JSON Lines, a record's keys; for
	// Parquet, the schema) without some of the wanted columns:
	// ReadOptions.TaskColumn, WorkerColumn and LabelColumn name others.
	HintColumns
	// HintClasses marks a problem with ReadOptions.Classes: a label
	// outside them, or a list that is not valid.
	HintClasses
	// HintOneClass marks labels of one class only (Arg, if it can be
	// written in a comma-separated list as it is): ReadOptions.Classes
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

// ReadLabelsFile reads noisy labels from the named file with ReadLabels.
// A file whose content is gzip-compressed is decompressed transparently.
func ReadLabelsFile(path string, opt ReadOptions) (*Dataset, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadLabels(f, path, opt)
}

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
func ReadLabels(r io.Reader, name string, opt ReadOptions) (*Dataset, error) {
	if opt.Sep == 0 {
		opt.Sep = sepFor(name)
	}
	return readLabels(r, name, CSV, opt)
}

// labelColumns returns the columns of a labels file that opt names.
func labelColumns(opt ReadOptions) Columns {
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
func goldColumns(opt ReadOptions) Columns {
	return Columns{
		Names: []string{orDefault(opt.TaskColumn, DefaultTaskColumn), orDefault(opt.LabelColumn, DefaultLabelColumn)},
		Roles: []string{"task", "label"},
	}
}

// readLabels reads labels in format f (not empty; for CSV and TSV,
// opt.Sep is set).
func readLabels(r io.Reader, name string, f Format, opt ReadOptions) (*Dataset, error) {
	file := displayName(name)
	classes, err := cleanClasses(opt.Classes)
	if err != nil {
		return nil, &InputError{File: file, Msg: err.Error(), Hint: HintClasses}
	}
	g := newGuard(opt, file)
	src, done, err := openSource(r, name, f, opt.Sep, labelColumns(opt), g)
	if err != nil {
		return nil, err
	}
	defer done()
	return labelsFrom(src, name, classes, g)
}

// ReadGoldFile reads gold labels for d from the named file with ReadGold.
// A file whose content is gzip-compressed is decompressed transparently.
func ReadGoldFile(path string, d *Dataset, opt ReadOptions) (*Gold, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadGold(f, path, d, opt)
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
func ReadGold(r io.Reader, name string, d *Dataset, opt ReadOptions) (*Gold, error) {
	if opt.Sep == 0 {
		opt.Sep = sepFor(name)
	}
	return readGold(r, name, CSV, d, opt)
}

// readGold reads gold labels in format f (not empty; for CSV and TSV,
// opt.Sep is set).
func readGold(r io.Reader, name string, f Format, d *Dataset, opt ReadOptions) (*Gold, error) {
	file := displayName(name)
	if d == nil || d.NumClasses() == 0 {
		return nil, &InputError{File: file, Msg: "no labels data set to match the gold labels to"}
	}
	g := newGuard(opt, file)
	src, done, err := openSource(r, name, f, opt.Sep, goldColumns(opt), g)
	if err != nil {
		return nil, err
	}
	defer done()
	return goldFrom(src, file, d, g)
}

// tableReader reads the rows of a delimited text file with a header line and
// returns the trimmed cells of the wanted columns.
type tableReader struct {
	file  string
	cr    records  // encoding/csv's Reader or its fast path
	names []string // wanted column names
	roles []string // what each wanted column holds, for messages
	index []int    // position of each wanted column in a row
	width int      // number of fields of the header
	head  int      // line of the header
	cells []string // reused result of next
	size  int64    // the input's size in bytes, if it is a file; else 0
}

// newTableReader prepares r for reading and reads and checks the header.
func newTableReader(r io.Reader, name string, sep rune, cols Columns, g *guard) (*tableReader, error) {
	names, roles := cols.Names, cols.roles()
	file := displayName(name)
	if sep == 0 {
		sep = sepFor(name)
	}
	if sep == '"' || sep == '\r' || sep == '\n' || unicode.IsControl(sep) && sep != '\t' || !utf8.ValidRune(sep) || sep == utf8.RuneError {
		return nil, &InputError{File: file, Msg: fmt.Sprintf("invalid separator %q", sep)}
	}
	text, err := g.text(r)
	if err != nil {
		return nil, &InputError{File: file, Msg: err.Error(), Err: err}
	}
	cr := newRecords(text, sep)
	t := &tableReader{file: file, cr: cr, names: names, roles: roles, cells: make([]string, len(names)), size: inputSize(r)}

	header, err := cr.Read()
	for err == nil && len(header) == 1 && strings.TrimSpace(header[0]) == "" {
		header, err = cr.Read() // a line of white space only
	}
	if err == io.EOF {
		return nil, &InputError{File: file, Msg: fmt.Sprintf("the file is empty; the first line must be a header such as %s", show(strings.Join(names, string(sep))))}
	}
	if err != nil {
		return nil, t.readError(err)
	}
	t.head, _ = cr.FieldPos(0)
	t.width = len(header)
	for i, h := range header {
		if !utf8.ValidString(h) {
			msg := "invalid UTF-8 in the header; the file must be UTF-8 text"
			if i == 0 && strings.HasPrefix(h, "PK\x03\x04") {
				msg = "the file is a zip archive (a spreadsheet?), not delimited text; export it as CSV"
			}
			return nil, &InputError{File: file, Line: t.head, Msg: msg}
		}
		header[i] = strings.TrimSpace(h)
	}
	if cols.More != nil {
		if names, roles, err = cols.more(header); err != nil {
			return nil, &InputError{File: file, Line: t.head, Msg: err.Error(), Err: err}
		}
		t.names, t.roles, t.cells = names, roles, make([]string, len(names))
	}
	t.index = make([]int, len(names))
	var missing []string
	for i, n := range names {
		at, err := findColumn(header, n)
		if err != nil {
			return nil, &InputError{File: file, Line: t.head, Msg: err.Error()}
		}
		if at < 0 {
			missing = append(missing, n)
		}
		t.index[i] = at
	}
	if len(missing) > 0 {
		msg, hint, arg := headerMessage(header, names, missing, sep)
		return nil, &InputError{File: file, Line: t.head, Msg: msg, Hint: hint, Arg: arg}
	}
	for i := range t.index {
		for j := range i {
			if t.index[i] == t.index[j] {
				return nil, &InputError{File: file, Line: t.head, Msg: fmt.Sprintf(
					"the %s and %s columns both match header column %d %s; give distinct column names",
					roles[j], roles[i], t.index[i]+1, show(header[t.index[i]]))}
			}
		}
	}
	return t, nil
}

// next returns the trimmed cells of the wanted columns of the next data row
// and its line, or io.EOF after the last row. The returned slice is reused.
func (t *tableReader) next() ([]string, int, error) {
	for {
		rec, err := t.cr.Read()
		if err == io.EOF {
			return nil, 0, io.EOF
		}
		if err != nil {
			return nil, 0, t.readError(err)
		}
		line, _ := t.cr.FieldPos(0)
		if len(rec) != t.width {
			if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
				continue // a line of white space only
			}
			what := "too few"
			if len(rec) > t.width {
				what = "too many"
			}
			msg := fmt.Sprintf("%s fields: the row has %d, the header has %d", what, len(rec), t.width)
			if len(rec) > t.width {
				msg += "; quote cells that contain the separator"
			}
			return nil, 0, &InputError{File: t.file, Line: line, Msg: msg}
		}
		for i, at := range t.index {
			c := strings.TrimSpace(rec[at])
			if !validCell(c) {
				l, col := t.cr.FieldPos(at)
				if c == "" {
					return nil, 0, &InputError{File: t.file, Line: l, Msg: fmt.Sprintf(
						"empty %s cell (column %d, %s)", t.roles[i], at+1, show(t.names[i]))}
				}
				bad := c[invalidAt(c)]
				return nil, 0, &InputError{File: t.file, Line: l, Msg: fmt.Sprintf(
					"invalid UTF-8 (byte 0x%02X) in the %s cell starting at column %d; the file must be UTF-8 text (convert it, e.g. with iconv -t UTF-8)",
					bad, t.roles[i], col)}
			}
			t.cells[i] = c
		}
		if msg := checkRow(t.cells, t.names, t.roles); msg != "" {
			return nil, 0, &InputError{File: t.file, Line: line, Msg: msg}
		}
		return t.cells, line, nil
	}
}

func (t *tableReader) where(n int) string { return fmt.Sprintf("line %d", n) }

// noRows returns the error for a file without data rows.
func (t *tableReader) noRows() error {
	return &InputError{File: t.file, Msg: fmt.Sprintf("no data rows after the header on line %d", t.head)}
}

// readError translates an error from the CSV reader into an *InputError.
func (t *tableReader) readError(err error) error {
	if e, ok := inputErrorOf(err); ok {
		return e
	}
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		msg := "read error: " + err.Error()
		if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF) {
			msg = "corrupt or truncated compressed file: " + err.Error()
		}
		return &InputError{File: t.file, Msg: msg, Err: err}
	}
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		return &InputError{File: t.file, Line: pe.Line, Err: err, Msg: fmt.Sprintf(
			"stray quote (\") in an unquoted cell at column %d; quote the whole cell and double the quotes inside it", pe.Column)}
	case errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine != pe.Line:
		return &InputError{File: t.file, Line: pe.StartLine, Err: err, Msg: fmt.Sprintf(
			"unbalanced quote: a quoted cell in the row starting on this line does not end properly (reading stopped at line %d, column %d)",
			pe.Line, pe.Column)}
	case errors.Is(pe.Err, csv.ErrQuote):
		return &InputError{File: t.file, Line: pe.Line, Err: err, Msg: fmt.Sprintf(
			"unbalanced quote near column %d: a quoted cell must end with a quote followed by the separator or the line end, and quotes inside it must be doubled",
			pe.Column)}
	}
	return &InputError{File: t.file, Line: pe.Line, Err: err, Msg: pe.Err.Error()}
}

// findColumn returns the position of the header column called name, matching
// exactly or else ignoring case, or -1. Several matches are an error.
func findColumn(header []string, name string) (int, error) {
	for _, fold := range []bool{false, true} {
		at := -1
		for i, h := range header {
			if h == name || fold && strings.EqualFold(h, name) {
				if at >= 0 {
					return 0, fmt.Errorf("column %s appears twice in the header (columns %d and %d)", show(name), at+1, i+1)
				}
				at = i
			}
		}
		if at >= 0 {
			return at, nil
		}
	}
	return -1, nil
}

// headerMessage describes a header without some of the wanted columns and
// suggests a remedy: another separator (HintSeparator) or other column
// names (HintColumns).
func headerMessage(header, names, missing []string, sep rune) (string, Hint, string) {
	var b strings.Builder
	s := "s"
	if len(header) == 1 {
		s = ""
	}
	fmt.Fprintf(&b, "header has %d column%s %s but no %s column", len(header), s, showList(header), showOr(missing))
	raw := strings.Join(header, string(sep))
	for _, c := range []rune{',', '\t', ';', '|', ' '} {
		if c == sep || !strings.ContainsRune(raw, c) {
			continue
		}
		if c == ' ' {
			// A space separates only if it splits out all wanted names.
			f := strings.Fields(raw)
			ok := true
			for _, n := range names {
				if at, err := findColumn(f, n); at < 0 || err != nil {
					ok = false
				}
			}
			if !ok {
				continue
			}
		}
		switch c {
		case '\t':
			b.WriteString("; is the separator a tab?")
		case ' ':
			b.WriteString("; is the separator a space?")
		default:
			fmt.Fprintf(&b, "; is the separator '%c'?", c)
		}
		return b.String(), HintSeparator, string(c)
	}
	if len(missing) == len(names) {
		fmt.Fprintf(&b, "; the first line must be a header naming the columns, such as %s", show(strings.Join(names, string(sep))))
	}
	return b.String(), HintColumns, "column"
}

// textReader returns a reader of the text in r: gzip-compressed input is
// decompressed, and a leading UTF-8 byte order mark is skipped.
func textReader(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if p, _ := br.Peek(2); len(p) == 2 && p[0] == 0x1f && p[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("corrupt compressed file: %w", err)
		}
		zr.Multistream(true)
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

// baseName returns the file name without directory and extensions, such as
// "labels" for "dir/labels.csv.gz".
func baseName(name string) string {
	if name == "" || name == "-" {
		return ""
	}
	b := filepath.Base(name)
	if strings.EqualFold(filepath.Ext(b), ".gz") {
		b = b[:len(b)-3]
	}
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// displayName returns the file name to use in messages.
func displayName(name string) string {
	switch name {
	case "":
		return "<input>"
	case "-":
		return "<stdin>"
	}
	return name
}

func orDefault(s, def string) string {
	if s = strings.TrimSpace(s); s == "" {
		return def
	}
	return s
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
	if len(out) > MaxClasses {
		return nil, fmt.Errorf("the list of classes names %d classes, at most %d are supported", len(out), MaxClasses)
	}
	return out, nil
}

// invalidAt returns the byte offset of the first invalid UTF-8 sequence in s.
func invalidAt(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n <= 1 {
				return i
			}
		}
	}
	return 0
}

// show quotes a string from the input for a one-line message, shortening
// long strings.
func show(s string) string {
	const max = 40
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	for _, r := range s {
		if r == '\'' || !unicode.IsPrint(r) && r != ' ' {
			return strconv.Quote(s)
		}
	}
	return "'" + s + "'"
}

// showList quotes up to ten strings, separated by commas.
func showList(list []string) string {
	var b strings.Builder
	for i, s := range list {
		if i == 10 {
			fmt.Fprintf(&b, ", … (%d more)", len(list)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(show(s))
	}
	return b.String()
}

// showOr quotes strings as "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
func showOr(list []string) string {
	if len(list) == 1 {
		return show(list[0])
	}
	return showList(list[:len(list)-1]) + " or " + show(list[len(list)-1])
}

// listClasses lists class names for messages, shortening long lists.
func listClasses(classes []string) string {
	if len(classes) > 20 {
		return strings.Join(classes[:20], ",") + fmt.Sprintf(",… (%d classes)", len(classes))
	}
	return strings.Join(classes, ",")
}
