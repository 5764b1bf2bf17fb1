package model

import (
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
)

// TestChunkCount checks the number of chunks (and so of goroutines) an
// evaluation gets: one per minChunkLabels labels up to maxChunks, fewer when
// the per-chunk accumulators would exceed both four numbers per label and
// chunkAccBudget.
func TestChunkCount(t *testing.T) {
	for _, c := range []struct {
		labels, accDim, want int
	}{
		{1000, 10, 1},                  // fewer labels than a chunk's worth
		{100_000, 4_000, 12},           // 100,000 / 8192
		{10_000_000, 4_000, maxChunks}, // capped
		{1_000_000, 400_000, 10},       // K = 20, 1,000 workers: four numbers per label
		{200_000, 500_000, 4},          // K = 50, 200 workers: the budget, not one chunk
		{200_000, 5_000_000, 1},        // one chunk's accumulators exceed the budget
	} {
		d := &data.Dataset{Label: make([]uint16, c.labels)}
		if got := chunkCount(d, c.accDim); got != c.want {
			t.Errorf("%d labels, %d accumulated numbers: %d chunks, want %d", c.labels, c.accDim, got, c.want)
		}
		if n := chunkCount(d, c.accDim); n > 1 && n*c.accDim > max(4*c.labels+1024, chunkAccBudget) {
			t.Errorf("%d labels, %d accumulated numbers: %d chunks exceed the memory bound", c.labels, c.accDim, n)
		}
	}
}

// TestPassAccumulatorPool checks pass's pool of accumulators: the value
// and the shared blocks' gradient are bit for bit those of every chunk
// accumulating into its own and the chunks summed in order afterwards,
// for one and for three goroutines, and one goroutine needs a single
// accumulator however many chunks there are.
func TestPassAccumulatorPool(t *testing.T) {
	d := noisetest.Data(t, 7, 20000, 50, 3)
	models := []Model{
		{Noise: noise.DS{}, Latent: latent.DA{}},
		{Noise: noise.GLAD{}, Latent: latent.LA{}},
	}
	for _, m := range models {
		x := m.Init(d)
		// The reference: each chunk into accumulators of its own, then
		// the sums in chunk order.
		ref := newObjective(m, d, 1)
		if len(ref.chunks) < 3 {
			t.Fatalf("%d chunks: the test needs several", len(ref.chunks))
		}
		ref.allocScratch()
		ref.setParams(x)
		want := make([]float64, len(x))
		gw, gob, gg, gt := ref.lay.Split(want)
		var wantV float64
		for i := range ref.chunks {
			c := &ref.chunks[i]
			cw, cg := make([]float64, len(gw)), make([]float64, len(gg))
			c.gw, c.gg = cw, cg
			ref.chunkPass(c, gob, gt)
			wantV += c.value
			addAndClear(gw, cw)
			addAndClear(gg, cg)
		}
		for _, threads := range []int{1, 3} {
			o := newObjective(m, d, threads)
			got := make([]float64, len(x))
			if v := o.pass(x, got); v != wantV {
				t.Errorf("%T/%T, %d goroutines: value %v, want %v", m.Noise, m.Latent, threads, v, wantV)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%T/%T, %d goroutines: the sums differ from the chunks' in order", m.Noise, m.Latent, threads)
			}
			if threads == 1 && len(o.pool.free) != 1 {
				t.Errorf("%T/%T, one goroutine: %d accumulators, want 1", m.Noise, m.Latent, len(o.pool.free))
			}
		}
	}
}
