package dataio

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/internal/ingest"
	"github.com/consensuslab/consensus/internal/race"
)

// TestLoadLabelsReserved checks that reading a file, plain or
// gzip-compressed, which sizes the Builder from the size of the file's text
// after the first block (ingest.ReserveFor), gives
// the Dataset of reading the same bytes from memory, which does not: with
// small blocks, on one and two goroutines, for files grouped by task (the
// estimate from the first block is close), with tasks that come back (the
// task estimate is high), with ids that grow longer (the estimate of
// labels is high at first) and with ids that grow shorter (later blocks
// hold more rows than the first, for which the rows' slab was cut).
func TestLoadLabelsReserved(t *testing.T) {
	defer func(old int) { ingest.ChunkSize = old }(ingest.ChunkSize)
	defer func(old int) { ingest.ChunkThreads = old }(ingest.ChunkThreads)
	files := map[string]func(i int) string{
		"grouped":   func(i int) string { return fmt.Sprintf("t%d,w%d,%d\n", i/5, i*7919%97, i*i%3) },
		"scattered": func(i int) string { return fmt.Sprintf("t%d,w%d,%d\n", i*31%1013, i%50, i%2) },
		"growing":   func(i int) string { return fmt.Sprintf("%s,w%d,%d\n", strings.Repeat("t", 1+i/5000), i%7, i%2) },
		"shrinking": func(i int) string {
			return fmt.Sprintf("%s,w%d,%d\n", strings.Repeat("t", 1+(ingest.ChunkLen+5000-i)/5000), i%7, i%2)
		},
	}
	// Under the race detector the pipeline runs on two goroutines only,
	// with blocks of two sizes: the comparison with one goroutine and the
	// 64-byte blocks (16,000 of them) cost minutes there.
	threadCounts, sizes := []int{1, 2}, []int{64, 4096, 1 << 20}
	if race.Enabled {
		threadCounts, sizes = []int{2}, []int{4096, 1 << 20}
	}
	for name, row := range files {
		var buf bytes.Buffer
		buf.WriteString("task,worker,label\n")
		for i := range ingest.ChunkLen + 5000 { // more than a column's first chunk
			buf.WriteString(row(i))
		}
		// The gzip-compressed file is sized by its trailer (inputSize).
		dir := t.TempDir()
		for path, content := range map[string][]byte{
			filepath.Join(dir, name+".csv"):    buf.Bytes(),
			filepath.Join(dir, name+".csv.gz"): gz(t, buf.Bytes()),
		} {
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, threads := range threadCounts {
				for _, size := range sizes {
					ingest.ChunkThreads, ingest.ChunkSize = threads, size
					got, err := LoadLabels(ctx, path, "", ReadSettings{})
					if err != nil {
						t.Fatal(err)
					}
					want, err := ReadLabels(ctx, bytes.NewReader(buf.Bytes()), path, ReadSettings{})
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s, %d goroutines, blocks of %d bytes: the file and the same bytes in memory read differently", filepath.Base(path), threads, size)
					}
				}
			}
		}
	}
}

// TestInputSize checks the size of the text that the readers size the
// Builder for: a regular file's size, the size a gzip file's trailer
// records when it is at least the file's and at most maxSizingRatio times
// it, and 0 (not known) for what is not a regular file, for a gzip file
// whose last member is smaller than the file, and for an empty gzip file.
func TestInputSize(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("task,worker,label\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "t%d,w%d,%d\n", i*7919%1009, i*31%97, i%3)
	}
	text := b.Bytes()
	one := gz(t, text)
	many := append(append([]byte(nil), one...), gz(t, []byte("t2,w2,b\n"))...)
	// The trailer of a file with bytes after its gzip stream, as read.
	huge := append(append([]byte(nil), one...), 0xff, 0xff, 0xff, 0x7f)
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		content []byte
		want    int64
	}{
		{"plain", text, int64(len(text))},
		{"gzip", one, int64(len(text))},
		{"gzip, two members", many, 0},
		{"gzip, bytes after it", huge, maxSizingRatio * int64(len(huge))},
		{"gzip, empty", gz(t, nil), 0},
		{"empty", nil, 0},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", ""))
		if err := os.WriteFile(path, tc.content, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := inputSize(f); got != tc.want {
			t.Errorf("%s: inputSize = %d, want %d", tc.name, got, tc.want)
		}
		f.Close()
		if got := inputSize(bytes.NewReader(tc.content)); got != 0 {
			t.Errorf("%s in memory: inputSize = %d, want 0", tc.name, got)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if got := inputSize(r); got != 0 {
		t.Errorf("a pipe: inputSize = %d, want 0", got)
	}
}

// TestLoadOtherFormatsReserved reads files in JSON Lines (plain and
// gzip-compressed) and Parquet, which size the Builder from the file after
// its first ingest.ChunkLen labels (JSON Lines by the bytes of text read, Parquet
// by the rows the file declares), and
// compares the Datasets with the CSV read of the same rows: grouped,
// scattered and growing ids; Parquet also with the value-by-value
// reference reader.
func TestLoadOtherFormatsReserved(t *testing.T) {
	files := map[string]func(i int) pqString{
		"grouped": func(i int) pqString {
			return pqString{fmt.Sprint("t", i/5), fmt.Sprint("w", i*7919%97), fmt.Sprint(i * i % 3)}
		},
		"scattered": func(i int) pqString {
			return pqString{fmt.Sprint("t", i*31%1013), fmt.Sprint("w", i%50), fmt.Sprint(i % 2)}
		},
		"growing": func(i int) pqString {
			return pqString{strings.Repeat("t", 1+i/5000), fmt.Sprint("w", i%7), fmt.Sprint(i % 2)}
		},
	}
	dir := t.TempDir()
	for name, row := range files {
		var csv, jsonl bytes.Buffer
		csv.WriteString("task,worker,label\n")
		rows := make([]pqString, ingest.ChunkLen+5000) // more than a column's first chunk
		for i := range rows {
			rows[i] = row(i)
			fmt.Fprintf(&csv, "%s,%s,%s\n", rows[i].Task, rows[i].Worker, rows[i].Label)
			fmt.Fprintf(&jsonl, `{"task":%q,"worker":%q,"label":%q}`+"\n", rows[i].Task, rows[i].Worker, rows[i].Label)
		}
		want, err := ReadLabels(ctx, bytes.NewReader(csv.Bytes()), name+".csv", ReadSettings{})
		if err != nil {
			t.Fatal(err)
		}
		for ext, content := range map[string][]byte{"jsonl": jsonl.Bytes(), "jsonl.gz": gz(t, jsonl.Bytes()), "parquet": parquetOf(t, rows)} {
			path := filepath.Join(dir, name+"."+ext)
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := LoadLabels(ctx, path, "", ReadSettings{})
			if err != nil {
				t.Fatal(err)
			}
			got.Name = want.Name
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s.%s: the Dataset differs from the CSV's", name, ext)
			}
			if ext == "parquet" {
				if ref, msg := readValueByValue(content, path, ReadSettings{}); msg != "" || !reflect.DeepEqual(ref, got) {
					t.Errorf("%s.%s: the value-by-value reference read %q, a Dataset that differs", name, ext, msg)
				}
			}
		}
	}
}
