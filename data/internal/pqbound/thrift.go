// Package pqbound checks the sizes that the bytes of a Parquet file
// declare before the Parquet library trusts them: the counts and lengths
// of the thrift compact-protocol metadata (the footer and the page
// headers), which the library's decoder allocates at once, and the decoded
// sizes that a page's compression codec and value encoding declare in
// their own headers. A corrupt or hostile file can declare gigabytes in a
// few bytes; each check here refuses a declared size larger than the
// bytes that could hold it, without allocating.
package pqbound

import (
	"encoding/binary"
	"fmt"
)

// MaxDepth is the deepest nesting of structs, lists, sets and maps that
// Struct accepts. The Parquet format's metadata nest fewer than ten deep.
const MaxDepth = 32

// The types of the thrift compact protocol.
const (
	typeStop   = 0
	typeTrue   = 1
	typeFalse  = 2
	typeByte   = 3
	typeI16    = 4
	typeI32    = 5
	typeI64    = 6
	typeDouble = 7
	typeBinary = 8
	typeList   = 9
	typeSet    = 10
	typeMap    = 11
	typeStruct = 12
	typeUUID   = 13
)

// Error is a declared size or a structure that the bytes cannot hold, at
// byte Off of the bytes checked.
type Error struct {
	Off int
	Msg string
}

// Error returns the problem and where it is.
func (e *Error) Error() string {
	return fmt.Sprintf("%s at byte %d of the thrift metadata", e.Msg, e.Off)
}

// walker walks thrift compact-protocol bytes.
type walker struct {
	b   []byte
	off int
	// The elements of the lists, sets and maps walked: structs, and
	// values of other types.
	structs, others int64
}

// Struct walks the thrift compact-protocol encoding of one struct at the
// start of b and returns its length in bytes, without allocating. It
// refuses, with an *Error, every list, set or map that declares more
// elements than the bytes left after its header could hold (each element
// takes at least one byte), every binary or string longer than the bytes
// left, nesting deeper than MaxDepth, a type that is not a thrift type,
// and bytes that end before the struct does. Bytes that Struct accepts
// make the library's decoder allocate at most a fixed multiple of their
// length.
func Struct(b []byte) (int, error) {
	w := walker{b: b}
	if err := w.structure(1); err != nil {
		return w.off, err
	}
	return w.off, nil
}

func (w *walker) fail(format string, a ...any) error {
	return &Error{Off: w.off, Msg: fmt.Sprintf(format, a...)}
}

func (w *walker) left() int { return len(w.b) - w.off }

func (w *walker) byte() (byte, error) {
	if w.off >= len(w.b) {
		return 0, w.fail("the metadata end inside a value")
	}
	c := w.b[w.off]
	w.off++
	return c, nil
}

// uvarint reads an unsigned varint.
func (w *walker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.off:])
	if n == 0 {
		return 0, w.fail("the metadata end inside a value")
	}
	if n < 0 {
		return 0, w.fail("a varint longer than 64 bits")
	}
	w.off += n
	return v, nil
}

// size reads a declared length or count of n elements of at least min
// bytes each and checks it against the bytes left.
func (w *walker) size(what string, n uint64, min int) error {
	if n > uint64(w.left()/min) {
		return w.fail("%s of %d declared in %d bytes", what, n, w.left())
	}
	return nil
}

// minSize returns the fewest bytes a value of type t takes as a list
// element, or 0 for a byte that is not a thrift type.
func minSize(t byte) int {
	switch t {
	case typeTrue, typeFalse, typeByte, typeI16, typeI32, typeI64, typeBinary, typeList, typeSet, typeMap, typeStruct:
		return 1
	case typeDouble:
		return 8
	case typeUUID:
		return 16
	}
	return 0
}

// count counts n elements of type t.
func (w *walker) count(n uint64, t byte) {
	if t == typeStruct {
		w.structs += int64(n)
	} else {
		w.others += int64(n)
	}
}

// MaxStructSize bounds the bytes of a struct of package format that the
// library's decoder allocates as an element of a list: the largest, a
// ColumnChunk, holds 560 (on 64-bit platforms).
const MaxStructSize = 640

// Decoded returns an upper bound of the bytes that the library's thrift
// decoder allocates to decode the Parquet metadata at the start of b (a
// footer or a page header), which Struct must accept: MaxStructSize
// bytes per element of a list of structs, 24 per other element, and b's
// length. A struct that is one byte long in b can take hundreds in
// memory; this bound lets a reader refuse metadata that would need more
// than its memory limit before they are decoded.
func Decoded(b []byte) int64 {
	w := walker{b: b}
	if w.structure(1) != nil {
		return 0
	}
	return w.structs*MaxStructSize + w.others*24 + int64(len(b))
}

// structure walks the fields of a struct at nesting depth.
func (w *walker) structure(depth int) error {
	if depth > MaxDepth {
		return w.fail("metadata nested more than %d deep", MaxDepth)
	}
	for {
		h, err := w.byte()
		if err != nil {
			return err
		}
		if h == typeStop {
			return nil
		}
		if h>>4 == 0 { // the field id follows as a varint
			if _, err := w.uvarint(); err != nil {
				return err
			}
		}
		t := h & 0x0f
		if t == typeTrue || t == typeFalse {
			continue // a boolean field's value is its type
		}
		if err := w.value(t, depth); err != nil {
			return err
		}
	}
}

// value walks one value of type t, at nesting depth.
func (w *walker) value(t byte, depth int) error {
	switch t {
	case typeTrue, typeFalse, typeByte:
		_, err := w.byte()
		return err
	case typeI16, typeI32, typeI64:
		_, err := w.uvarint()
		return err
	case typeDouble, typeUUID:
		n := minSize(t)
		if w.left() < n {
			return w.fail("the metadata end inside a value")
		}
		w.off += n
		return nil
	case typeBinary:
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		if err := w.size("a binary length", n, 1); err != nil {
			return err
		}
		w.off += int(n)
		return nil
	case typeList, typeSet:
		h, err := w.byte()
		if err != nil {
			return err
		}
		n, et := uint64(h>>4), h&0x0f
		if n == 0x0f {
			if n, err = w.uvarint(); err != nil {
				return err
			}
		}
		min := minSize(et)
		if min == 0 {
			return w.fail("a list of elements of the unknown type %d", et)
		}
		if err := w.size("a list", n, min); err != nil {
			return err
		}
		w.count(n, et)
		return w.elements(n, et, 0, depth)
	case typeMap:
		n, err := w.uvarint()
		if err != nil || n == 0 {
			return err
		}
		h, err := w.byte()
		if err != nil {
			return err
		}
		kt, vt := h>>4, h&0x0f
		if minSize(kt) == 0 || minSize(vt) == 0 {
			return w.fail("a map of the unknown types %d and %d", kt, vt)
		}
		if err := w.size("a map", n, minSize(kt)+minSize(vt)); err != nil {
			return err
		}
		w.count(n, kt)
		w.count(n, vt)
		return w.elements(n, kt, vt, depth)
	case typeStruct:
		return w.structure(depth + 1)
	}
	return w.fail("the unknown thrift type %d", t)
}

// elements walks n elements of type t, or n map entries of key type t and
// value type v (if v is not 0), at nesting depth.
func (w *walker) elements(n uint64, t, v byte, depth int) error {
	if depth+1 > MaxDepth {
		return w.fail("metadata nested more than %d deep", MaxDepth)
	}
	for range n {
		if err := w.value(t, depth+1); err != nil {
			return err
		}
		if v != 0 {
			if err := w.value(v, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
