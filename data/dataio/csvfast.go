package dataio

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"unicode"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// records is the source of a tableReader's header, and of its rows once
// they go to encoding/csv: a *csv.Reader, or a csvLines, which returns the
// same records, field positions and errors.
type records interface {
	// Read returns the fields of the next record, or an error as
	// encoding/csv's Reader.Read does. The slice is reused.
	Read() ([]string, error)
	// FieldPos returns the line and column of a field of the record
	// returned last, as encoding/csv's Reader.FieldPos does.
	FieldPos(field int) (line, column int)
}

// useFastCSV selects the line path of the delimited text readers (csvLines
// and the parallel blocks); the differential tests turn it off to compare
// it with encoding/csv alone.
var useFastCSV = true

// newRecords returns the record source of delimited text: encoding/csv's
// Reader configured as the readers need it, or, if useFastCSV is set, a
// csvLines with the same results.
func newRecords(text io.Reader, sep rune) records {
	trim := !unicode.IsSpace(sep)
	if !useFastCSV {
		return ingest.NewCSVReader(text, sep, trim)
	}
	return &csvLines{r: text, sep: sep, trim: trim, buf: make([]byte, 0, fastBlock)}
}

// fastBlock is the size of the blocks in which csvLines reads its input.
const fastBlock = 256 << 10

// csvLines reads delimited text a line at a time, with encoding/csv as its
// general path. A record it returns (the header) is the one encoding/csv
// reads from its line alone. Once split is set (after the header), next
// gives the wanted cells of the data lines with the tokenizer of package
// ingest, the one that the parallel blocks use (ChunkParser.SplitLine), so
// that both paths take the same cells by construction. At the first line
// that the tokenizer leaves to encoding/csv (a quote it does not take, a
// wrong number of fields, an empty or invalid wanted cell), or that
// encoding/csv does not read as one record of one line, the rest of the
// input from that line on goes to encoding/csv, with the line numbers of
// its positions and errors shifted, so that records, positions and errors
// are always those of encoding/csv.
type csvLines struct {
	r     io.Reader
	sep   rune
	trim  bool   // TrimLeadingSpace
	buf   []byte // input; buf[pos:] is not read yet
	pos   int
	err   error // the error that ended the input, once it has
	line  int   // physical lines read
	rec   []string
	cols  []int               // 1-based column of each field of rec
	split *ingest.ChunkParser // the tokenizer of the data lines, once set
	slow  *ingest.CSVRecords
	base  int // lines before the slow reader's first line
	limit int // the longest line the input gives (the guard's lineLimit)
}

// Read returns the next record as encoding/csv's Reader.Read would.
func (f *csvLines) Read() ([]string, error) {
	if f.slow != nil {
		rec, err := f.slow.Read()
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			pe.StartLine += f.base
			pe.Line += f.base
		}
		return rec, err
	}
	for {
		raw, err := f.readLine()
		if raw == nil {
			return nil, err
		}
		if err != nil && bytes.IndexByte(raw, '"') < 0 {
			return nil, err // no quote: encoding/csv returns the read error
		}
		if err == nil && emptyLine(raw) {
			f.line++
			continue // encoding/csv skips it
		}
		if err == nil && f.oneLine(raw) {
			return f.rec, nil
		}
		f.handOver(raw)
		return f.Read()
	}
}

// emptyLine reports whether raw, a line from readLine, is empty but for
// its line end ("\n", "\r\n", or a "\r" that ends the input).
func emptyLine(raw []byte) bool {
	n := len(raw)
	if n > 0 && raw[n-1] == '\n' {
		n--
	}
	if n > 0 && raw[n-1] == '\r' {
		n--
	}
	return n == 0
}

