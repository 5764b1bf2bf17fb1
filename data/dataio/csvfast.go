package dataio

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// records is the source of a tableReader's rows: a *csv.Reader, or a
// fastCSV, which returns the same records, field positions and errors.
type records interface {
	// Read returns the fields of the next record, or an error as
	// encoding/csv's Reader.Read does. The slice is reused.
	Read() ([]string, error)
	// FieldPos returns the line and column of a field of the record
	// returned last, as encoding/csv's Reader.FieldPos does.
	FieldPos(field int) (line, column int)
}

// useFastCSV selects the fast path of the delimited text readers; the
// differential tests turn it off to compare it with encoding/csv alone.
var useFastCSV = true

// newRecords returns the record source of delimited text: encoding/csv's
// Reader configured as the readers need it, or, if useFastCSV is set, a
// fastCSV with the same results.
func newRecords(text io.Reader, sep rune) records {
	trim := !unicode.IsSpace(sep)
	if !useFastCSV {
		return newCSVReader(text, sep, trim)
	}
	return &fastCSV{r: text, sep: sep, trim: trim, buf: make([]byte, 0, fastBlock)}
}

// newCSVReader returns encoding/csv's Reader with the readers' settings.
func newCSVReader(r io.Reader, sep rune, trim bool) *csv.Reader {
	cr := csv.NewReader(r)
	cr.Comma = sep
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = trim
	return cr
}

// fastBlock is the size of the blocks in which fastCSV reads its input.
const fastBlock = 256 << 10

// fastCSV reads delimited text as encoding/csv's Reader does with the
// settings of newCSVReader, but splits lines itself as long as they hold no
// quote, which is the common case and several times faster. At the first
// line with a quote it hands the rest of the input, from that line on, to
// encoding/csv, shifting the line numbers of its positions and errors, so
// that records, positions and errors are always those of encoding/csv.
//
// The fields of the first record are copies; those of the later records
// point into the input buffer and are valid only until the next Read.
type fastCSV struct {
	r     io.Reader
	sep   rune
	trim  bool   // TrimLeadingSpace
	buf   []byte // input; buf[pos:] is not read yet
	pos   int
	err   error // the error that ended the input, once it has
	line  int   // physical lines read
	first bool  // a record other than white space has been returned
	rec   []string
	cols  []int // 1-based column of each field of rec
	slow  *csv.Reader
	base  int // lines before the slow reader's first line
}

// Read returns the next record as encoding/csv's Reader.Read would.
func (f *fastCSV) Read() ([]string, error) {
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
		if bytes.IndexByte(raw, '"') >= 0 {
			if !f.first && err == nil && f.quotedHeader(raw) {
				return f.rec, nil
			}
			f.handOver(raw)
			return f.Read()
		}
		if err != nil {
			return nil, err // no quote: encoding/csv returns the read error
		}
		f.line++
		line := raw
		if n := len(line); n > 0 && line[n-1] == '\n' {
			if n >= 2 && line[n-2] == '\r' { // \r\n becomes \n
				line[n-2] = '\n'
				line = line[:n-1]
			}
			if len(line) == 1 {
				continue // an empty line
			}
		} else if n > 0 && line[n-1] == '\r' { // the last line
			line = line[:n-1]
		}
		if len(line) == 0 {
			continue
		}
		f.split(line)
		if len(f.rec) > 1 || len(bytes.TrimSpace(line)) > 0 {
			f.first = true // the header, which is kept: later fields are views
		}
		return f.rec, nil
	}
}

// readLine returns the next physical line with its '\n', the last line
// without it, or nil and io.EOF at the end. A read error other than io.EOF
// comes with the text before it, which is nil if there is none.
func (f *fastCSV) readLine() ([]byte, error) {
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
func (f *fastCSV) fill() {
	n := copy(f.buf, f.buf[f.pos:])
	f.buf, f.pos = f.buf[:n], 0
	if n == cap(f.buf) {
		f.buf = append(f.buf, make([]byte, cap(f.buf))...)[:n]
	}
	for m := 0; m == 0 && f.err == nil; {
		m, f.err = f.r.Read(f.buf[n:cap(f.buf)])
		f.buf = f.buf[:n+m]
	}
}

// quotedHeader reads raw, the first line that is not empty, when it has a
// quote, as the header that spreadsheets and R write ("task","worker",
// "label"): if encoding/csv reads it as one record that ends with the
// line, that record is the first, and fastCSV goes on with the next line;
// otherwise (a quoted field that goes on over the next line, or an error)
// it reports false, and the input goes to encoding/csv from raw on.
func (f *fastCSV) quotedHeader(raw []byte) bool {
	cr := newCSVReader(bytes.NewReader(raw), f.sep, f.trim)
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
	f.first = true
	return true
}

// handOver passes the input from raw, a line just returned by readLine,
// to encoding/csv.
func (f *fastCSV) handOver(raw []byte) {
	rest := make([]byte, 0, len(raw)+len(f.buf)-f.pos)
	rest = append(append(rest, raw...), f.buf[f.pos:]...)
	tail := f.r
	if f.err != nil {
		tail = ingest.ErrReader{Err: f.err}
	}
	f.slow = newCSVReader(io.MultiReader(bytes.NewReader(rest), tail), f.sep, f.trim)
	f.base = f.line
	f.buf, f.pos = nil, 0
}

// split sets rec and cols to the fields of line, a line without quotes
// that ends in '\n' unless it is the last, as encoding/csv splits it.
func (f *fastCSV) split(line []byte) {
	f.rec, f.cols = f.rec[:0], f.cols[:0]
	col := 1
	for {
		if f.trim {
			i := 0
			if len(line) == 0 || line[0] >= utf8.RuneSelf || ingest.ASCIISpace[line[0]] {
				i = bytes.IndexFunc(line, notSpace)
				if i < 0 {
					i = len(line)
					col -= lengthNL(line)
				}
			}
			line = line[i:]
			col += i
		}
		var i int
		if f.sep < utf8.RuneSelf {
			i = bytes.IndexByte(line, byte(f.sep))
		} else {
			i = bytes.IndexRune(line, f.sep)
		}
		field := line
		if i >= 0 {
			field = field[:i]
		} else {
			field = field[:len(field)-lengthNL(field)]
		}
		f.rec = append(f.rec, f.text(field))
		f.cols = append(f.cols, col)
		if i < 0 {
			return
		}
		n := i + utf8.RuneLen(f.sep)
		line = line[n:]
		col += n
	}
}

// text returns b as a string: a copy up to the first record that is not
// white space only (the header), a view of the buffer after it.
func (f *fastCSV) text(b []byte) string {
	if !f.first {
		return string(b)
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// FieldPos returns the line and column of a field of the last record.
func (f *fastCSV) FieldPos(field int) (line, column int) {
	if f.slow != nil {
		line, column = f.slow.FieldPos(field)
		return line + f.base, column
	}
	if field < 0 || field >= len(f.cols) {
		panic("out of range index passed to FieldPos")
	}
	return f.line, f.cols[field]
}

func notSpace(r rune) bool { return !unicode.IsSpace(r) }

// lengthNL returns 1 if b ends in '\n', 0 otherwise.
func lengthNL(b []byte) int {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return 1
	}
	return 0
}
