package ingest

import (
	"bytes"
	"unicode/utf8"
)

// JSONCell is the rule of a wanted value of a JSON Lines record, the one
// that the scan (JSONLScan) and the general reader of package dataio
// (encoding/json) both apply. kind is the value's first byte: '"' for a
// string, '-' or a digit for a number, 't' or 'f' for true or false, 'n'
// for null, '{' or '[' for an object or an array. text is a string's text,
// its escapes decoded, without its quotes, or the value as written. The
// cell is text[a:z]:
//
//   - a string, trimmed of white space as bytes.TrimSpace trims it;
//   - a number, as written: 1e3 stays 1e3 and -0 stays -0;
//   - true or false, as written.
//
// A string empty once trimmed, null, an object or an array gives no cell
// (ok false): the general reader says which it is.
func JSONCell(kind byte, text []byte) (a, z int, ok bool) {
	switch {
	case kind == '"':
		a, z = 0, len(text)
		for a < z && text[a] < utf8.RuneSelf && ASCIISpace[text[a]] {
			a++
		}
		for z > a && text[z-1] < utf8.RuneSelf && ASCIISpace[text[z-1]] {
			z--
		}
		if a < z && text[a]|text[z-1] >= utf8.RuneSelf {
			// White space that is not ASCII, such as U+00A0 or U+3000.
			t := bytes.TrimSpace(text[a:z])
			if len(t) == 0 {
				return 0, 0, false
			}
			a += cap(text[a:]) - cap(t)
			z = a + len(t)
		}
		return a, z, a < z
	case kind == 't' || kind == 'f' || kind == '-' || kind >= '0' && kind <= '9':
		return 0, len(text), len(text) > 0
	}
	return 0, 0, false
}
