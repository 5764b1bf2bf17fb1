package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/internal/race"

	"github.com/parquet-go/parquet-go"
)

// smallParquet returns a valid Parquet file of labels, with a dictionary
// column, for the corruption tests.
func smallParquet(tb testing.TB) []byte {
	tb.Helper()
	type rec struct {
		Task   string `parquet:"task"`
		Worker string `parquet:"worker,dict"`
		Label  int64  `parquet:"label"`
	}
	var rows []rec
	for i := range 12 {
		rows = append(rows, rec{fmt.Sprintf("t%d", i/2), fmt.Sprintf("w%d", i%3), int64(i % 2)})
	}
	var b bytes.Buffer
	w := parquet.NewGenericWriter[rec](&b)
	if _, err := w.Write(rows); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// checkParquetRead reads b as a Parquet labels file and fails t unless it
// is read or refused with a one-line *InputError naming the file: no
// panic (which would end the test binary) and no other error. It returns
// the error.
func checkParquetRead(t *testing.T, b []byte, what string) error {
	t.Helper()
	_, err := ReadLabelsAs(ctx, bytes.NewReader(b), "in.parquet", "", ReadSettings{MaxMemory: 64 << 20})
	if err == nil {
		return nil
	}
	var ie *InputError
	if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "in.parquet") || strings.ContainsAny(err.Error(), "\n\r") {
		t.Errorf("%s: %T %q, want a one-line *InputError naming the file", what, err, err)
	}
	return err
}

// simParquet returns the Parquet file of labels that consensus simulate
// --objects 3 --workers 2 --seed 1 writes: plain pages, without
// dictionaries.
func simParquet(tb testing.TB) []byte {
	tb.Helper()
	b, err := os.ReadFile("testdata/sim.parquet")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestParquetEveryByteCorrupt is an exhaustive property test: every byte
// of two small Parquet files (with and without dictionaries), set to each
// of several values, gives a data set or a one-line input error — the
// library's panics on corrupt metadata and pages (such as the byte 0x40 at
// offset 20) become "corrupt Parquet file" — and nothing is written on
// the process's standard error: a page whose values differ in number from
// its header, on which the library prints a warning, is refused before
// the library decodes it (checkPages) — and the page path gives the
// error, or the success, of the value-by-value reference (valueReader).
//
// Under the race detector every fifth byte is corrupted, a spread of the
// file's metadata and pages, as a read costs ten times as much there.
func TestParquetEveryByteCorrupt(t *testing.T) {
	step := 1
	if race.Enabled {
		step = 5
	}
	for name, good := range map[string][]byte{"small": smallParquet(t), "simulated": simParquet(t)} {
		corrupt, pages := 0, 0
		stderr := captureStderr(t, func() {
			for i := 0; i < len(good); i += step {
				for _, v := range []byte{0x00, 0xff, 0x40, good[i] ^ 1, good[i] + 0x80} {
					b := bytes.Clone(good)
					b[i] = v
					what := fmt.Sprintf("%s: byte %d = %#x", name, i, v)
					err := checkParquetRead(t, b, what)
					if _, want := readValueByValue(b, "in.parquet", ReadSettings{MaxMemory: 64 << 20}); fmt.Sprint(err) != want && (err != nil || want != "") {
						t.Errorf("%s: the page path read %v, the value-by-value reference %q", what, err, want)
					}
					if err != nil && strings.Contains(err.Error(), "corrupt Parquet file (the Parquet reader failed") {
						corrupt++
					}
					if err != nil && strings.Contains(err.Error(), "values but holds") {
						pages++
					}
				}
			}
		})
		if stderr != "" {
			t.Errorf("%s: the reads wrote on standard error:\n%s", name, stderr)
		}
		t.Logf("%s: %d corruptions of %d bytes reached a panic of the library, %d a page whose values differ from its header, each an input error", name, corrupt, len(good), pages)
	}
}

// FuzzParquetCorrupt reads fuzzed bytes as a Parquet labels file, under a
// memory limit of 64 MiB: never a panic, always a data set or a one-line
// *InputError naming the file, and never more memory allocated than the
// limit and 64 bytes a byte of the file, whatever sizes the bytes declare.
func FuzzParquetCorrupt(f *testing.F) {
	good := smallParquet(f)
	f.Add(good)
	b := bytes.Clone(good)
	b[20] = 0x40 // a panic of the library before the fix
	f.Add(b)
	sim := simParquet(f)
	f.Add(sim)
	b = bytes.Clone(sim)
	b[18] = 0x40 // a page header declaring 32 values: a warning of the library before the fix
	f.Add(b)
	corpus := allocCorpus(f)
	for _, name := range []string{"lz4", "lz4 v2", "brotli", "zstd stream"} {
		f.Add(corpus[name]) // codecs whose library decoders have no bound
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if stderr := captureStderr(t, func() { checkParquetRead(t, b, "fuzzed") }); stderr != "" {
			t.Errorf("the read wrote on standard error: %s", stderr)
		}
		runtime.ReadMemStats(&after)
		if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(64<<20+64*len(b)); got > bound {
			t.Errorf("the read of %d bytes allocated %d MiB, more than the memory limit and 64 bytes a byte", len(b), got>>20)
		}
	})
}

// TestParquetPageValueCount checks the instance: a page header of
// the simulated file whose count of values is corrupt (byte 18 set to
// 0x40 or 0x00) is refused as a corrupt file naming the page and the
// column, before the Parquet library decodes the page and prints its
// warning on standard error.
func TestParquetPageValueCount(t *testing.T) {
	for _, v := range []byte{0x40, 0x00} {
		b := simParquet(t)
		b[18] = v
		var err error
		stderr := captureStderr(t, func() { err = checkParquetRead(t, b, fmt.Sprintf("byte 18 = %#x", v)) })
		if stderr != "" {
			t.Errorf("byte 18 = %#x: the read wrote on standard error: %s", v, stderr)
		}
		if err == nil || !strings.Contains(err.Error(), "corrupt Parquet file (row group 1, task column 'task': page 1") {
			t.Errorf("byte 18 = %#x: error %v, want the page refused", v, err)
		}
	}
}

// TestParquetFooterLength checks that a footer length beyond the file
// (the 4 bytes before the closing magic number, corrupt) is refused before
// the Parquet library allocates a buffer of that length: gigabytes for
// the high byte set, under a memory limit of 64 MiB.
func TestParquetFooterLength(t *testing.T) {
	b := simParquet(t)
	b[len(b)-5] = 0xd4 // the footer length's high byte
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := checkParquetRead(t, b, "footer length")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "its footer's length") {
		t.Errorf("error %v, want the footer's length refused", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("the read allocated %d MiB", got>>20)
	}
}
