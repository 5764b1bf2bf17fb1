package ingest

import "strings"

// HeaderSet holds the column names of a file, to recognise a row that
// repeats the header in any column order.
type HeaderSet struct {
	names  map[string]bool // lower case
	maxLen int             // of a name, in bytes
}

// NewHeaderSet returns the set of the column names names: a CSV header's
// fields, the wanted keys of JSON Lines, a Parquet schema's columns.
func NewHeaderSet(names []string) *HeaderSet {
	h := &HeaderSet{names: make(map[string]bool, len(names))}
	for _, n := range names {
		h.names[strings.ToLower(n)] = true
		h.maxLen = max(h.maxLen, len(n))
	}
	return h
}

// has reports whether cell is one of the column names, ignoring case and
// a byte order mark (the second file of a cat may start with one).
func (h *HeaderSet) Has(cell string) bool {
	if len(cell) > h.maxLen+3 {
		return false
	}
	cell = strings.TrimPrefix(cell, "\ufeff")
	return len(cell) <= h.maxLen && h.names[strings.ToLower(cell)]
}

// repeated reports whether the wanted cells of a row repeat the header:
// each is a column name (has), and no two are the same.
func (h *HeaderSet) Repeated(cells []string) bool {
	for _, c := range cells {
		if !h.Has(c) {
			return false
		}
	}
	seen := make(map[string]bool, len(cells))
	for _, c := range cells {
		c = strings.ToLower(strings.TrimPrefix(c, "\ufeff"))
		if seen[c] {
			return false
		}
		seen[c] = true
	}
	return true
}

// NonFiniteText reports whether s spells NaN or an infinity, as pandas,
// R, Go and spreadsheets write them.
func NonFiniteText(s string) bool {
	if len(s) < 3 || len(s) > 9 {
		return false
	}
	switch s[0] {
	case 'n', 'N', 'i', 'I', '+', '-':
	default:
		return false
	}
	t := strings.ToLower(strings.TrimLeft(s, "+-"))
	return len(s)-len(t) <= 1 && (t == "nan" || t == "inf" || t == "infinity")
}
