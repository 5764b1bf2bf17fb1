package latent

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestRowWalk checks that rowWalk gives every object of [lo, hi) the
// offsets (w·K + y)·K of its labels, in their order, on objects with no
// labels, a few, and more than a block holds (walkBlock), for ranges that
// start and end inside blocks, and with and without its prefetch.
func TestRowWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const k, nw = 5, 7
	sizes := []int{0, 1, 5, 3, 0, walkBlock - 1, walkBlock, walkBlock + 1, 2, 3 * walkBlock, 0, 1}
	for range 700 {
		sizes = append(sizes, rng.IntN(8))
	}
	d := &data.Dataset{Offsets: []int{0}}
	for j, n := range sizes {
		d.Tasks = append(d.Tasks, fmt.Sprint(j))
		for range n {
			d.Worker = append(d.Worker, int32(rng.IntN(nw)))
			d.Label = append(d.Label, uint16(rng.IntN(k)))
		}
		d.Offsets = append(d.Offsets, len(d.Label))
	}
	want := func(j int) []int {
		var rows []int
		workers, labels := d.TaskLabels(j)
		for i, w := range workers {
			rows = append(rows, (int(w)*k+int(labels[i]))*k)
		}
		return rows
	}
	small := make([]float64, nw*k*k)
	large := make([]float64, max(prefetchFrom, nw*k*k)) // prefetches
	for _, r := range [][2]int{{0, len(sizes)}, {0, 1}, {3, 9}, {6, 8}, {5, 300}, {290, len(sizes)}, {len(sizes) - 1, len(sizes)}} {
		for _, tbl := range [][]float64{small, large} {
			lo, hi := r[0], r[1]
			var buf [4]int
			walk := newRowWalk(d, k, lo, hi, tbl, tbl, buf[:0])
			for j := lo; j < hi; j++ {
				if j >= walk.last {
					walk = walk.fill(j)
				}
				if got := walk.rowsOf(j); !slices.Equal(got, want(j)) {
					t.Fatalf("[%d, %d), table of %d: object %d: rows %v, want %v", lo, hi, len(tbl), j, got, want(j))
				}
			}
		}
	}
}
