package dataio

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// invalidWanted applies the rule of every format to a JSON Lines record
// with invalid UTF-8: only the keys and the wanted values must be valid
// text, as only the header and the wanted cells of a CSV row, and only the
// wanted columns of a Parquet file, are. It returns the 1-based column of
// the first invalid byte in a key or a wanted value, or 0 if those are all
// valid (the invalid bytes are in values the reader ignores). A line that
// is not a well-formed object returns the first invalid byte's column.
func invalidWanted(line []byte, names []string) int {
	first := invalidAt(string(line)) + 1
	dec := jsontext.NewDecoder(bytes.NewReader(line), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return first
	}
	for dec.PeekKind() == '"' {
		at := dec.InputOffset()
		key, err := dec.ReadValue()
		if err != nil {
			return first
		}
		if !utf8.Valid(key) {
			return int(at) + invalidAt(string(key)) + 1
		}
		k := strings.TrimSpace(string(key[1 : len(key)-1]))
		wanted := false
		for _, n := range names {
			if strings.EqualFold(k, n) {
				wanted = true
			}
		}
		at = dec.InputOffset()
		v, err := dec.ReadValue()
		if err != nil {
			return first
		}
		if wanted && !utf8.Valid(v) {
			// The offset is that of the separator before the value.
			start := int(at) + len(line[at:]) - len(bytes.TrimLeft(line[at:], ": \t"))
			return start + invalidAt(string(v)) + 1
		}
	}
	return 0
}
