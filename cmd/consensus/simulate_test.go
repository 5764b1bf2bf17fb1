package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
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
	want, err := dataio.LoadLabels(context.Background(), filepath.Join(dir, "ref.csv"), "", dataio.ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		format dataio.Format
		head   []byte // how the file starts
	}{
		{"out.tsv", dataio.TSV, []byte("task\tworker\tlabel\n")},
		{"out.jsonl", dataio.JSONL, []byte(`{"task":`)},
		{"out.parquet", dataio.Parquet, []byte("PAR1")},
		{"out.pq", dataio.Parquet, []byte("PAR1")},
		{"out.csv.gz", dataio.CSV, []byte{0x1f, 0x8b}},
		{"out.jsonl.gz", dataio.JSONL, []byte{0x1f, 0x8b}},
		{"out.parquet.gz", dataio.Parquet, []byte{0x1f, 0x8b}},
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
			got, err := dataio.LoadLabels(context.Background(), path, tc.format, dataio.ReadSettings{})
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

// truthTable is a truth file read back: its header and its rows of cells.
type truthTable struct {
	header []string
	rows   [][]string
}

// loadTruth reads a truth file with dataio.LoadTable: the task and label
// columns and every q_<class> column.
func loadTruth(t *testing.T, path string) truthTable {
	t.Helper()
	var tt truthTable
	cols := dataio.Columns{Names: []string{"task", "label"}, More: func(header []string) (names, roles []string, err error) {
		for _, h := range header {
			if strings.HasPrefix(h, "q_") {
				names = append(names, h)
			}
		}
		tt.header = append([]string{"task", "label"}, names...)
		return names, nil, nil
	}}
	err := dataio.LoadTable(context.Background(), path, "", dataio.ReadSettings{}, cols, func(cells []string, _ int) error {
		row := make([]string, len(cells))
		for i, c := range cells {
			row[i] = strings.Clone(c) // a cell may point into the reader's buffer
		}
		tt.rows = append(tt.rows, row)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

// TestSimulateTruthFormats checks that --truth is written in the format
// of its extension, compressed for ".gz", that every format reads back to
// the table of the CSV file, and that the CSV file's numbers are the
// simulation's q_j bit for bit (their rows sum to 1) with the true class
// its label. The labels file is the same whatever the truth file's format.
func TestSimulateTruthFormats(t *testing.T) {
	dir := t.TempDir()
	args := []string{"simulate", "--model", "la-ds", "--objects", "30", "--workers", "5", "--classes", "3", "--seed", "7"}
	if r := runIn(t, dir, "", append(args, "-o", "ref.csv", "--truth", "ref-truth.csv")...); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := loadTruth(t, filepath.Join(dir, "ref-truth.csv"))
	if !slices.Equal(want.header, []string{"task", "label", "q_0", "q_1", "q_2"}) || len(want.rows) != 30 {
		t.Fatalf("header %v and %d rows, want task, label, q_0..q_2 and 30 rows", want.header, len(want.rows))
	}
	for _, row := range want.rows {
		sum := 0.0
		for _, c := range row[2:] {
			v, err := strconv.ParseFloat(c, 64)
			if err != nil || v < 0 || v > 1 {
				t.Fatalf("row %v: %q is not a probability", row, c)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 || !slices.Contains([]string{"0", "1", "2"}, row[1]) {
			t.Errorf("row %v: sum %v, label %q", row, sum, row[1])
		}
	}
	ref, err := os.ReadFile(filepath.Join(dir, "ref.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		head []byte // how the file starts
	}{
		{"t.tsv", []byte("task\tlabel\tq_0\tq_1\tq_2\n")},
		{"t.tab", []byte("task\tlabel\tq_0\tq_1\tq_2\n")},
		{"t.jsonl", []byte(`{"task":"t0","label":`)},
		{"t.parquet", []byte("PAR1")},
		{"t.csv.gz", []byte{0x1f, 0x8b}},
		{"t.jsonl.gz", []byte{0x1f, 0x8b}},
		{"t.parquet.gz", []byte{0x1f, 0x8b}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := runIn(t, dir, "", append(args, "-o", "out.csv", "--truth", tc.name)...); r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			raw, err := os.ReadFile(filepath.Join(dir, tc.name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(raw, tc.head) {
				t.Fatalf("the file starts with %q, want %q", raw[:min(len(raw), 20)], tc.head)
			}
			if got := loadTruth(t, filepath.Join(dir, tc.name)); !reflect.DeepEqual(got, want) {
				t.Errorf("%s reads back to another table than ref-truth.csv", tc.name)
			}
			if out, err := os.ReadFile(filepath.Join(dir, "out.csv")); err != nil || !bytes.Equal(out, ref) {
				t.Errorf("the labels file differs from ref.csv (%v)", err)
			}
		})
	}
}
