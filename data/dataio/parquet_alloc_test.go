package dataio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/internal/race"
	"github.com/parquet-go/parquet-go"
	gzipcodec "github.com/parquet-go/parquet-go/compress/gzip"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// allocCorpus returns small valid Parquet files of labels in the layouts
// the corruptions should reach: plain and dictionary pages, without and
// with compression (Snappy, gzip; Zstandard with version 2 data pages), a
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
		"snappy":   {parquet.Compression(&snappy.Codec{})},
		"gzip":     {parquet.Compression(&gzipcodec.Codec{})},
		"zstd v2":  {parquet.Compression(&zstd.Codec{}), parquet.DataPageVersion(2)},
		"v1 pages": {parquet.DataPageVersion(1), parquet.PageBufferSize(64)},
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
	_, err = decompress(codec, bomb, 1000)
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
	if got, err := decompress(codec, page, len(text)); err != nil || !bytes.Equal(got, text) {
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
