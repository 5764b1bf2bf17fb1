package dataio

import (
	"bytes"
	"unicode/utf8"

	"github.com/consensuslab/consensus/data/internal/ingest"
	"github.com/go-json-experiment/json/jsontext"
)

// jsonlFast is the fast path of the JSON Lines reader: it reads a line with
// the allocation-free tokenizer of jsontext (the prototype of the standard
// library's encoding/json/jsontext) and accepts only the records whose
// result it can vouch for. It gives up on anything else — invalid JSON,
// escaped key names, keys that match a wanted key only ignoring case or
// space, a wanted key given twice, null, object or array values of wanted
// keys, values empty after trimming, data after the object, missing keys —
// and jsonlReader.parseSlow then reads the line and says what is wrong.
type jsonlFast struct {
	dec   jsontext.Decoder
	in    bytes.Buffer
	text  []byte   // an unquoted string value
	names [][]byte // the wanted keys, for bytes.EqualFold
	got   []bool   // per wanted key: seen in this record
}

// parse reads the wanted values of line into cells and reports true, or
// reports false (leaving cells partly written) when the slow path must read
// the line. names are the wanted keys, cells as many. Cells without escapes
// point into line, as fastCSV's fields point into its block: they are valid
// until line is changed, and a caller that keeps one copies it (the
// Builder's interns do).
func (f *jsonlFast) parse(line []byte, names, cells []string) bool {
	if f.names == nil {
		for _, n := range names {
			f.names = append(f.names, []byte(n))
		}
		f.got = make([]bool, len(names))
	}
	if !utf8.Valid(line) {
		return false
	}
	f.in.Reset()
	f.in.Write(line)
	f.dec.Reset(&f.in, jsontext.AllowDuplicateNames(true))
	if tok, err := f.dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	clear(f.got)
	for f.dec.PeekKind() == '"' {
		name, err := f.dec.ReadValue()
		if err != nil {
			return false
		}
		key := name[1 : len(name)-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		want := -1
		for i, n := range names {
			if string(key) == n {
				want = i
				break
			}
		}
		if want < 0 {
			for _, n := range f.names {
				if bytes.EqualFold(bytes.TrimSpace(key), n) {
					return false
				}
			}
			if f.dec.SkipValue() != nil {
				return false
			}
			continue
		}
		if f.got[want] {
			return false
		}
		kind := f.dec.PeekKind()
		if kind != '"' && kind != '0' && kind != 't' && kind != 'f' {
			return false
		}
		v, err := f.dec.ReadValue()
		if err != nil {
			return false
		}
		// The value's bytes in line itself, which outlive the decoder's
		// buffer until the next line, so that a cell costs no copy.
		inLine := false
		if end := int(f.dec.InputOffset()); end >= len(v) && end <= len(line) && bytes.Equal(line[end-len(v):end], v) {
			v, inLine = line[end-len(v):end], true
		}
		switch kind {
		case '"':
			if bytes.IndexByte(v, '\\') < 0 {
				v = v[1 : len(v)-1]
			} else if f.text, err = jsontext.AppendUnquote(f.text[:0], v); err == nil {
				v, inLine = f.text, false
			} else {
				return false
			}
			v = bytes.TrimSpace(v)
			if len(v) == 0 {
				return false
			}
			cells[want] = cellString(v, inLine)
		case '0':
			cells[want] = cellString(v, inLine)
		case 't':
			cells[want] = "true"
		case 'f':
			cells[want] = "false"
		}
		f.got[want] = true
	}
	if tok, err := f.dec.ReadToken(); err != nil || tok.Kind() != '}' {
		return false
	}
	if f.dec.InputOffset() != int64(len(line)) {
		return false
	}
	for _, g := range f.got {
		if !g {
			return false
		}
	}
	return true
}

// cellString returns v as a string: pointing into v's memory if inLine is
// set (v is part of the line), a copy otherwise.
func cellString(v []byte, inLine bool) string {
	if inLine {
		return ingest.BytesString(v)
	}
	return string(v)
}
