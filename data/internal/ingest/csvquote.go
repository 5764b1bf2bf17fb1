package ingest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"unicode"
	"unicode/utf8"
)

// The rule of quotes in delimited text, on every path that reads it: a
// quote opens a quoted cell only at the start of a cell (after the white
// space that TrimLeadingSpace skips); inside an unquoted cell it is an
// ordinary character, as Python's csv module and pandas read it. A quoted
// cell ends with a quote followed by the separator or the line end, and
// quotes inside it are doubled; any other quoted cell is refused with the
// error encoding/csv gives it.
//
// encoding/csv's LazyQuotes reads quotes inside unquoted cells so, but it
// also takes a quoted cell that breaks the rule, so CSVRecords reads with
// LazyQuotes and refuses those cells with quoteCheck, which sees the
// bytes before encoding/csv does.

// CSVRecords is encoding/csv's Reader with LazyQuotes, reading through a
// quoteCheck, with the errors of quoted cells that encoding/csv gives
// without LazyQuotes: the general path of every reader of delimited text
// (NewCSVReader).
type CSVRecords struct {
	*csv.Reader
	check *quoteCheck
}

// Read returns the next record, or the error of its quoted cell.
func (c *CSVRecords) Read() ([]string, error) {
	rec, err := c.Reader.Read()
	if err != nil && errors.Is(err, errBadQuote) {
		return nil, c.check.bad
	}
	return rec, err
}

// NewCSVReader returns encoding/csv's Reader on r with the readers'
// settings (separator sep, any number of fields a record, the record
// reused, leading white space trimmed when trim is set) and the rule of
// quotes above (CSVRecords).
func NewCSVReader(r io.Reader, sep rune, trim bool) *CSVRecords {
	check := newQuoteCheck(r, sep, trim)
	cr := csv.NewReader(check)
	cr.Comma = sep
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = trim
	cr.LazyQuotes = true
	return &CSVRecords{Reader: cr, check: check}
}

// errBadQuote is what a quoteCheck's Read returns at a quoted cell that
// breaks the rule; its bad holds the error.
var errBadQuote = errors.New("quoted cell breaks the rules")

// States of a quoteCheck.
const (
	qField  = iota // at the start of a cell
	qPlain         // in an unquoted cell
	qQuoted        // in a quoted cell
	qClose         // just after a quote in a quoted cell
	qCloseR        // after a quote and a '\r' in a quoted cell
)

// quoteCheck passes the bytes of r on and follows the cells of the
// records in them; at the first quoted cell that breaks the rule it stops
// with errBadQuote before the end of the line, and bad holds the error
// that encoding/csv gives the cell without LazyQuotes.
type quoteCheck struct {
	r     io.Reader
	sep   rune
	trim  bool
	state int
	line  int // current line, from 1
	col   int // bytes of the current line before the next byte
	last  byte
	prev  int // length of the previous line as encoding/csv counts it
	start int // line where the current record starts
	fresh bool
	quote int // column of the quote in state qClose or qCloseR
	part  [utf8.UTFMax]byte
	nPart int // bytes of an incomplete rune carried over
	bad   *csv.ParseError
}

func newQuoteCheck(r io.Reader, sep rune, trim bool) *quoteCheck {
	return &quoteCheck{r: r, sep: sep, trim: trim, line: 1, start: 1, fresh: true}
}

// Read reads from r and checks the bytes read.
func (q *quoteCheck) Read(p []byte) (int, error) {
	if q.bad != nil {
		return 0, errBadQuote
	}
	n, err := q.r.Read(p)
	if k, ok := q.scan(p[:n]); !ok {
		return k, errBadQuote
	}
	if err == io.EOF && !q.end() {
		return n, errBadQuote
	}
	return n, err
}

// scan follows the bytes b and returns false with the bytes before the
// rune that breaks the rule, if one does.
func (q *quoteCheck) scan(b []byte) (int, bool) {
	for i := 0; i < len(b); i++ {
		if q.col == 0 && q.state == qField && q.nPart == 0 {
			// A whole line without quotes at the start of a record
			// holds no quoted cell: it is passed at once. (Its length,
			// prev, matters only for a line inside a quoted cell.)
			if k := bytes.IndexByte(b[i:], '\n'); k > 0 && bytes.IndexByte(b[i:i+k], '"') < 0 {
				q.line, q.fresh = q.line+1, true
				i += k
				continue
			}
		}
		c := b[i]
		if c < utf8.RuneSelf && q.nPart == 0 {
			if !q.step(rune(c), 1) {
				return i, false
			}
			continue
		}
		q.part[q.nPart] = c
		q.nPart++
		// An invalid sequence decodes a byte at a time: the bytes after
		// its first may start runes.
		for q.nPart > 0 && utf8.FullRune(q.part[:q.nPart]) {
			r, size := utf8.DecodeRune(q.part[:q.nPart])
			if !q.step(r, size) {
				return max(0, i+1-q.nPart), false
			}
			copy(q.part[:], q.part[size:q.nPart])
			q.nPart -= size
		}
	}
	return len(b), true
}

// step follows one rune of size bytes and reports false if it breaks the
// rule.
func (q *quoteCheck) step(r rune, size int) bool {
	if q.fresh && r != '\n' {
		q.start, q.fresh = q.line, false
	}
	switch q.state {
	case qField:
		switch {
		case r == '\n':
		case r == '"':
			q.state = qQuoted
		case r == q.sep:
		case q.trim && unicode.IsSpace(r):
		default:
			q.state = qPlain
		}
	case qPlain:
		if r == q.sep {
			q.state = qField
		}
	case qQuoted:
		if r == '"' {
			q.state, q.quote = qClose, q.col+1
		}
	case qClose:
		switch r {
		case '"':
			q.state = qQuoted
		case q.sep:
			q.state = qField
		case '\n':
			q.state = qPlain // ended below
		case '\r':
			q.state = qCloseR
		default:
			q.fail()
			return false
		}
	case qCloseR:
		if r != '\n' {
			q.fail()
			return false
		}
	}
	if r == '\n' {
		q.prev = q.col + 1
		if q.last == '\r' {
			q.prev--
		}
		q.line, q.col, q.last = q.line+1, 0, 0
		if q.state != qQuoted {
			q.state, q.fresh = qField, true
		}
		return true
	}
	q.col += size
	q.last = 0
	if size == 1 {
		q.last = byte(r)
	}
	return true
}

// fail sets bad to encoding/csv's error for text after a closing quote.
func (q *quoteCheck) fail() {
	q.bad = &csv.ParseError{StartLine: q.start, Line: q.line, Column: q.quote, Err: csv.ErrQuote}
}

// end reports whether the input may end here, and sets bad to
// encoding/csv's error for a quoted cell that the end cuts, if not.
func (q *quoteCheck) end() bool {
	for range q.nPart { // an incomplete rune: bytes that are not UTF-8
		if !q.step(utf8.RuneError, 1) {
			return false
		}
	}
	q.nPart = 0
	if q.state != qQuoted {
		return true
	}
	// encoding/csv drops a '\r' that ends the input and names the end of
	// the last line that is not empty.
	line, col := q.line, q.col
	if q.last == '\r' {
		col--
	}
	if col == 0 {
		line, col = line-1, q.prev
	}
	q.bad = &csv.ParseError{StartLine: q.start, Line: line, Column: col + 1, Err: csv.ErrQuote}
	return false
}
