package table

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/parquet-go/parquet-go"
)

// Kind is the type of a column's cells.
type Kind uint8

// The kinds of column.
const (
	// String holds text: a JSON string, a plain Parquet string column.
	String Kind = iota
	// Dict holds text with few distinct values: written as String,
	// except that a Parquet column is dictionary-encoded, so that each
	// distinct value is stored once per row group.
	Dict
	// Float holds float64 numbers: the shortest decimal text that reads
	// back to the same number in CSV and TSV, a JSON number (null if not
	// finite), a Parquet double.
	Float
	// Int holds int64 numbers: decimal text, a JSON number, a Parquet
	// 64-bit integer.
	Int
)

// Column is a named column of a table.
type Column struct {
	Name string
	Kind Kind
}

// FormatFloat formats v as the Writer writes a Float cell in CSV and TSV:
// the shortest decimal text that strconv.ParseFloat reads back to v.
func FormatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// parquetBatch is the number of rows a Writer hands the Parquet writer at
// once.
const parquetBatch = 1024

// ErrArgument is wrapped by the error of NewWriter given no writer, and of
// EndRow and Close on a Writer that NewWriter did not make.
var ErrArgument = errors.New("table: invalid argument")

// errNoWriter is the error of EndRow and Close on the zero Writer.
var errNoWriter = fmt.Errorf("%w: a Writer that NewWriter did not make", ErrArgument)

// Writer writes a table row by row: one call of String, Float, Int or
// FloatText per column, in order, then EndRow; Close ends the table. A
// Writer for CSV or TSV writes the header line at once. A Writer is made
// by NewWriter: the zero value has nowhere to write, and its EndRow and
// Close return an error wrapping ErrArgument.
type Writer struct {
	f    dataio.Format
	cols []Column
	at   int // the next cell of the row

	bw *bufio.Writer // CSV, TSV and JSON Lines

	// line is the text of the row so far (CSV, TSV and JSON Lines).
	line []byte

	// CSV and TSV: the separator
	comma byte

	// JSON Lines
	keys [][]byte

	// Parquet
	pw   *parquet.GenericWriter[any]
	row  parquet.Row
	rows []parquet.Row
}

// NewWriter returns a Writer of a table with the columns cols to w in
// format f: CSV (also for the empty Format), TSV, JSON Lines or Parquet
// (Snappy-compressed, the columns in their order). Column names must be
// distinct, and w not nil.
func NewWriter(w io.Writer, f dataio.Format, cols []Column) (*Writer, error) {
	if w == nil {
		return nil, fmt.Errorf("%w: a table without a writer", ErrArgument)
	}
	seen := make(map[string]bool, len(cols))
	for _, c := range cols {
		if seen[c.Name] {
			return nil, fmt.Errorf("two columns are called %q", c.Name)
		}
		seen[c.Name] = true
	}
	t := &Writer{f: f, cols: cols}
	switch f {
	case dataio.CSV, dataio.TSV, "":
		t.bw = bufio.NewWriterSize(w, 1<<16)
		t.comma = ','
		if f == dataio.TSV {
			t.comma = '\t'
		}
		for _, c := range cols {
			t.String(c.Name)
		}
		if err := t.EndRow(); err != nil {
			return nil, err
		}
	case dataio.JSONL:
		t.bw = bufio.NewWriterSize(w, 1<<16)
		t.keys = make([][]byte, len(cols))
		for i, c := range cols {
			sep := ","
			if i == 0 {
				sep = "{"
			}
			t.keys[i] = append(AppendJSONString([]byte(sep), c.Name), ':')
		}
	case dataio.Parquet:
		t.pw = newParquetWriter(w, cols)
		t.rows = make([]parquet.Row, 0, parquetBatch)
	default:
		return nil, fmt.Errorf("unknown output format %q (valid: csv, tsv, jsonl, parquet)", string(f))
	}
	return t, nil
}

// String writes the next cell, text.
func (t *Writer) String(s string) {
	if t.full() {
		return
	}
	switch {
	case t.comma != 0:
		t.line = appendCSV(t.sep(), s, t.comma)
	case t.keys != nil:
		t.line = AppendJSONString(append(t.line, t.keys[t.at]...), s)
	default:
		t.row = append(t.row, parquet.ByteArrayValue([]byte(s)).Level(0, 0, t.at))
	}
	t.at++
}

// Float writes the next cell, a number of a Float column.
func (t *Writer) Float(v float64) {
	if t.full() {
		return
	}
	switch {
	case t.comma != 0:
		t.line = strconv.AppendFloat(t.sep(), v, 'g', -1, 64)
	case t.keys != nil:
		t.line = AppendJSONNumber(append(t.line, t.keys[t.at]...), v)
	default:
		t.row = append(t.row, parquet.DoubleValue(v).Level(0, 0, t.at))
	}
	t.at++
}

