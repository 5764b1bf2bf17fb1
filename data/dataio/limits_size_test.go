package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// TestReadLimitsCountSize checks that ReadSettings.MaxMemory counts what
// the number of rows and identifiers does not show: the text of long
// identifiers (a few thousand tasks of 2 KB each) and the fields of a wide
// row (a header or a row of 50,000 fields). Each input is read by every
// path, encoding/csv alone, the line path, and the parallel blocks on 1,
// 2 and 4 goroutines with blocks of several sizes, plain and
// gzip-compressed: each stops with the same one-line *InputError wrapping
// ErrLimit, naming the same line, and the same input reads within a
// limit large enough.
func TestReadLimitsCountSize(t *testing.T) {
	defer func(old int) { ingest.ChunkSize = old }(ingest.ChunkSize)
	defer func(old int) { ingest.ChunkThreads = old }(ingest.ChunkThreads)
	defer func(old bool) { useFastCSV = old }(useFastCSV)
	const limit = 4 << 20
	long := func(i int) string { return fmt.Sprintf("%05d%s", i, strings.Repeat("x", 2000)) }
	wide := func(n int) string { return strings.Repeat(",v", n) }
	for _, tc := range []struct {
		name, file string
		text       func() string
		want       string // in the message
	}{
		{"long task ids, CSV", "long.csv", func() string {
			var b strings.Builder
			b.WriteString("task,worker,label\n")
			for i := range 3000 {
				fmt.Fprintf(&b, "%s,a,x\n%s,b,y\n", long(i), long(i))
			}
			return b.String()
		}, "MiB of text) already need about"},
		{"long worker ids, TSV", "long.tsv", func() string {
			var b strings.Builder
			b.WriteString("task\tworker\tlabel\n")
			for i := range 6000 {
				fmt.Fprintf(&b, "t%d\t%s\t%d\n", i%10, long(i), i%2)
			}
			return b.String()
		}, "MiB of text) already need about"},
		{"long task ids, JSON Lines", "long.jsonl", func() string {
			var b strings.Builder
			for i := range 6000 {
				fmt.Fprintf(&b, "{\"task\":%q,\"worker\":\"w%d\",\"label\":\"%d\"}\n", long(i/2), i%2, i%3%2)
			}
			return b.String()
		}, "MiB of text) already need about"},
		{"wide header, CSV", "wide.csv", func() string {
			return "task,worker,label" + wide(50000) + "\n1,a,x" + wide(50000) + "\n1,b,y" + wide(50000) + "\n"
		}, "fields"},
		{"wide rows, CSV", "rows.csv", func() string {
			var b strings.Builder
			b.WriteString("task,worker,label,c\n")
			for i := range 100 {
				fmt.Fprintf(&b, "%d,a,x,v\n", i)
			}
			b.WriteString("7,b,y" + wide(50000) + "\n") // too many fields, for encoding/csv
			return b.String()
		}, "fields"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text()
			var first string
			for _, gzipped := range []bool{false, true} {
				in, file := []byte(text), tc.file
				if gzipped {
					in, file = gz(t, in), file+".gz"
				}
				for _, fast := range []bool{false, true} {
					for _, threads := range []int{1, 2, 4} {
						for _, size := range []int{4096, 1 << 20} {
							useFastCSV, ingest.ChunkThreads, ingest.ChunkSize = fast, threads, size
							_, err := ReadLabelsAs(ctx, bytes.NewReader(in), file, "", ReadSettings{MaxMemory: limit})
							var ie *InputError
							if !errors.Is(err, ErrLimit) || !errors.As(err, &ie) {
								t.Fatalf("%s, fast %v, %d goroutines, blocks of %d: error %v, want an *InputError wrapping ErrLimit", file, fast, threads, size, err)
							}
							msg := strings.TrimPrefix(err.Error(), file)
							if first == "" {
								first = msg
								t.Log(err)
								if !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") || ie.Line == 0 {
									t.Fatalf("message %q: want one line naming the line and %q", msg, tc.want)
								}
							} else if msg != first {
								t.Fatalf("%s, fast %v, %d goroutines, blocks of %d: message %q, want %q as on the other paths", file, fast, threads, size, msg, first)
							}
						}
					}
				}
			}
			if _, err := ReadLabelsAs(ctx, strings.NewReader(text), tc.file, "", ReadSettings{MaxMemory: 64 * limit}); errors.Is(err, ErrLimit) {
				t.Errorf("within a limit 64 times larger: %v", err)
			}
		})
	}
}

// TestEstimateCountsIDText checks that EstimateFile counts the text of
// long identifiers: a file of 2 KB task ids is estimated to need at least
// the text of its tasks.
func TestEstimateCountsIDText(t *testing.T) {
	var b strings.Builder
	b.WriteString("task,worker,label\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "%05d%s,w%d,%d\n", i, strings.Repeat("x", 2000), i%3, i%2)
	}
	path := t.TempDir() + "/long.csv"
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := EstimateFile(path, "", ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if text := 2000 * 2005.0; e.IDText < 0.95*text || readMemory(e.Rows, e.IDs, e.IDText) < 0.95*text {
		t.Errorf("estimate %+v (reading %.0f bytes): want the %.0f bytes of task text counted (within 5 %%)", e, readMemory(e.Rows, e.IDs, e.IDText), text)
	}
}
