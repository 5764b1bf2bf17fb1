package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

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

// TestParquetEveryByteCorrupt is an exhaustive property test: every byte
// of a small Parquet file, set to each of several values, gives a data set
// or a one-line input error — the library's panics on corrupt metadata
// and pages (such as the byte 0x40 at offset 20) become "corrupt Parquet
// file".
func TestParquetEveryByteCorrupt(t *testing.T) {
	good := smallParquet(t)
	corrupt := 0
	for i := range good {
		for _, v := range []byte{0x00, 0xff, 0x40, good[i] ^ 1, good[i] + 0x80} {
			b := bytes.Clone(good)
			b[i] = v
			err := checkParquetRead(t, b, fmt.Sprintf("byte %d = %#x", i, v))
			if err != nil && strings.Contains(err.Error(), "corrupt Parquet file (the Parquet reader failed") {
				corrupt++
			}
		}
	}
	t.Logf("%d corruptions of %d bytes reached a panic of the library, each turned into an input error", corrupt, len(good))
}

// FuzzParquetCorrupt reads fuzzed bytes as a Parquet labels file: never a
// panic, always a data set or a one-line *InputError naming the file.
func FuzzParquetCorrupt(f *testing.F) {
	good := smallParquet(f)
	f.Add(good)
	b := bytes.Clone(good)
	b[20] = 0x40 // a panic of the library before the fix
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { checkParquetRead(t, b, "fuzzed") })
}
