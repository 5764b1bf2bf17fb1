package dataio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/consensuslab/consensus/internal/race"
	kzstd "github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	brotlicodec "github.com/parquet-go/parquet-go/compress/brotli"
	gzipcodec "github.com/parquet-go/parquet-go/compress/gzip"
	lz4codec "github.com/parquet-go/parquet-go/compress/lz4"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/consensuslab/consensus/data/internal/pqbound"
)

// allocCorpus returns small valid Parquet files of labels in the layouts
// the corruptions should reach: plain and dictionary pages, without and
// with compression (Snappy, gzip, LZ4_RAW, Brotli; Zstandard with version
// 2 data pages, and as a stream without content sizes), a
// nullable column (definition levels), several pages per column chunk,
// and the DELTA_LENGTH_BYTE_ARRAY strings of consensus simulate.
func allocCorpus(tb testing.TB) map[string][]byte {
	tb.Helper()
	type rec struct {
		Task   string  `parquet:"task"`
		Worker *string `parquet:"worker,optional,dict"`
		Label  string  `parquet:"label,dict"`
	}
	var rows []rec
	for i := range 40 {
		w := fmt.Sprintf("w%d", i%5)
		rows = append(rows, rec{fmt.Sprintf("t%d", i/3), &w, fmt.Sprint(i % 3)})
	}
	out := map[string][]byte{"small": smallParquet(tb), "simulated": simParquet(tb)}
	for name, opts := range map[string][]parquet.WriterOption{
		"snappy":       {parquet.Compression(&snappy.Codec{})},
		"gzip":         {parquet.Compression(&gzipcodec.Codec{})},
		"zstd v2":      {parquet.Compression(&zstd.Codec{}), parquet.DataPageVersion(2)},
		"lz4":          {parquet.Compression(&lz4codec.Codec{})},
		"lz4 v2":       {parquet.Compression(&lz4codec.Codec{}), parquet.DataPageVersion(2)},
		"brotli":       {parquet.Compression(&brotlicodec.Codec{})},
		"zstd stream":  {parquet.Compression(&zstdStream{})},
		"uncompressed": {parquet.Compression(&parquet.Uncompressed)},
		"v1 pages":     {parquet.DataPageVersion(1), parquet.PageBufferSize(64)},
	} {
		var b bytes.Buffer
		w := parquet.NewGenericWriter[rec](&b, opts...)
		if _, err := w.Write(rows); err != nil {
			tb.Fatal(err)
		}
		if err := w.Close(); err != nil {
			tb.Fatal(err)
		}
		out[name] = b.Bytes()
	}
	return out
}

// bigVarints are the varints that a corruption writes in place of a byte
// (2^31-1, 2^27, 2^28-1 as zigzag, 2^18): as a count or length in the
// footer or a page header, a count in an encoding's header, a page size.
var bigVarints = [][]byte{{0xff, 0xff, 0xff, 0xff, 0x07}, {0x80, 0x80, 0x80, 0x40}, {0xfe, 0xff, 0xff, 0x0f}, {0x80, 0x80, 0x10}}

// corrupt returns a copy of good with a random corruption from rng: half
// the time a big varint written over (or after) a byte of the footer or
// of the pages, with the footer's length kept true, then one to three
// bytes set to random or extreme values.
func corrupt(good []byte, rng *rand.Rand) ([]byte, string) {
	b, desc := bytes.Clone(good), ""
	if rng.IntN(2) == 0 {
		foot := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
		i := len(b) - 8 - foot + rng.IntN(foot)
		if rng.IntN(3) == 0 {
			i = 4 + rng.IntN(len(b)-12-foot)
		}
		big, keep := bigVarints[rng.IntN(len(bigVarints))], rng.IntN(2)
		nb := append(append(bytes.Clone(b[:i+keep]), big...), b[i+1:]...)
		if i >= len(b)-8-foot {
			binary.LittleEndian.PutUint32(nb[len(nb)-8:], uint32(foot+len(big)-1+keep))
		}
		b = nb
		desc += fmt.Sprintf(" varint %x at %d (keeping the byte: %d)", big, i, keep)
	}
	for range 1 + rng.IntN(3) {
		i, v := rng.IntN(len(b)), byte(rng.IntN(256))
		if rng.IntN(3) == 0 {
			v = []byte{0xff, 0x7f, 0x40, 0x80, 0x00}[rng.IntN(5)]
		}
		b[i] = v
		desc += fmt.Sprintf(" [%d]=%#x", i, v)
	}
	return b, desc
}

