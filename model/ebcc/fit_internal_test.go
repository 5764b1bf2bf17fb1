package ebcc

import (
	"context"
	"math"
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

// TestBeats checks the order in which Fit keeps a start: the higher bound,
// a NaN lowest, and between equal bounds the earlier start.
func TestBeats(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		a    float64
		i    int
		b    float64
		j    int
		want bool
	}{
		{-10, 2, -11, 0, true},
		{-11, 0, -10, 2, false},
		{-10, 0, -10, 1, true},
		{-10, 1, -10, 0, false},
		{-10, 3, nan, 0, true},
		{nan, 0, -10, 3, false},
		{nan, 0, nan, 1, true},
		{nan, 1, nan, 0, false},
		{math.Inf(-1), 1, nan, 0, true},
	} {
		if got := beats(c.a, c.i, c.b, c.j); got != c.want {
			t.Errorf("beats(%v, %d, %v, %d) = %v, want %v", c.a, c.i, c.b, c.j, got, c.want)
		}
	}
}
