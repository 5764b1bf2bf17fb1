package ingest

import (
	"unicode/utf8"
)

// scanJSONEscaped reads the string that starts with the quote at line[i]
// as scanJSONText does, and also takes one with escapes: it returns the
// bounds of the string's text as it stands in line, escapes undecoded. It
// takes only what encoding/json reads without an error: the escapes \" \\
// \/ \b \f \n \r \t and \u with four hexadecimal digits, no control
// character, valid UTF-8. An escaped surrogate that is not half of a pair
// is taken here (encoding/json reads it as U+FFFD); appendJSONText refuses
// it, so that a wanted value holding one goes to the general reader, which
// says what is wrong. The scan's callers try scanJSONString and
// scanJSONText first.
func scanJSONEscaped(line []byte, i int) (a, z int, ok bool) {
	a = i + 1
	ascii := true
	for z = a; z < len(line); z++ {
		switch c := line[z]; {
		case c == '"':
			return a, z, ascii || utf8.Valid(line[a:z])
		case c == '\\':
			if z+1 >= len(line) {
				return 0, 0, false
			}
			switch line[z+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				z++
			case 'u':
				if _, ok := JSONHex4(line, z+2); !ok {
					return 0, 0, false
				}
				z += 5
			default:
				return 0, 0, false
			}
		case c < 0x20:
			return 0, 0, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return 0, 0, false
}

// appendJSONText appends to dst the text of raw, the inside of a JSON
// string that scanJSONEscaped takes, with its escapes decoded as
// encoding/json decodes them, and reports true; or reports false if raw
// has an escaped surrogate that is not half of a pair, which the general
// reader refuses in a wanted value.
func appendJSONText(dst, raw []byte) ([]byte, bool) {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			// A run of text without escapes.
			j := i + 1
			for j < len(raw) && raw[j] != '\\' {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		switch e := raw[i+1]; e {
		case 'u':
			r, _ := JSONHex4(raw, i+2)
			i += 6
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return dst, false
			case r >= 0xD800 && r <= 0xDBFF:
				if i+1 >= len(raw) || raw[i] != '\\' || raw[i+1] != 'u' {
					return dst, false
				}
				lo, _ := JSONHex4(raw, i+2)
				if lo < 0xDC00 || lo > 0xDFFF {
					return dst, false
				}
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
			continue
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default: // '"', '\\' or '/'
			c = e
		}
		dst = append(dst, c)
		i += 2
	}
	return dst, true
}

// JSONHex4 parses the four hexadecimal digits at line[at:], of either
// case, as the code point of a \u escape.
func JSONHex4(line []byte, at int) (rune, bool) {
	if at+4 > len(line) {
		return 0, false
	}
	var r rune
	for _, c := range line[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// maxNested is the deepest nesting of objects and arrays that
// skipJSONNested reads; deeper values go to the general reader.
const maxNested = 64

// skipJSONNested reads the object or array that starts at line[i], the
// value of a key the reader does not want, and returns the position after
// it, or -1 if it is not valid JSON that encoding/json reads without an
// error (or is nested deeper than maxNested).
func skipJSONNested(line []byte, i, depth int) int {
	if depth >= maxNested {
		return -1
	}
	n := len(line)
	closer := byte('}')
	if line[i] == '[' {
		closer = ']'
	}
	i = skipJSONSpace(line, i+1)
	if i < n && line[i] == closer {
		return i + 1
	}
	for {
		if closer == '}' {
			// A key and its colon.
			if i >= n || line[i] != '"' {
				return -1
			}
			if i = skipJSONStringAt(line, i); i < 0 {
				return -1
			}
			if i = skipJSONSpace(line, i); i >= n || line[i] != ':' {
				return -1
			}
			i = skipJSONSpace(line, i+1)
		}
		if i = skipJSONValue(line, i, depth+1); i < 0 {
			return -1
		}
		if i = skipJSONSpace(line, i); i >= n {
			return -1
		}
		switch line[i] {
		case closer:
			return i + 1
		case ',':
			i = skipJSONSpace(line, i+1)
		default:
			return -1
		}
	}
}

// skipJSONValue reads any JSON value at line[i] and returns the position
// after it, or -1, as skipJSONNested does.
func skipJSONValue(line []byte, i, depth int) int {
	if i >= len(line) {
		return -1
	}
	switch c := line[i]; c {
	case '"':
		return skipJSONStringAt(line, i)
	case '{', '[':
		return skipJSONNested(line, i, depth)
	case 't':
		return skipJSONLiteral(line, i, "true")
	case 'f':
		return skipJSONLiteral(line, i, "false")
	case 'n':
		return skipJSONLiteral(line, i, "null")
	}
	return scanJSONNumber(line, i)
}

// skipJSONStringAt reads the string that starts with the quote at line[i],
// as the scan reads any string (scanAnyString), and returns the position
// after its closing quote, or -1.
func skipJSONStringAt(line []byte, i int) int {
	if _, z, _, ok := scanAnyString(line, i); ok {
		return z + 1
	}
	return -1
}

// skipJSONLiteral returns the position after lit at line[i], or -1 if
// line does not have it there.
func skipJSONLiteral(line []byte, i int, lit string) int {
	if len(line)-i < len(lit) || string(line[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}
