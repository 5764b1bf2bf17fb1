package pqbound

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// footer returns the thrift encoding of a small valid FileMetaData.
func footer(t *testing.T) []byte {
	t.Helper()
	md := format.FileMetaData{
		Version: 1,
		Schema: []format.SchemaElement{
			{Name: "schema", NumChildren: thrift.New[int32](1)},
			{Name: "task", Type: thrift.New(format.ByteArray)},
		},
		NumRows:   2,
		RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{FileOffset: 4}}, NumRows: 2}},
	}
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStruct checks each kind of declared size the walker refuses, on
// hand-made compact-protocol bytes, and that it accepts what fits.
func TestStruct(t *testing.T) {
	for _, c := range []struct {
		name string
		b    []byte
		want string // "" for accepted
	}{
		{"empty struct", []byte{0x00}, ""},
		{"i32 and binary", []byte{0x15, 0x04, 0x18, 0x02, 'a', 'b', 0x00}, ""},
		{"boolean fields", []byte{0x11, 0x12, 0x00}, ""},
		{"long field id", []byte{0x05, 0x20, 0x04, 0x00}, ""},
		{"list of 2 i32", []byte{0x19, 0x25, 0x02, 0x04, 0x00}, ""},
		{"map of 1", []byte{0x1b, 0x01, 0x88, 0x01, 'k', 0x01, 'v', 0x00}, ""},
		{"binary beyond", []byte{0x18, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}, "a binary length of 2147483647 declared in 1 bytes"},
		{"short list beyond", []byte{0x19, 0xe5, 0x00}, "a list of 14 declared in 1 bytes"},
		{"long list beyond", []byte{0x19, 0xf5, 0x80, 0x80, 0x80, 0x40, 0x00}, "a list of 134217728 declared in 1 bytes"},
		{"list of doubles beyond", []byte{0x19, 0x27, 1, 2, 3, 4, 5, 6, 7, 0x00}, "a list of 2 declared in 8 bytes"},
		{"set beyond", []byte{0x1a, 0xf5, 0xff, 0x01, 0x00}, "a list of 255 declared in 1 bytes"},
		{"map beyond", []byte{0x1b, 0x05, 0x88, 0x00, 0x00, 0x00}, "a map of 5 declared in 3 bytes"},
		{"unknown field type", []byte{0x1e, 0x00}, "the unknown thrift type 14"},
		{"unknown list type", []byte{0x19, 0x1f, 0x00}, "a list of elements of the unknown type 15"},
		{"unknown map types", []byte{0x1b, 0x01, 0xf8, 0x00}, "a map of the unknown types 15 and 8"},
		{"varint too long", []byte{0x16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, "a varint longer than 64 bits"},
		{"truncated", []byte{0x15}, "the metadata end inside a value"},
		{"no stop", []byte{0x15, 0x02}, "the metadata end inside a value"},
		{"too deep", append(bytes.Repeat([]byte{0x1c}, MaxDepth), 0x00), "nested more than 32 deep"},
		{"lists too deep", append(bytes.Repeat([]byte{0x19}, MaxDepth+2), 0x00), "nested more than 32 deep"},
	} {
		n, err := Struct(c.b)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want accepted", c.name, err)
		case c.want == "" && n != len(c.b):
			t.Errorf("%s: %d bytes walked of %d", c.name, n, len(c.b))
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestFooter checks that a valid footer is accepted and decoded, and that
// footers declaring what the library would allocate before checking it
// are refused.
func TestFooter(t *testing.T) {
	good := footer(t)
	md, err := Footer(good, 1<<20)
	if err != nil || len(md.Schema) != 2 || md.Schema[1].Name != "task" {
		t.Fatalf("Footer(valid) = %v, %v", md, err)
	}
	deep := format.FileMetaData{Version: 1}
	for range MaxSchemaDepth + 1 {
		deep.Schema = append(deep.Schema, format.SchemaElement{Name: "g", NumChildren: thrift.New[int32](1)})
	}
	few := format.FileMetaData{Version: 1, Schema: []format.SchemaElement{
		{Name: "schema", NumChildren: thrift.New[int32](2)},
		{Name: "a", Type: thrift.New(format.Int32)},
		{Name: "b", Type: thrift.New(format.Int32)},
	}, RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{}}}}}
	for _, c := range []struct {
		name string
		md   format.FileMetaData
		want string
	}{
		{"schema too deep", deep, "the schema nests groups more than 64 deep at its element 65"},
		{"too few column chunks", few, "row group 1 has 1 column chunks for the schema's 2 columns"},
	} {
		b, err := thrift.Marshal(new(thrift.CompactProtocol), &c.md)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Footer(b, 0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// The row groups' list, corrupt: 2^27 row groups in a footer of a
	// few dozen bytes.
	i := bytes.Index(good, []byte{0x19, 0x1c}) // row_groups: a list of 1 struct
	if i < 0 {
		t.Fatalf("no list of row groups in % x", good)
	}
	b := append(append(bytes.Clone(good[:i]), 0x49, 0xfc, 0x80, 0x80, 0x80, 0x40), good[i+2:]...)
	if _, err := Footer(b, 0); err == nil || !strings.Contains(err.Error(), "a list of 134217728 declared in") {
		t.Errorf("corrupt row groups: %v", err)
	}
	// 10,000 column chunks of one byte each (no field set) decode to
	// 5.6 MB: refused under a limit of 1 MB before they are decoded.
	wide := format.FileMetaData{Version: 1, Schema: few.Schema, RowGroups: []format.RowGroup{{Columns: make([]format.ColumnChunk, 10000)}}}
	b, err = thrift.Marshal(new(thrift.CompactProtocol), &wide)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Footer(b, 1e6)
	if big, ok := err.(*TooLarge); !ok || big.Need < 10000*560 {
		t.Errorf("10,000 column chunks under 1 MB: %v, want *TooLarge of at least 5.6 MB", err)
	}
	if _, err := Footer(b, 0); err != nil {
		t.Errorf("10,000 column chunks without a limit: %v", err)
	}
}

// TestValues checks each declared count of an encoding that Values
// refuses, and that it accepts what fits.
func TestValues(t *testing.T) {
	// DELTA_BINARY_PACKED: block size 128, 4 mini-blocks, count, first value.
	dbp := func(count byte, first byte) []byte { return []byte{0x80, 0x01, 0x04, count, first} }
	for _, c := range []struct {
		name string
		enc  format.Encoding
		b    []byte
		n    int
		want string
	}{
		{"dictionary run", format.RLEDictionary, []byte{0x02, 0x08, 0x01}, 4, ""},
		{"dictionary run beyond", format.RLEDictionary, []byte{0x02, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x01}, 4, "runs of 2147483647 values declared for 4"},
		{"dictionary width", format.RLEDictionary, []byte{0x21}, 4, "dictionary indices of 33 bits"},
		{"bit-packed beyond", format.RLEDictionary, []byte{0x02, 0x05, 0x01}, 16, "bit-packed values beyond the data"},
		{"booleans", format.RLE, []byte{0x02, 0, 0, 0, 0x08, 0x01}, 4, ""},
		{"booleans' length", format.RLE, []byte{0xff, 0, 0, 0, 0x08, 0x01}, 4, "runs of 255 bytes declared in 2"},
		{"one delta", format.DeltaBinaryPacked, dbp(1, 2), 1, ""},
		{"delta count", format.DeltaBinaryPacked, append(dbp(0x7f, 2), 0x00), 4, "127 values declared for 4"},
		{"delta block", format.DeltaBinaryPacked, []byte{0x81, 0x01, 0x04, 0x02, 0x00, 0x00}, 4, "a DELTA_BINARY_PACKED block of 129 values"},
		{"prefixes missing", format.DeltaByteArray, dbp(3, 2), 4, "3 values declared, 1 held"},
		{"string lengths", format.DeltaLengthByteArray, append(dbp(1, 4), 'a', 'b', 'c', 'd'), 1, ""},
		{"string count", format.DeltaLengthByteArray, append(dbp(9, 4), 'a'), 1, "9 values declared for 1"},
		{"negative prefix", format.DeltaByteArray, append(append(dbp(1, 0x03), dbp(1, 2)...), 'a', 'b'), 1, "strings of more than"},
		{"prefixes and suffixes", format.DeltaByteArray, append(append(dbp(1, 0), dbp(1, 2)...), 'a', 'b'), 1, ""},
		{"suffixes beyond", format.DeltaByteArray, append(append(dbp(1, 0), dbp(1, 0x60)...), 'a', 'b'), 1, "suffixes of 48 bytes declared in 2"},
		{"prefixes beyond the limit", format.DeltaByteArray, append(append(dbp(1, 0x7e), dbp(1, 2)...), 'a', 'b'), 1, "strings of more than 50 bytes"},
	} {
		err := Values(c.enc, c.b, c.n, 50)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestCompressed checks the decoded sizes that Snappy and Zstandard
// headers declare.
func TestCompressed(t *testing.T) {
	zstd := func(fhd byte, fcs ...byte) []byte { return append([]byte{0x28, 0xb5, 0x2f, 0xfd, fhd}, fcs...) }
	for _, c := range []struct {
		name  string
		codec format.CompressionCodec
		b     []byte
		want  string
	}{
		{"snappy", format.Snappy, []byte{0x0a}, ""},
		{"snappy beyond", format.Snappy, []byte{0xff, 0xff, 0xff, 0xff, 0x07}, "declare 2147483647 bytes, the page 10"},
		{"zstd single segment", format.Zstd, zstd(0x20, 10), ""},
		{"zstd 4-byte size beyond", format.Zstd, zstd(0xa0, 0, 0, 0, 0x40), "declare 1073741824 bytes, the page 10"},
		{"zstd 2-byte size", format.Zstd, zstd(0x40, 0x00, 0x00, 0x00), "declare 256 bytes"},
		{"zstd no size", format.Zstd, zstd(0x00, 0x00), ""},
		{"gzip", format.Gzip, []byte{0x1f, 0x8b}, ""},
	} {
		err := Compressed(c.codec, c.b, 10)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
