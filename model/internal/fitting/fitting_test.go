package fitting

import (
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestChunkCount checks the number of chunks (and so of goroutines) an
// evaluation gets: one per MinChunkLabels labels up to MaxChunks, fewer when
// the per-chunk accumulators would exceed both four numbers per label and
// ChunkAccBudget.
func TestChunkCount(t *testing.T) {
	for _, c := range []struct {
		labels, accDim, want int
	}{
		{1000, 10, 1},                  // fewer labels than a chunk's worth
		{100_000, 4_000, 12},           // 100,000 / 8192
		{10_000_000, 4_000, MaxChunks}, // capped
		{1_000_000, 400_000, 10},       // K = 20, 1,000 workers: four numbers per label
		{200_000, 500_000, 4},          // K = 50, 200 workers: the budget, not one chunk
		{200_000, 5_000_000, 1},        // one chunk's accumulators exceed the budget
	} {
		d := &data.Dataset{Label: make([]uint16, c.labels)}
		if got := ChunkCount(d, c.accDim); got != c.want {
			t.Errorf("%d labels, %d accumulated numbers: %d chunks, want %d", c.labels, c.accDim, got, c.want)
		}
		if n := ChunkCount(d, c.accDim); n > 1 && n*c.accDim > max(4*c.labels+1024, ChunkAccBudget) {
			t.Errorf("%d labels, %d accumulated numbers: %d chunks exceed the memory bound", c.labels, c.accDim, n)
		}
	}
}
