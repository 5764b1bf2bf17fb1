package data

import "bytes"

// jsonlScan is the first tier of the JSON Lines reader: one pass over the
// bytes of a line that accepts only the plainest records, ASCII text
// without escapes, in which every key is a string, every wanted value a
// string, a number, true or false and every other value one of those or
// null. It reports false for anything else (a non-ASCII byte, a backslash,
// a nested object or array, white space other than JSON's, a wanted key
// given twice or a key equal to a wanted one ignoring case and space,
// invalid JSON), and jsonlFast then reads the line. Whenever it accepts a
// line, jsonlFast would accept it with the same cells (TestJSONLFastPath
// and FuzzReadLabels check it).
type jsonlScan struct {
	got []bool     // per wanted key: seen in this record
	at  [][2]int32 // per wanted key: the bounds of its value in the line
}

// parse reads the wanted values of the trimmed line into cells, as
// jsonlFast.parse does, and reports true, or reports false (leaving cells
// partly written). Cells point into line.
func (s *jsonlScan) parse(line []byte, names, cells []string) bool {
	if !s.spans(line, names) {
		return false
	}
	for k, at := range s.at {
		cells[k] = bytesString(line[at[0]:at[1]])
	}
	return true
}

// spans finds the wanted values of the trimmed line as parse does and
// reports true with their bounds in line in s.at, or reports false.
func (s *jsonlScan) spans(line []byte, names []string) bool {
	if len(s.got) != len(names) {
		s.got, s.at = make([]bool, len(names)), make([][2]int32, len(names))
	}
	clear(s.got)
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
			return false
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
		str := false
		switch c := line[i]; {
		case c == '"':
			va, vz, ok = scanJSONString(line, i)
			if !ok {
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
		if want >= 0 {
			if str {
				// Trimmed as bytes.TrimSpace trims it: of its white
				// space, a string that scanJSONString takes can hold
				// only ' ' (the others are control characters).
				for va < vz && line[va] == ' ' {
					va++
				}
				for vz > va && line[vz-1] == ' ' {
					vz--
				}
				if va == vz {
					return false
				}
			}
			s.at[want] = [2]int32{int32(va), int32(vz)}
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
// control character or a non-ASCII byte, or is not closed.
func scanJSONString(line []byte, i int) (a, z int, ok bool) {
	a = i + 1
	for z = a; z < len(line); z++ {
		switch c := line[z]; {
		case c == '"':
			return a, z, true
		case c == '\\' || c < 0x20 || c >= 0x80:
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
