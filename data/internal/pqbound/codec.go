package pqbound

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// zstdDecoder decodes Zstandard frames into buffers whose capacity
// bounds the text: its history is the text, not a window of the size
// the frame declares.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true))
})

// Decompress decodes the compressed data of a page whose codec's decoder,
// in the Parquet library, has no bound of its own, and reports whether
// the codec is one of them: LZ4_RAW (whose decoder, given a corrupt
// block, doubles its buffer for ever), Brotli and Zstandard data other
// than one frame that declares its content size (whose decoders read a
// stream to its end). The text may not exceed size, the page header's uncompressed
// size of the data; an LZ4 block must decode to exactly size bytes.
// Decompress allocates the size bytes of the text, and the Brotli
// decoder its window (up to 16 MiB, as the stream declares). For other
// codecs it returns false and does nothing.
func Decompress(codec format.CompressionCodec, data []byte, size int) ([]byte, bool, error) {
	if size < 0 {
		return nil, true, fmt.Errorf("a negative size %d", size)
	}
	switch codec {
	case format.Lz4Raw:
		text := make([]byte, size)
		n, err := lz4.UncompressBlock(data, text)
		if err != nil {
			return nil, true, fmt.Errorf("its LZ4 block does not decode to the page's %d bytes", size)
		}
		if n != size {
			return nil, true, fmt.Errorf("its LZ4 block decodes to %d bytes, the page %d", n, size)
		}
		return text, true, nil
	case format.Brotli:
		text, err := bounded(brotli.NewReader(bytes.NewReader(data)), size)
		return text, true, err
	case format.Zstd:
		if zstdContentSize(data) != 0 && zstdOneFrame(data) {
			return nil, false, nil // bounded by Compressed
		}
		d, err := zstdDecoder()
		if err != nil {
			return nil, true, err
		}
		// Output beyond the capacity is one of several errors.
		text, err := d.DecodeAll(data, make([]byte, 0, size))
		if err != nil {
			return nil, true, fmt.Errorf("its compressed data do not decode within the page's %d bytes: %v", size, err)
		}
		return text, true, nil
	}
	return nil, false, nil
}

// bounded reads the text of the stream r, which may not exceed size
// bytes: it reads up to one byte more, then the stream's end.
func bounded(r io.Reader, size int) ([]byte, error) {
	text := make([]byte, size+1)
	n := 0
	for {
		k, err := r.Read(text[n:])
		n += k
		if n > size {
			return nil, fmt.Errorf("its compressed data decode to more than the page's %d bytes", size)
		}
		if err == io.EOF {
			return text[:n], nil
		}
		if err != nil {
			return nil, fmt.Errorf("its compressed data: %v", err)
		}
	}
}

// zstdOneFrame reports whether b holds one Zstandard frame and nothing
// after it, walking the headers of its blocks.
func zstdOneFrame(b []byte) bool {
	fhd, at, size := zstdHeader(b)
	if at == 0 {
		return false
	}
	for at += size; ; {
		if at+3 > len(b) {
			return false
		}
		h := int(b[at]) | int(b[at+1])<<8 | int(b[at+2])<<16
		at += 3
		switch h >> 1 & 3 {
		case 0, 2: // raw and compressed blocks
			at += h >> 3
		case 1: // a byte repeated
			at++
		default:
			return false
		}
		if h&1 == 1 { // the last block
			break
		}
	}
	if fhd>>2&1 == 1 {
		at += 4 // the checksum
	}
	return at == len(b)
}