// next reads the next data line with split and sets cells (one per wanted
// column) to its wanted cells, which point into the input buffer and are
// valid until the next call, and returns its line. It skips blank lines,
// and returns io.EOF at the end and a read error as encoding/csv would
// return it. It reports false when the rest of the input, from the line
// on, has gone to encoding/csv: the caller then reads records with Read.
func (f *csvLines) next(cells []string) (int, bool, error) {
	for {
		raw, err := f.readLine()
		if raw == nil {
			return 0, true, err
		}
		if err != nil {
			if bytes.IndexByte(raw, '"') < 0 {
				return 0, true, err // no quote: encoding/csv returns the read error
			}
			f.handOver(raw)
			return 0, false, nil
		}
		switch _, kind := f.split.SplitLine(raw, 0); kind {
		case ingest.LineBlank:
			f.line++
			continue
		case ingest.LineOdd:
			f.handOver(raw)
			return 0, false, nil
		}
		f.line++
		for j, c := range f.split.Cells() {
			cells[j] = ingest.BytesString(raw[c[0]:c[1]])
		}
		return f.line, true, nil
	}
}

// readLine returns the next physical line with its '\n', the last line
// without it, or nil and io.EOF at the end. A read error other than io.EOF
// comes with the text before it, which is nil if there is none.
func (f *csvLines) readLine() ([]byte, error) {
	for {
		if i := bytes.IndexByte(f.buf[f.pos:], '\n'); i >= 0 {
			raw := f.buf[f.pos : f.pos+i+1]
			f.pos += i + 1
			return raw, nil
		}
		if f.err != nil {
			raw := f.buf[f.pos:]
			f.pos = len(f.buf)
			if len(raw) == 0 {
				raw = nil
			} else if f.err == io.EOF {
				return raw, nil
			}
			return raw, f.err
		}
		f.fill()
	}
}

// fill reads more input into buf, keeping its unread part.
func (f *csvLines) fill() {
	n := copy(f.buf, f.buf[f.pos:])
	f.buf, f.pos = f.buf[:n], 0
	if n == cap(f.buf) {
		f.buf = ingest.GrowLine(f.buf, fastBlock, f.limit+fastBlock)
	}
	for m := 0; m == 0 && f.err == nil; {
		m, f.err = f.r.Read(f.buf[n:cap(f.buf)])
		f.buf = f.buf[:n+m]
	}
}

// oneLine reads raw, a line that is not empty, with encoding/csv: if it
// reads one record that ends with the line, that record is the next, with
// its fields copied, and csvLines goes on with the next line; otherwise (a
// quoted field that goes on over the next line, or an error) it reports
// false, and the input goes to encoding/csv from raw on.
func (f *csvLines) oneLine(raw []byte) bool {
	cr := ingest.NewCSVReader(bytes.NewReader(raw), f.sep, f.trim)
	rec, err := cr.Read()
	if err != nil {
		return false
	}
	f.rec, f.cols = f.rec[:0], f.cols[:0]
	for i, field := range rec {
		_, col := cr.FieldPos(i)
		f.rec = append(f.rec, strings.Clone(field))
		f.cols = append(f.cols, col)
	}
	if _, err := cr.Read(); err != io.EOF {
		return false
	}
	f.line++
	return true
}

// handOver passes the input from raw, a line just returned by readLine,
// to encoding/csv.
func (f *csvLines) handOver(raw []byte) {
	rest := make([]byte, 0, len(raw)+len(f.buf)-f.pos)
	rest = append(append(rest, raw...), f.buf[f.pos:]...)
	tail := f.r
	if f.err != nil {
		tail = ingest.ErrReader{Err: f.err}
	}
	f.slow = ingest.NewCSVReader(io.MultiReader(bytes.NewReader(rest), tail), f.sep, f.trim)
	f.base = f.line
	f.buf, f.pos = nil, 0
}

// FieldPos returns the line and column of a field of the last record.
func (f *csvLines) FieldPos(field int) (line, column int) {
	if f.slow != nil {
		line, column = f.slow.FieldPos(field)
		return line + f.base, column
	}
	if field < 0 || field >= len(f.cols) {
		panic("out of range index passed to FieldPos")
	}
	return f.line, f.cols[field]
}
