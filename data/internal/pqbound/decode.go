package pqbound

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/format"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// DecodePage returns the text of a page compressed with codec (nil for
// none) that declares size bytes of text, never decoding more than that:
// LZ4, Brotli and unsized Zstandard through Decompress, Snappy and sized
// Zstandard after Compressed has checked the size their data declare,
// and gzip, which declares none, read up to one byte more than size (the
// library's decoder would not stop there).
func DecodePage(codec compress.Codec, data []byte, size int) ([]byte, error) {
	if codec == nil || codec.CompressionCodec() == format.Uncompressed {
		return data, nil
	}
	if text, ok, err := Decompress(codec.CompressionCodec(), data, size); ok {
		return text, err
	}
	if err := Compressed(codec.CompressionCodec(), data, size); err != nil {
		return nil, err
	}
	if codec.CompressionCodec() == format.Gzip {
		zr, err := ingest.NewGzipMembers(bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			return nil, err
		}
		text, err := io.ReadAll(io.LimitReader(zr, int64(size)+1))
		if err == nil && len(text) > size {
			err = fmt.Errorf("its compressed data decode to more than the page's %d bytes", size)
		}
		return text, err
	}
	return codec.Decode(make([]byte, 0, size), data)
}
