package model

import (
	"slices"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model/internal/fitting"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
)

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
			fitting.AddAndClear(gw, cw)
			fitting.AddAndClear(gg, cg)
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
			if threads == 1 && o.pool.Len() != 1 {
				t.Errorf("%T/%T, one goroutine: %d accumulators, want 1", m.Noise, m.Latent, o.pool.Len())
			}
		}
	}
}
