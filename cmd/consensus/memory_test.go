package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"512M", 512e6, true}, {"4GiB", 4 << 30, true}, {"2.5g", 2.5e9, true}, {"1000", 1000, true},
		{" 10 KiB ", 10 << 10, true}, {"auto", 0, true}, {"off", -1, true}, {"none", -1, true},
		{"", 0, true}, {"lots", 0, false}, {"-5M", 0, false}, {"0", 0, false}, {"NaN", 0, false},
		{"1e30T", 0, false}, {"12x", 0, false},
	} {
		got, err := parseSize(c.in)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestEstimateRows checks the row and identifier estimates of plain and
// compressed files against their true counts, and that a gzip file with
// trailing garbage does not produce a huge estimate.
func TestEstimateRows(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("task,worker,label\n")
	const rows = 100_000
	for i := range rows {
		fmt.Fprintf(&b, "task%d,worker%d,%d\n", i/5, i%50, i%3)
	}
	text := []byte(b.String())
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(text)
	zw.Close()
	files := map[string][]byte{"plain.csv": text, "packed.csv.gz": z.Bytes(),
		"garbage.csv.gz": append(bytes.Clone(z.Bytes()), 0xff, 0xff, 0xff, 0x7f)}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		n, ids, _, err := estimateRows(path, data.CSV, data.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if name == "garbage.csv.gz" {
			if limit := float64(len(content)) * maxDeflateRatio; n*10 > limit { // rows of 10+ bytes
				t.Errorf("%s: %.0f rows from %d bytes", name, n, len(content))
			}
			continue
		}
		if math.Abs(n-rows)/rows > 0.05 {
			t.Errorf("%s: estimated %.0f rows, want about %d", name, n, rows)
		}
		// 20,000 tasks and 50 workers; the linear extrapolation of the
		// sample over-estimates, never under-estimates.
		if ids < 20050 {
			t.Errorf("%s: estimated %.0f identifiers, fewer than the 20050 there are", name, ids)
		}
	}
}

// TestDistinctJSONL checks the count of distinct tasks and workers in a
// sample of JSON Lines: the columns by name (and by ReadOptions), values
// of any JSON type, and no count for a sample that does not read.
func TestDistinctJSONL(t *testing.T) {
	for _, c := range []struct {
		name, sample string
		opt          data.ReadOptions
		want         float64
		ok           bool
	}{
		{"repeats", `{"task":"t1","worker":"w1","label":"a"}
{"worker":"w2","task":"t1","label":"b"}
{"task":"t2","worker":"w1","label":"a"}
`, data.ReadOptions{}, 4, true},
		{"numbers and case", `{"Task":1,"worker":"w1","label":0}
{"Task":2,"worker":"w1","label":1}
`, data.ReadOptions{}, 3, true},
		{"named columns", `{"item":"t1","annotator":"w1","label":"a"}
{"item":"t2","annotator":"w2","label":"a"}
`, data.ReadOptions{TaskColumn: "item", WorkerColumn: "annotator"}, 4, true},
		{"missing column", `{"item":"t1","worker":"w1","label":"a"}
`, data.ReadOptions{}, 0, false},
		{"not JSON", "task,worker,label\nt1,w1,a\n", data.ReadOptions{}, 0, false},
	} {
		got, ok := distinctJSONL([]byte(c.sample), c.opt)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for in, want := range map[float64]string{1000: "1000 B", 1 << 10: "1.0 KiB", 3.5 * (1 << 30): "3.5 GiB", 1 << 50: "1.0 PiB"} {
		if got := formatBytes(in); got != want {
			t.Errorf("formatBytes(%g) = %q, want %q", in, got, want)
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
		format data.Format
	}{
		{"", data.CSV},
		{"task,worker,label\n", data.CSV},
		{"task,worker,label", data.CSV},
		{"task,worker,label\nt1,w1,a\nt1,w2,b\nt2,w1,a\n", data.CSV},
		{"task,worker,label\nt1,w1,a\n\n  \nt1 , w1,b\nt2,t1,a", data.CSV},
		{"h\nonly\nonly\nother\n", data.CSV},
		{"h\nx,\nx,\n,x\n,\n", data.CSV},
		{"h\na,b,c,d,e\na,b\nb,a\n", data.CSV},
		{"h\r\nt1,w1,a\r\nt2,w1,a\r\n", data.CSV},
		{"task\tworker\tlabel\nt1\tw1\ta\nt1\tw2\ta,b\n", data.TSV},
	} {
		sep := []byte{','}
		if tc.format == data.TSV {
			sep = []byte{'\t'}
		}
		if got, want := distinctFields([]byte(tc.sample), tc.format), reference([]byte(tc.sample), sep); got != want {
			t.Errorf("%q: %v distinct cells, want %v", tc.sample, got, want)
		}
	}
}
