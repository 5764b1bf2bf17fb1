package dataio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEstimateFile checks the row and identifier estimates of a file of
// 200,000 labels of 40,000 tasks (listed together) and 5,000 workers against
// the true counts, as CSV, JSON Lines and gzip-compressed CSV: the plain
// files' second sample finds the workers again and counts them as 5,000,
// while the gzip file, with one sample, scales them up like the tasks;
// that a gzip file with trailing garbage does not produce a huge estimate;
// and that what cannot be sampled is not estimated.
func TestEstimateFile(t *testing.T) {
	dir := t.TempDir()
	const rows, tasks, workers = 200_000, 40_000, 5000
	var csv, jsonl strings.Builder
	csv.WriteString("task,worker,label\n")
	for i := range rows {
		fmt.Fprintf(&csv, "task%d,worker%d,%d\n", i/5, i%workers, i%3)
		fmt.Fprintf(&jsonl, "{\"task\":\"task%d\",\"worker\":\"worker%d\",\"label\":%d}\n", i/5, i%workers, i%3)
	}
	text := []byte(csv.String())
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(text)
	zw.Close()
	write := func(name string, content []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, c := range []struct {
		name         string
		content      []byte
		idsLo, idsHi float64
	}{
		{"plain.csv", text, 0.9 * (tasks + workers), 1.1 * (tasks + workers)},
		{"lines.jsonl", []byte(jsonl.String()), 0.9 * (tasks + workers), 1.1 * (tasks + workers)},
		{"packed.csv.gz", z.Bytes(), tasks + workers, 1.1*tasks + workers*float64(len(text))/sampleBytes},
	} {
		e, err := EstimateFile(write(c.name, c.content), "", ReadSettings{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(e.Rows-rows)/rows > 0.05 {
			t.Errorf("%s: estimated %.0f rows, want about %d", c.name, e.Rows, rows)
		}
		if e.IDs < c.idsLo || e.IDs > c.idsHi {
			t.Errorf("%s: estimated %.0f identifiers, want %.0f to %.0f (there are %d)", c.name, e.IDs, c.idsLo, c.idsHi, tasks+workers)
		}
		if e.Text != float64(len(text)) && c.name != "lines.jsonl" {
			t.Errorf("%s: text of %.0f bytes, want %d", c.name, e.Text, len(text))
		}
	}
	garbage := append(bytes.Clone(z.Bytes()), 0xff, 0xff, 0xff, 0x7f)
	e, err := EstimateFile(write("garbage.csv.gz", garbage), "", ReadSettings{})
	if limit := float64(len(garbage)) * maxDeflateRatio; err != nil || e.Rows*10 > limit { // rows of 10+ bytes
		t.Errorf("garbage.csv.gz: %.0f rows from %d bytes (%v)", e.Rows, len(garbage), err)
	}
	for name, path := range map[string]string{
		"Parquet":        write("labels.parquet", text),
		"a directory":    dir,
		"a header alone": write("empty.csv", []byte("task,worker,label\n")),
	} {
		if _, err := EstimateFile(path, "", ReadSettings{}); !errors.Is(err, ErrNotEstimated) {
			t.Errorf("%s: %v, want ErrNotEstimated", name, err)
		}
	}
}

// TestPopulation checks the estimate of a column's distinct values from
// two samples: the first sample's count scaled up without a second one or
// with no value in both, the values of both when they are the same, the
// Lincoln-Petersen estimate between, within the union and the scaled
// count.
func TestPopulation(t *testing.T) {
	set := func(lo, hi int) map[string]struct{} {
		s := map[string]struct{}{}
		for i := lo; i < hi; i++ {
			s[strconv.Itoa(i)] = struct{}{}
		}
		return s
	}
	for _, c := range []struct {
		name   string
		a, b   map[string]struct{}
		linear float64
		want   float64
	}{
		{"no second sample", set(0, 100), nil, 1000, 1000},
		{"disjoint", set(0, 100), set(100, 200), 1000, 1000},
		{"disjoint beyond the scaled count", set(0, 100), set(100, 200), 150, 200},
		{"the same", set(0, 50), set(0, 50), 5000, 50},
		{"half shared", set(0, 100), set(50, 150), 1000, 200},
		{"half shared, capped", set(0, 100), set(50, 150), 180, 180},
		{"one shared", set(0, 100), set(99, 199), 1000, 1000},
	} {
		if got := population(c.a, c.b, c.linear); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDistinctJSONL checks the count of distinct tasks and workers in a
// sample of JSON Lines: the columns by name (and by ReadSettings), values
// of any JSON type, and no count for a sample that does not read.
func TestDistinctJSONL(t *testing.T) {
	for _, c := range []struct {
		name, sample string
		opt          ReadSettings
		want         float64
		ok           bool
	}{
		{"repeats", `{"task":"t1","worker":"w1","label":"a"}
{"worker":"w2","task":"t1","label":"b"}
{"task":"t2","worker":"w1","label":"a"}
`, ReadSettings{}, 4, true},
		{"numbers and case", `{"Task":1,"worker":"w1","label":0}
{"Task":2,"worker":"w1","label":1}
`, ReadSettings{}, 3, true},
		{"named columns", `{"item":"t1","annotator":"w1","label":"a"}
{"item":"t2","annotator":"w2","label":"a"}
`, ReadSettings{TaskColumn: "item", WorkerColumn: "annotator"}, 4, true},
		{"missing column", `{"item":"t1","worker":"w1","label":"a"}
`, ReadSettings{}, 0, false},
		{"not JSON", "task,worker,label\nt1,w1,a\n", ReadSettings{}, 0, false},
	} {
		sets, ok := distinctJSONL([]byte(c.sample), c.opt)
		got := float64(len(sets[0]) + len(sets[1]))
		if ok != c.ok || ok && got != c.want {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestDistinctFields checks distinctFields against counting the distinct
// trimmed cells of each of the first two columns of the rows after the
// header, with the rows split by bytes.Split and the cells by
// bytes.SplitN.
func TestDistinctFields(t *testing.T) {
	reference := func(sample []byte, sep []byte) float64 {
		seen := map[string]bool{}
		for i, line := range bytes.Split(sample, []byte{'\n'}) {
			if i == 0 || len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			cells := bytes.SplitN(line, sep, 3)
			for c, cell := range cells[:min(2, len(cells))] {
				seen[strconv.Itoa(c)+string(bytes.TrimSpace(cell))] = true
			}
		}
		return float64(len(seen))
	}
	for _, tc := range []struct {
		sample string
		format Format
	}{
		{"", CSV},
		{"task,worker,label\n", CSV},
		{"task,worker,label", CSV},
		{"task,worker,label\nt1,w1,a\nt1,w2,b\nt2,w1,a\n", CSV},
		{"task,worker,label\nt1,w1,a\n\n  \nt1 , w1,b\nt2,t1,a", CSV},
		{"h\nonly\nonly\nother\n", CSV},
		{"h\nx,\nx,\n,x\n,\n", CSV},
		{"h\na,b,c,d,e\na,b\nb,a\n", CSV},
		{"h\r\nt1,w1,a\r\nt2,w1,a\r\n", CSV},
		{"task\tworker\tlabel\nt1\tw1\ta\nt1\tw2\ta,b\n", TSV},
	} {
		sep := []byte{','}
		if tc.format == TSV {
			sep = []byte{'\t'}
		}
		sets := distinctFields([]byte(tc.sample), textSep(tc.format, ReadSettings{}), true)
		if got, want := float64(len(sets[0])+len(sets[1])), reference([]byte(tc.sample), sep); got != want {
			t.Errorf("%q: %v distinct cells, want %v", tc.sample, got, want)
		}
	}
}

// TestEstimateFileSep checks that the identifiers are counted in the
// columns of ReadSettings.Sep: a semicolon-separated file of 20,000 labels of
// 4,000 tasks and 50 workers, against the whole lines counted as cells
// without it.
func TestEstimateFileSep(t *testing.T) {
	var b strings.Builder
	b.WriteString("task;worker;label\n")
	for i := range 20_000 {
		fmt.Fprintf(&b, "task%d;worker%d;%d\n", i/5, i%50, i%3)
	}
	path := filepath.Join(t.TempDir(), "labels.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	with, err := EstimateFile(path, CSV, ReadSettings{Sep: ';'})
	if err != nil {
		t.Fatal(err)
	}
	without, err := EstimateFile(path, CSV, ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if with.IDs < 4050 || with.IDs > 4100 || without.IDs < 20_000 {
		t.Errorf("%.0f identifiers with the separator, %.0f without; want 4050 (and every line without)", with.IDs, without.IDs)
	}
}
