package dataio

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// zeros gives its head, then zero bytes without end, allocating nothing,
// and counts the bytes it gives.
type zeros struct {
	head string
	n    int64
}

func (z *zeros) Read(p []byte) (int, error) {
	k := 0
	if z.n < int64(len(z.head)) {
		k = copy(p, z.head[z.n:])
	}
	clear(p[k:])
	z.n += int64(len(p))
	return len(p), nil
}

// TestLongLineBounded checks the line-length limit on a reader that never
// sends a line end after a header and a row (like /dev/zero, at a small
// scale: the memory limit lowers the line limit to 1 MiB): in CSV, TSV and
// JSON Lines, read row by row, in one block path goroutine or several, the
// read stops with the same one-line error, naming the same line, having
// read no more than the line limit and one block, and having allocated no
// more for the line than the lineFactor bytes a byte that the limit counts
// on (the buffers grow to the limit and no further, by doubling, and a
// line cut by the limit is not copied again).
func TestLongLineBounded(t *testing.T) {
	const limit = 4 << 20
	const line = limit / lineFactor
	defer func(old int) { ingest.ChunkSize = old }(ingest.ChunkSize)
	defer func(old int) { ingest.ChunkThreads = old }(ingest.ChunkThreads)
	defer func(old bool) { useFastCSV = old }(useFastCSV)
	ingest.ChunkSize = 16 << 10
	for _, tc := range []struct{ file, head string }{
		{"zero.csv", "task,worker,label\n1,a,x\n"},
		{"zero.tsv", "task\tworker\tlabel\n1\ta\tx\n"},
		{"zero.jsonl", "{\"task\":\"1\",\"worker\":\"a\",\"label\":\"x\"}\n"},
	} {
		want := ""
		for _, mode := range []struct {
			threads int
			fast    bool
		}{{1, true}, {2, true}, {4, true}, {1, false}} {
			t.Run(fmt.Sprintf("%s/threads=%d/fast=%v", tc.file, mode.threads, mode.fast), func(t *testing.T) {
				ingest.ChunkThreads, useFastCSV = mode.threads, mode.fast
				src := &zeros{head: tc.head}
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				_, err := ReadLabelsAs(ctx, src, tc.file, "", ReadSettings{MaxMemory: limit})
				runtime.ReadMemStats(&after)
				var ie *InputError
				if !errors.Is(err, ErrLimit) || !errors.As(err, &ie) || ie.Line != 2+boolInt(tc.file != "zero.jsonl") {
					t.Fatalf("error %v, want an *InputError wrapping ErrLimit on the line after the rows", err)
				}
				if want == "" {
					want = err.Error()
				} else if err.Error() != want {
					t.Errorf("error %q, want %q as with the first reading", err, want)
				}
				if most := int64(line + 2*ingest.ChunkSize + 256<<10); src.n > most {
					t.Errorf("read %d bytes, want at most %d (the line limit and a block)", src.n, most)
				}
				// The reader's fixed buffers (the blocks' slab, bufio's, the
				// header's) take about 1 MiB besides at this block size.
				if alloc := after.TotalAlloc - before.TotalAlloc; mode.fast && alloc > limit+1<<20 {
					t.Errorf("allocated %d bytes, want at most the memory limit %d and 1 MiB", alloc, limit)
				}
			})
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