// FloatText writes the next cell of a Float column given as text that
// strconv.ParseFloat reads: as it is in CSV and TSV, as the number it
// reads in JSON Lines and Parquet. Text that is not a number is an error
// naming the column.
func (t *Writer) FloatText(s string) error {
	if t.comma != 0 || t.full() {
		t.String(s)
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("column %s: %w", t.cols[t.at].Name, err)
	}
	t.Float(v)
	return nil
}

// Int writes the next cell, a number of an Int column.
func (t *Writer) Int(v int64) {
	if t.full() {
		return
	}
	switch {
	case t.comma != 0:
		t.line = strconv.AppendInt(t.sep(), v, 10)
	case t.keys != nil:
		t.line = strconv.AppendInt(append(t.line, t.keys[t.at]...), v, 10)
	default:
		t.row = append(t.row, parquet.Int64Value(v).Level(0, 0, t.at))
	}
	t.at++
}

// sep returns the row's text followed by the separator that comes before
// the next CSV or TSV cell, if it is not the first.
func (t *Writer) sep() []byte {
	if t.at == 0 {
		return t.line
	}
	return append(t.line, t.comma)
}

// appendCSV appends the cell s to b as encoding/csv's Writer writes a field
// with the ASCII separator comma: as it is, or, when csvNeedsQuotes, in
// double quotes with each double quote doubled (line ends are kept as they
// are). Numbers never need quotes, so the Writer appends them directly.
func appendCSV(b []byte, s string, comma byte) []byte {
	if !csvNeedsQuotes(s, comma) {
		return append(b, s...)
	}
	b = append(b, '"')
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		b = append(b, s[:i+1]...)
		b = append(b, '"')
		s = s[i+1:]
	}
	b = append(b, s...)
	return append(b, '"')
}

// csvNeedsQuotes reports whether encoding/csv's Writer quotes the field s
// with the ASCII separator comma: s is `\.`, holds a line end, a double
// quote or the separator, or starts with a space (unicode.IsSpace).
func csvNeedsQuotes(s string, comma byte) bool {
	if s == "" {
		return false
	}
	if s == `\.` {
		return true
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\n' || c == '\r' || c == '"' || c == comma {
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// full reports whether the row has all its cells; a cell written then is
// counted for the error of EndRow, not written.
func (t *Writer) full() bool {
	if t.at < len(t.cols) {
		return false
	}
	t.at++
	return true
}

// EndRow ends a row. A row without one cell per column is an error, and
// is dropped.
func (t *Writer) EndRow() error {
	if t.bw == nil && t.pw == nil {
		return errNoWriter
	}
	if t.at != len(t.cols) {
		n := t.at
		t.at, t.line, t.row = 0, t.line[:0], t.row[:0]
		return fmt.Errorf("a row of %d cells in a table of %d columns", n, len(t.cols))
	}
	t.at = 0
	switch {
	case t.comma != 0:
		t.line = append(t.line, '\n')
		_, err := t.bw.Write(t.line)
		t.line = t.line[:0]
		return err
	case t.keys != nil:
		if len(t.cols) == 0 {
			t.line = append(t.line, '{')
		}
		t.line = append(t.line, "}\n"...)
		_, err := t.bw.Write(t.line)
		t.line = t.line[:0]
		return err
	}
	t.rows = append(t.rows, t.row)
	t.row = make(parquet.Row, 0, len(t.cols))
	if len(t.rows) == cap(t.rows) {
		return t.flushRows()
	}
	return nil
}

// flushRows hands the buffered Parquet rows to the Parquet writer.
func (t *Writer) flushRows() error {
	_, err := t.pw.WriteRows(t.rows)
	t.rows = t.rows[:0]
	return err
}

// Close writes what is buffered and ends the table (for Parquet, its
// footer). It does not close the underlying writer.
func (t *Writer) Close() error {
	if t.bw == nil && t.pw == nil {
		return errNoWriter
	}
	switch {
	case t.bw != nil:
		return t.bw.Flush()
	}
	if err := t.flushRows(); err != nil {
		return err
	}
	return t.pw.Close()
}

// Encoder returns the function that writes to path, for an atomic writer
// such as output.WriteFiles: write in format f, or if f is empty in the
// format of the path's extension (dataio.FormatOf), gzip-compressed when the
// path ends in ".gz".
func Encoder(path string, f dataio.Format, write func(io.Writer, dataio.Format) error) func(io.Writer) error {
	if f == "" {
		f = dataio.FormatOf(path)
	}
	if !strings.HasSuffix(strings.ToLower(path), ".gz") {
		return func(w io.Writer) error { return write(w, f) }
	}
	return func(w io.Writer) error {
		zw := gzip.NewWriter(w)
		if err := write(zw, f); err != nil {
			return err
		}
		return zw.Close()
	}
}

// AppendJSONNumber appends v in its shortest round-tripping form, or null
// if v is not finite (JSON has no NaN or infinity).
func AppendJSONNumber(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// AppendJSONString appends s as a JSON string. Invalid UTF-8 becomes
// U+FFFD.
func AppendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, `\u202`...)
			b = append(b, hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
