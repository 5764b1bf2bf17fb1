package ebcc

import (
	"context"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestBoundIncreases checks the updates against the bound they ascend:
// coordinate ascent on the mean-field posterior never lowers the evidence
// lower bound, so the bound after every pass is at least the one before.
func TestBoundIncreases(t *testing.T) {
	for _, k := range []int{2, 4} {
		d, _, err := sim.Simulate(sim.Settings{Noise: noise.DS{}, Latent: latent.LA{}, Tasks: 400, Workers: 20,
			Classes: k, LabelsPerTask: 4, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		f := EBCC{Subtypes: 3}.newFit(d)
		f.start(1)
		f.update()
		prev := f.bound()
		for it := range 60 {
			if _, _, err := f.run(context.Background(), 1, 0); err != nil {
				t.Fatal(err)
			}
			b := f.bound()
			if b < prev-1e-9*max(1, -prev) {
				t.Fatalf("K = %d, pass %d: bound fell from %.10g to %.10g", k, it+1, prev, b)
			}
			prev = b
		}
	}
}
