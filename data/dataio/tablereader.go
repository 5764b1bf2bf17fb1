package dataio

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// tableReader reads the rows of a delimited text file with a header line and
// returns the trimmed cells of the wanted columns.
type tableReader struct {
	file   string
	cr     records           // encoding/csv's Reader or a csvLines
	lines  *csvLines         // cr, if it is a csvLines that splits the data lines
	names  []string          // wanted column names
	roles  []string          // what each wanted column holds, for messages
	index  []int             // position of each wanted column in a row
	width  int               // number of fields of the header
	header *ingest.HeaderSet // the header's names
	head   int               // line of the header
	cells  []string          // reused result of next
	size   int64             // the input's size in bytes, if it is a file; else 0
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
	if g != nil && sep < utf8.RuneSelf {
		g.sep = byte(sep) // the line limit counts the fields
	}
	text, err := g.text(r)
	if err != nil {
		return nil, &InputError{File: file, Msg: err.Error(), Err: err}
	}
	cr := newRecords(text, sep)
	if f, ok := cr.(*csvLines); ok {
		f.limit = g.lineLimit()
	}
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
	t.header = ingest.NewHeaderSet(header)
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
	if f, ok := cr.(*csvLines); ok && f.slow == nil && sep < utf8.RuneSelf && len(t.index) <= ingest.MaxWanted {
		f.split = ingest.NewChunkParser(byte(sep), f.trim, t.width, t.index)
		t.lines = f
	}
	return t, nil
}

// next returns the trimmed cells of the wanted columns of the next data row
// and its line, or io.EOF after the last row. The returned slice is reused.
func (t *tableReader) next() ([]string, int, error) {
	if t.lines != nil && t.lines.slow == nil {
		line, ok, err := t.lines.next(t.cells)
		if err == io.EOF {
			return nil, 0, io.EOF
		}
		if err != nil {
			return nil, 0, t.readError(err)
		}
		if ok {
			if msg := checkRow(t.cells, t.header, t.roles); msg != "" {
				return nil, 0, &InputError{File: t.file, Line: line, Msg: msg}
			}
			return t.cells, line, nil
		}
	}
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
		if msg := checkRow(t.cells, t.header, t.roles); msg != "" {
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
	if strings.Contains(raw, "\r") {
		// A carriage return inside the header's cells: lines that end with
		// \r alone (old Mac line ends) run into one. No column name helps.
		b.WriteString("; the lines end with a carriage return alone (\\r, old Mac line ends), which ends no line: convert them to \\n or \\r\\n")
		return b.String(), NoHint, ""
	}
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
