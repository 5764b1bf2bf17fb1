package model

import (
	"context"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/noise/noisetest"
)

// TestConsensusBaseline checks that exactly the relative frequency
// estimator's results (rfe, mv) are scored as the frequency baseline, with
// their label counts, and every other registered estimator's on its own
// probabilities.
func TestConsensusBaseline(t *testing.T) {
	d := noisetest.Data(t, 5, 60, 8, 3)
	for _, e := range Registry() {
		r, err := e.New().Fit(context.Background(), d, &Settings{MaxIterations: 5})
		if err != nil {
			continue // gmv needs training gold
		}
		c := r.Consensus()
		want := e.Name == "rfe" || e.Name == "mv"
		if c.Baseline() != want {
			t.Errorf("%s: Baseline() = %v", e.Name, c.Baseline())
		}
		if want && !slices.Equal(c.Scored(), metrics.AddOne(d.Counts(), 3)) {
			t.Errorf("%s: the scored probabilities are not the add-one smoothed counts", e.Name)
		}
		if !want && !slices.Equal(c.Scored(), r.Probs) {
			t.Errorf("%s: the scored probabilities are not the consensus", e.Name)
		}
	}
}
