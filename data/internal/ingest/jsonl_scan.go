package ingest

import (
	"bytes"
	"unicode/utf8"
)

// JSONLScan is the fast path of the JSON Lines reader: one pass over the
// bytes of a line that accepts the valid records, in which every key is a
// string without escapes, every wanted value a string, a number, true or
// false and every other value any JSON value. Strings may hold escapes,
// which it decodes as encoding/json does (appendJSONText). It reports false
// for anything else (invalid UTF-8, an invalid escape, an escaped
// surrogate that is not half of a pair in a wanted value, an object,
// array or null as a wanted value, white space other than JSON's, a wanted
// key given twice or a key equal to a wanted one ignoring case and space,
// values nested deeper than maxNested, invalid JSON), and the general
// reader (encoding/json) then reads the line and says what is wrong.
// Whenever it accepts a line, the general reader would accept it with the
// same cells (TestJSONLScan, TestJSONLFastPath and FuzzReadLabels check
// it). A record with the layout of the last one it read in full takes a
// shortcut (SameLayout) to the same cells.
type JSONLScan struct {
	got []bool     // per wanted key: seen in this record
	at  [][2]int32 // per wanted key: the bounds of its value in the line
	// vals are the record's string and number values, wanted or not, in
	// its order; bools, whether a wanted value is true or false.
	vals  []layoutCut
	bools bool

	// layout is the last record that the full scan read with no wanted
	// value true or false, whose layout, the text around its string and
	// number values, the next records likely share (sameLayout); nil for
	// none.
	layout []byte
	// cuts are its string and number values in the order of the record.
	cuts []layoutCut
	// missed is whether the last record the scan read did not have the
	// layout.
	missed bool

	// text holds the decoded wanted values that have escapes; esc says,
	// per wanted key, whether its bounds in at are in text rather than in
	// the line, and escaped whether any is; raw holds the bounds in the
	// line of such a value's text as it stands, escapes undecoded.
	text    []byte
	esc     []bool
	escaped bool
	raw     [][2]int32
}

// layoutCut is a string or number value of a record: its bounds (a
// string's text without its quotes, not trimmed), the wanted key it is
// the value of, or -1, and its first byte (a quote for a string).
type layoutCut struct {
	at   [2]int32
	key  int
	kind byte
}

// Parse reads the wanted values of the trimmed line into cells and
// reports true, or reports false (leaving cells partly written). Cells
// without escapes point into line: they are valid until line is changed,
// and a caller that keeps one copies it (the Builder's interns do); cells
// with escapes are new strings.
func (s *JSONLScan) Parse(line []byte, names, cells []string) bool {
	if !s.spans(line, names) {
		return false
	}
	for k, at := range s.at {
		if s.escaped && s.esc[k] {
			cells[k] = string(s.text[at[0]:at[1]])
			continue
		}
		cells[k] = BytesString(line[at[0]:at[1]])
	}
	return true
}

// spans finds the wanted values of the trimmed line as parse does and
// reports true with their bounds in line in s.at, or reports false. A
// line with the layout of the last one it read in full takes
// sameLayout's shortcut; any other, the full scan (scan).
func (s *JSONLScan) spans(line []byte, names []string) bool {
	if len(s.got) != len(names) {
		w := len(names)
		s.got, s.at, s.esc, s.raw = make([]bool, w), make([][2]int32, w), make([]bool, w), make([][2]int32, w)
		s.layout = nil
	}
	if s.escaped {
		clear(s.esc)
		s.escaped = false
	}
	if s.SameLayout(line) {
		s.missed = false
		return true
	}
	if !s.scan(line, names) {
		return false
	}
	// This record's layout for the next ones, if there is none or the
	// record before did not have it either: records of two layouts in
	// turn then keep one of them rather than copy each.
	if s.layout != nil && !s.missed {
		s.missed = true
		return true
	}
	s.layout, s.cuts, s.missed = append(s.layout[:0], line...), append(s.cuts[:0], s.vals...), false
	if s.bools {
		s.layout = nil
	}
	return true
}

