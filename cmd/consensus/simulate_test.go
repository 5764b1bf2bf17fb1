package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestSimulateFormats checks that simulate writes its labels in the format
// of the output file's extension, compressed for ".gz", and that each file
// reads back to the data set of the CSV file.
func TestSimulateFormats(t *testing.T) {
	dir := t.TempDir()
	args := []string{"simulate", "--model", "da-ds", "--objects", "40", "--workers", "6", "--classes", "3", "--seed", "5"}
	if r := runIn(t, dir, "", append(args, "-o", "ref.csv")...); r.code != 0 {
		t.Fatalf("simulate -o ref.csv: exit %d: %s", r.code, r.stderr)
	}
	want, err := data.LoadLabels(filepath.Join(dir, "ref.csv"), "", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		format data.Format
		head   []byte // how the file starts
	}{
		{"out.tsv", data.TSV, []byte("task\tworker\tlabel\n")},
		{"out.jsonl", data.JSONL, []byte(`{"task":`)},
		{"out.parquet", data.Parquet, []byte("PAR1")},
		{"out.pq", data.Parquet, []byte("PAR1")},
		{"out.csv.gz", data.CSV, []byte{0x1f, 0x8b}},
		{"out.jsonl.gz", data.JSONL, []byte{0x1f, 0x8b}},
		{"out.parquet.gz", data.Parquet, []byte{0x1f, 0x8b}},
		{"out.txt", data.CSV, []byte("task,worker,label\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := runIn(t, dir, "", append(args, "-o", tc.name)...); r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			path := filepath.Join(dir, tc.name)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(raw, tc.head) {
				t.Fatalf("the file starts with %q, want %q", raw[:min(len(raw), 20)], tc.head)
			}
			if tc.head[0] == 0x1f {
				if _, err := gzip.NewReader(bytes.NewReader(raw)); err != nil {
					t.Fatalf("not gzip: %v", err)
				}
			}
			got, err := data.LoadLabels(path, tc.format, data.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got.Name = want.Name
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s reads back to another data set than ref.csv", tc.name)
			}
		})
	}
}