// TestParquetCorruptAllocation is a property test of the memory a corrupt
// Parquet file costs: thousands of random corruptions of small files
// (see corrupt), each read under a memory limit of 64 MiB, allocate at
// most a fixed 4 MiB, whatever sizes they declare. Before the footer and
// the pages were checked (package pqbound), the worst of them allocated
// 8 GiB (a DELTA_LENGTH_BYTE_ARRAY count), 2.6 GiB (a Zstandard frame's
// content size) and 2 GiB (the length of a page header's statistics).
func TestParquetCorruptAllocation(t *testing.T) {
	n := 2000
	if race.Enabled || testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(42, 43))
	corpus := allocCorpus(t)
	for _, name := range slices.Sorted(maps.Keys(corpus)) {
		good := corpus[name]
		var worst uint64
		var worstDesc string
		for range n {
			b, desc := corrupt(good, rng)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			checkParquetRead(t, b, name+desc)
			runtime.ReadMemStats(&after)
			if a := after.TotalAlloc - before.TotalAlloc; a > worst {
				worst, worstDesc = a, desc
			}
		}
		t.Logf("%s (%d bytes): the worst of %d corruptions allocated %d KiB:%s", name, len(good), n, worst>>10, worstDesc)
		if worst > 4<<20 {
			t.Errorf("%s:%s: the read allocated %d MiB", name, worstDesc, worst>>20)
		}
	}
}