// SameLayout reports whether line has the layout of s.layout, the same
// bytes around its string and number values, each of which is again a
// string that scanAnyString takes (a cell, if wanted: s.cell), or a
// number, and if so sets s.at (and s.text and s.esc for wanted strings
// with escapes). The full scan would then read line as it
// read s.layout, token for token, with the same keys and the values here:
// a string's text does not change how the rest of the line is read, and a
// number ends where scanJSONNumber ends it, before what follows it in both
// lines.
func (s *JSONLScan) SameLayout(line []byte) bool {
	if s.layout == nil {
		return false
	}
	s.text = s.text[:0]
	pos, prev := 0, 0 // where line and s.layout go on
	for _, cut := range s.cuts {
		k := cut.key
		lit := s.layout[prev:cut.at[0]]
		if len(line)-pos < len(lit) || string(line[pos:pos+len(lit)]) != string(lit) {
			return false
		}
		pos += len(lit)
		if cut.kind == '"' {
			// lit ends with the string's opening quote.
			a, z, ok := scanJSONString(line, pos-1) // inlined: the common case
			esc := false
			if !ok {
				if a, z, esc, ok = scanAnyString(line, pos-1); !ok {
					return false
				}
			}
			pos = z
			if k >= 0 {
				if !esc && untrimmed(line, a, z) {
					s.at[k] = [2]int32{int32(a), int32(z)} // as JSONCell gives it
				} else if !s.cell(line, k, '"', a, z, esc) {
					return false
				}
			}
		} else {
			end := scanJSONNumber(line, pos)
			if end < 0 {
				return false
			}
			if k >= 0 {
				s.at[k] = [2]int32{int32(pos), int32(end)}
			}
			pos = end
		}
		prev = int(cut.at[1])
	}
	return string(line[pos:]) == string(s.layout[prev:])
}

// scan is spans' full scan of a line, which also sets s.vals and s.bools.
func (s *JSONLScan) scan(line []byte, names []string) bool {
	clear(s.got)
	s.vals, s.bools, s.text = s.vals[:0], false, s.text[:0]
	if s.escaped {
		// From a SameLayout that failed after a wanted value.
		clear(s.esc)
		s.escaped = false
	}
	n := len(line)
	if n < 2 || line[0] != '{' {
		return false
	}
	i := skipJSONSpace(line, 1)
	if i < n && line[i] == '}' {
		return false // no keys: a wanted one is missing
	}
	for {
		// A key.
		if i >= n || line[i] != '"' {
			return false
		}
		a, z, ok := scanJSONString(line, i)
		if !ok {
			if a, z, ok = scanJSONText(line, i); !ok {
				return false
			}
		}
		key := line[a:z]
		want := -1
		for k, name := range names {
			if string(key) == name {
				want = k
				break
			}
		}
		if want < 0 {
			t := bytes.TrimSpace(key)
			for _, name := range names {
				if bytes.EqualFold(t, []byte(name)) {
					return false
				}
			}
		} else if s.got[want] {
			return false
		}
		i = skipJSONSpace(line, z+1)
		if i >= n || line[i] != ':' {
			return false
		}
		i = skipJSONSpace(line, i+1)
		if i >= n {
			return false
		}
		// A value: [va, vz) is its text, or a string's text without quotes.
		var va, vz int
		str, esc := false, false
		first := line[i]
		switch c := first; {
		case c == '"':
			if va, vz, esc, ok = scanAnyString(line, i); !ok {
				return false
			}
			str, i = true, vz+1
		case c == '-' || c >= '0' && c <= '9':
			va, i = i, scanJSONNumber(line, i)
			if i < 0 {
				return false
			}
			vz = i
		case c == 't' && bytes.HasPrefix(line[i:], []byte("true")):
			va, i = i, i+4
			vz = i
		case c == 'f' && bytes.HasPrefix(line[i:], []byte("false")):
			va, i = i, i+5
			vz = i
		case c == 'n' && want < 0 && bytes.HasPrefix(line[i:], []byte("null")):
			i += 4
		case (c == '{' || c == '[') && want < 0:
			if i = skipJSONNested(line, i, 0); i < 0 {
				return false
			}
		default:
			return false // an object, an array, a null wanted value or invalid JSON
		}
		// What follows a value: a comma and a key, or the end of the object.
		i = skipJSONSpace(line, i)
		if i >= n {
			return false
		}
		end := line[i] == '}'
		if !end && line[i] != ',' {
			return false
		}
		switch {
		case str || first == '-' || first >= '0' && first <= '9':
			s.vals = append(s.vals, layoutCut{at: [2]int32{int32(va), int32(vz)}, key: want, kind: first})
		case want >= 0: // true or false
			s.bools = true
		}
		if want >= 0 {
			if !esc && untrimmed(line, va, vz) {
				s.at[want] = [2]int32{int32(va), int32(vz)} // as JSONCell gives it
			} else if !s.cell(line, want, first, va, vz, esc) {
				return false
			}
			s.got[want] = true
		}
		if end {
			if i != n-1 {
				return false
			}
			break
		}
		i = skipJSONSpace(line, i+1)
	}
	for _, g := range s.got {
		if !g {
			return false
		}
	}
	return true
}

// cell applies JSONCell to the wanted value k of the line, of the kind
// first, at line[a:z] (a string's text without its quotes, escapes
// undecoded if esc), and reports true with the cell's bounds in s.at[k]:
// in line, or in s.text for a string with escapes, which cell decodes
// there (appendJSONText). It reports false if the value gives no cell.
func (s *JSONLScan) cell(line []byte, k int, first byte, a, z int, esc bool) bool {
	text := line[a:z]
	if esc {
		start := len(s.text)
		var ok bool
		if s.text, ok = appendJSONText(s.text, text); !ok {
			return false
		}
		s.raw[k] = [2]int32{int32(a), int32(z)}
		text, a = s.text[start:], start
		s.esc[k], s.escaped = true, true
	}
	ca, cz, ok := JSONCell(first, text)
	if !ok {
		return false
	}
	s.at[k] = [2]int32{int32(a + ca), int32(a + cz)}
	return true
}

