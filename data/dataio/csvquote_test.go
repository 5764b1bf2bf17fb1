package dataio

import (
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// TestQuoteInsideUnquotedCell reads quotes inside unquoted cells, in a
// wanted and an ignored column, on lines the tokenizer takes and after a
// cell over two lines sends the rest to encoding/csv, in CSV and TSV,
// row by row and in blocks on one and two goroutines: each reads the cell
// as its text, as Python's csv module and pandas do.
func TestQuoteInsideUnquotedCell(t *testing.T) {
	cases := []struct {
		name, file, in string
		workers        []string
	}{
		{"ignored column", "sq.csv", "task,worker,label,comment\nt1,w1,a,5\" screen\nt1,w2,b,ok\n", []string{"w1", "w2"}},
		{"wanted column", "sq.csv", "task,worker,label,comment\nt1,5\" w,a,x\nt1,w2,b,\"o\"\"k\"\n", []string{"5\" w", "w2"}},
		{"after a cell over two lines", "sq.csv", "task,worker,label,comment\nt1,w1,a,\"two\nlines\"\nt1,w\"2\",b,5\" screen\n", []string{"w1", "w\"2\""}},
		{"TSV", "sq.tsv", "task\tworker\tlabel\tcomment\nt1\tw\"1\ta\t5\" screen\nt1\tw2\tb\t\"x\ny\"\n", []string{"w\"1", "w2"}},
	}
	defer func(old bool) { useFastCSV = old }(useFastCSV)
	defer func(old int) { ingest.ChunkThreads = old }(ingest.ChunkThreads)
	for _, c := range cases {
		for _, mode := range []struct {
			fast    bool
			threads int
		}{{false, 1}, {true, 1}, {true, 2}} {
			useFastCSV, ingest.ChunkThreads = mode.fast, mode.threads
			d, err := ReadLabels(ctx, strings.NewReader(c.in), c.file, ReadSettings{})
			if err != nil {
				t.Errorf("%s, fast path %v, %d goroutines: %v", c.name, mode.fast, mode.threads, err)
				continue
			}
			if !slices.Equal(d.Workers, c.workers) || !slices.Equal(d.Tasks, []string{"t1"}) || !slices.Equal(d.Classes, []string{"a", "b"}) {
				t.Errorf("%s, fast path %v, %d goroutines: read tasks %q workers %q classes %q, want workers %q",
					c.name, mode.fast, mode.threads, d.Tasks, d.Workers, d.Classes, c.workers)
			}
		}
	}
}
