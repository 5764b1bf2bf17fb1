package pqbound

import (
	"bytes"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// TestDecompress checks Decompress on each codec: a text decodes to
// itself at its size and is refused at one byte less (an LZ4 block also
// at one byte more), a corrupt stream is refused, one Zstandard frame
// that declares its content size and the other codecs are left to the
// library, but not such a frame followed by more.
func TestDecompress(t *testing.T) {
	text := bytes.Repeat([]byte("task,worker,label\n"), 50)
	block := make([]byte, lz4.CompressBlockBound(len(text)))
	n, err := lz4.CompressBlock(text, block, nil)
	if err != nil {
		t.Fatal(err)
	}
	block = block[:n]
	var br, zs bytes.Buffer
	bw := brotli.NewWriter(&br)
	zw, err := zstd.NewWriter(&zs, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	// A flush before the end writes the frame's header without the
	// content size, as a writer that streams its pages does.
	for _, w := range []interface {
		Write([]byte) (int, error)
		Flush() error
		Close() error
	}{bw, zw} {
		for _, part := range [][]byte{text[:100], text[100:]} {
			if _, err := w.Write(part); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	sized := zw.EncodeAll(text, nil)
	if zstdContentSize(zs.Bytes()) != 0 || zstdContentSize(sized) != uint64(len(text)) {
		t.Fatalf("content sizes %d and %d", zstdContentSize(zs.Bytes()), zstdContentSize(sized))
	}
	size := len(text)
	for _, c := range []struct {
		name  string
		codec format.CompressionCodec
		data  []byte
		size  int
		ok    bool
		want  string // the error; "" for the text
	}{
		{"lz4", format.Lz4Raw, block, size, true, ""},
		{"lz4 shorter page", format.Lz4Raw, block, size - 1, true, "does not decode to the page's"},
		{"lz4 longer page", format.Lz4Raw, block, size + 1, true, "decodes to 900 bytes, the page 901"},
		{"lz4 corrupt", format.Lz4Raw, block[:n/2], size, true, "does not decode"},
		{"brotli", format.Brotli, br.Bytes(), size, true, ""},
		{"brotli shorter page", format.Brotli, br.Bytes(), size - 1, true, "decode to more than the page's 899 bytes"},
		{"brotli corrupt", format.Brotli, br.Bytes()[:br.Len()/2], size, true, "its compressed data: "},
		{"zstd stream", format.Zstd, zs.Bytes(), size, true, ""},
		{"zstd stream shorter page", format.Zstd, zs.Bytes(), size - 1, true, "do not decode within the page's 899 bytes"},
		{"zstd stream corrupt", format.Zstd, zs.Bytes()[:zs.Len()/2], size, true, "do not decode within the page's 900 bytes"},
		{"zstd sized", format.Zstd, sized, size, false, ""},
		{"zstd sized then a stream", format.Zstd, append(bytes.Clone(sized), zs.Bytes()...), size, true, "do not decode within the page's 900 bytes"},
		{"zstd sized then a byte", format.Zstd, append(bytes.Clone(sized), 0), size, true, "do not decode within the page's 900 bytes"},
		{"snappy", format.Snappy, []byte{0xff}, size, false, ""},
		{"negative size", format.Brotli, br.Bytes(), -1, true, "a negative size"},
	} {
		got, ok, err := Decompress(c.codec, c.data, c.size)
		if ok != c.ok {
			t.Errorf("%s: decoded %v, want %v", c.name, ok, c.ok)
		}
		switch {
		case c.want != "":
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want %q", c.name, err, c.want)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case ok && !bytes.Equal(got, text):
			t.Errorf("%s: a text of %d bytes, want the %d of the original", c.name, len(got), len(text))
		}
	}
	two := append(bytes.Clone(sized), zs.Bytes()...)
	if got, ok, err := Decompress(format.Zstd, two, 2*size); !ok || err != nil || !bytes.Equal(got, append(bytes.Clone(text), text...)) {
		t.Errorf("two frames in a page of their size: %d bytes, %v, %v", len(got), ok, err)
	}
}