// untrimmed reports whether line[a:z] is not empty and begins and ends
// with ASCII that is not white space: JSONCell then gives it whole, as a
// string or a number (true and false too), so that the scan need not call
// it. Short enough to be inlined.
func untrimmed(line []byte, a, z int) bool {
	return a < z && line[a] > ' ' && line[a] < utf8.RuneSelf && line[z-1] > ' ' && line[z-1] < utf8.RuneSelf
}

// scanAnyString reads the string that starts with the quote at line[i]
// with scanJSONString, or failing that scanJSONText, or failing that
// scanJSONEscaped, and returns the bounds of its text as it stands in line
// and whether it has escapes.
func scanAnyString(line []byte, i int) (a, z int, esc, ok bool) {
	if a, z, ok = scanJSONString(line, i); ok {
		return a, z, false, true
	}
	if a, z, ok = scanJSONText(line, i); ok {
		return a, z, false, true
	}
	a, z, ok = scanJSONEscaped(line, i)
	return a, z, ok, ok
}

// skipJSONSpace returns the position of the first byte of line from i on
// that is not JSON white space, or len(line).
func skipJSONSpace(line []byte, i int) int {
	for i < len(line) {
		switch line[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// scanJSONString reads the string that starts with the quote at line[i]
// and returns the bounds of its text, or false if it has an escape, a
// control character or a byte that is not ASCII, or is not closed: the
// common case, short enough to be inlined. scanJSONText reads the strings
// that are not ASCII.
func scanJSONString(line []byte, i int) (a, z int, ok bool) {
	a = i + 1
	for z = a; z < len(line); z++ {
		switch c := line[z]; {
		case c == '"':
			return a, z, true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// scanJSONText reads the string that starts with the quote at line[i] as
// scanJSONString does, and also takes one that is valid UTF-8 but not
// ASCII. The scan's callers try scanJSONString first.
func scanJSONText(line []byte, i int) (a, z int, ok bool) {
	a = i + 1
	for z = a; z < len(line); z++ {
		switch c := line[z]; {
		case c == '"':
			return a, z, utf8.Valid(line[a:z])
		case c == '\\' || c < 0x20:
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// scanJSONNumber reads the number that starts at line[i], with JSON's
// grammar, and returns the position after it, or -1 if it is not a valid
// number followed by a delimiter.
func scanJSONNumber(line []byte, i int) int {
	n := len(line)
	if line[i] == '-' {
		i++
	}
	switch {
	case i < n && line[i] == '0':
		i++
	case i < n && line[i] >= '1' && line[i] <= '9':
		i = skipDigits(line, i)
	default:
		return -1
	}
	if i < n && line[i] == '.' {
		j := skipDigits(line, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < n && (line[i] == 'e' || line[i] == 'E') {
		i++
		if i < n && (line[i] == '+' || line[i] == '-') {
			i++
		}
		j := skipDigits(line, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// skipDigits returns the position of the first byte of line from i on that
// is not a decimal digit, or len(line).
func skipDigits(line []byte, i int) int {
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	return i
}

// NewJSONLChunkParser returns a parser of JSON Lines records with the
// wanted keys names (task, worker and label).
func NewJSONLChunkParser(names []string) *ChunkParser {
	p := &ChunkParser{json: &JSONLScan{}, names: names, own: make([][2]int32, len(names))}
	p.cells = p.own
	return p
}

// jsonLine splits the record at data[pos] as splitLine splits a CSV line:
// the line, trimmed as the record-by-record reader trims it, is blank, or
// plain with the bounds of its wanted values in p.cells if the scan reads
// it, or odd, for the record-by-record reader. A wanted value with escapes
// is decoded over its text in data (decodeInPlace) while the parser logs
// its edits; without a log, its record is odd.
func (p *ChunkParser) jsonLine(data []byte, pos int) (next, kind int) {
	end, next := lineEnd(data, pos)
	raw := data[pos:end]
	line := bytes.TrimSpace(raw)
	if len(line) == 0 {
		return next, LineBlank
	}
	if !p.json.spans(line, p.names) || p.json.escaped && !p.decodeInPlace(line, pos+cap(raw)-cap(line)) {
		return next, LineOdd
	}
	// line is raw[off:off+len(line)], and its capacity that of raw less
	// off.
	off := int32(pos + cap(raw) - cap(line))
	for k, at := range p.json.at {
		p.cells[k] = [2]int32{off + at[0], off + at[1]}
	}
	return next, LinePlain
}