// TestParquetFooterDecodedSize checks a footer that is valid thrift but
// decodes to far more than its bytes: 400,000 column chunks of three bytes
// each (no field set) in a row group, a file of 1.2 MB on which the
// library allocates 430 MiB (a ColumnChunk is 560 bytes, and more per
// chunk follows) before it refuses it. Under a memory limit of 64 MiB it
// is refused with the limit's error before it is decoded.
func TestParquetFooterDecodedSize(t *testing.T) {
	good := simParquet(t)
	length := int(binary.LittleEndian.Uint32(good[len(good)-8:]))
	var md format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), good[len(good)-8-length:len(good)-8], &md); err != nil {
		t.Fatal(err)
	}
	md.RowGroups[0].Columns = append(md.RowGroups[0].Columns, make([]format.ColumnChunk, 400000)...)
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	b := append(bytes.Clone(good[:len(good)-8-length]), footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	b = append(b, "PAR1"...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err = checkParquetRead(t, b, "wide footer")
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "the file's metadata") {
		t.Errorf("error %v, want the metadata refused for the memory limit", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("the read of %d bytes allocated %d MiB", len(b), got>>20)
	}
	if err != nil {
		t.Log(err)
	}
}

// TestParquetGzipPageBound checks the decompression of a gzip page, whose
// stream declares no size: a page of 16 MiB of zeros (16 KB compressed)
// declared as 1,000 bytes is refused after reading 1,001, where the
// library's decoder would have decoded it all; a page of its declared size
// decodes to its text, and a gzip file reads as the Snappy file of its
// rows.
func TestParquetGzipPageBound(t *testing.T) {
	codec := &gzipcodec.Codec{}
	bomb, err := codec.Encode(nil, make([]byte, 16<<20))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = pqbound.DecodePage(codec, bomb, 1000)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "decode to more than the page's 1000 bytes") {
		t.Errorf("a %d-byte gzip page of 16 MiB declared as 1,000 bytes: %v", len(bomb), err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("the check allocated %d MiB", got>>20)
	}
	text := []byte("task,worker,label")
	page, err := codec.Encode(nil, text)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := pqbound.DecodePage(codec, page, len(text)); err != nil || !bytes.Equal(got, text) {
		t.Errorf("a page of its declared size: %q, %v", got, err)
	}
	corpus := allocCorpus(t)
	want, err := ReadLabelsAs(ctx, bytes.NewReader(corpus["snappy"]), "l.parquet", "", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ReadLabelsAs(ctx, bytes.NewReader(corpus["gzip"]), "l.parquet", "", ReadSettings{}); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("the gzip file of the Snappy file's rows: %v, a Dataset that differs", err)
	}
}

// zstdStream is the Zstandard codec of a writer that streams its pages:
// its frames declare no content size.
type zstdStream struct{ zstd.Codec }

// Encode compresses src as a stream, appending to dst.
func (*zstdStream) Encode(dst, src []byte) ([]byte, error) {
	b := bytes.NewBuffer(dst[:0])
	w, err := kzstd.NewWriter(b, kzstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(src); err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil { // the header, without the content size
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// codecBomb returns 100 MiB of zeros compressed by the writer that newWriter
// makes.
func codecBomb(t *testing.T, newWriter func(io.Writer) io.WriteCloser) []byte {
	var b bytes.Buffer
	w := newWriter(&b)
	if _, err := io.Copy(w, io.LimitReader(&zeros{}, 100<<20)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestParquetCodecPageBound checks the pages of the codecs whose decoders
// in the Parquet library have no bound: a corrupt LZ4_RAW block (on
// which the library's decoder doubles its buffer until the process dies),
// a valid one shorter than its page, and Brotli and Zstandard streams of
// 100 MiB of zeros in pages declaring 100 bytes are refused, allocating
// at most 5 MiB (the Brotli decoder's window of 4 MiB, of the stream's
// default size), and so are files of such pages; the files of each codec read as the uncompressed file
// of their rows.
func TestParquetCodecPageBound(t *testing.T) {
	short, err := (&lz4codec.Codec{}).Encode(nil, make([]byte, 50))
	if err != nil {
		t.Fatal(err)
	}
	zw := func(w io.Writer) io.WriteCloser {
		e, err := kzstd.NewWriter(w, kzstd.WithEncoderConcurrency(1), kzstd.WithWindowSize(1<<10))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	cases := []struct {
		name  string
		codec compress.Codec
		page  []byte
		want  string
	}{
		{"corrupt lz4", &lz4codec.Codec{}, []byte{0x1f, 'a', 0xff, 0xff, 0xff}, "its LZ4 block does not decode to the page's 100 bytes"},
		{"short lz4", &lz4codec.Codec{}, short, "its LZ4 block decodes to 50 bytes, the page 100"},
		{"brotli bomb", &brotlicodec.Codec{}, codecBomb(t, func(w io.Writer) io.WriteCloser { return brotli.NewWriter(w) }), "decode to more than the page's 100 bytes"},
		{"zstd bomb", &zstdStream{}, codecBomb(t, zw), "do not decode within the page's 100 bytes"},
		{"corrupt brotli", &brotlicodec.Codec{}, []byte{0xff, 0xff, 0xff}, "its compressed data: "},
	}
	for _, c := range cases {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := pqbound.DecodePage(c.codec, c.page, 100)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s (%d bytes): %v, want %q", c.name, len(c.page), err, c.want)
		}
		got := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s (%d bytes): %v; %d KiB allocated", c.name, len(c.page), err, got>>10)
		if got > 5<<20 {
			t.Errorf("%s: the check allocated %d KiB", c.name, got>>10)
		}
	}
	// The same pages in files: every page holds the block, and the first
	// checked is the task column's dictionary page.
	for _, c := range cases {
		var b bytes.Buffer
		w := parquet.NewGenericWriter[codecRow](&b, parquet.Compression(&fixedPage{c.codec, c.page}))
		if _, err := w.Write(make([]codecRow, 3)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := checkParquetRead(t, b.Bytes(), c.name)
		runtime.ReadMemStats(&after)
		t.Logf("a file of %s pages: %v", c.name, err)
		if err == nil || !strings.Contains(err.Error(), "corrupt Parquet file (row group 1, task column 'task': page 1: its ") {
			t.Errorf("a file of %s pages: %v", c.name, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 5<<20 {
			t.Errorf("a file of %s pages: the read allocated %d KiB", c.name, got>>10)
		}
	}
	corpus := allocCorpus(t)
	want, err := ReadLabelsAs(ctx, bytes.NewReader(corpus["uncompressed"]), "l.parquet", "", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"lz4", "lz4 v2", "brotli", "zstd stream"} {
		if got, err := ReadLabelsAs(ctx, bytes.NewReader(corpus[name]), "l.parquet", "", ReadSettings{}); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("the %s file of the uncompressed file's rows: %v, a Dataset that differs", name, err)
		}
	}
}

// fixedPage is a codec whose every compressed page is page.
type fixedPage struct {
	compress.Codec
	page []byte
}

// Encode returns the page, whatever src.
func (c *fixedPage) Encode(dst, src []byte) ([]byte, error) { return append(dst[:0], c.page...), nil }

// codecRow is a row of labels whose task column is dictionary-encoded:
// its first page is a dictionary page.
type codecRow struct {
	Task   string `parquet:"task,dict"`
	Worker string `parquet:"worker,dict"`
	Label  string `parquet:"label"`
}
