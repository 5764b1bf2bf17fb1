package metrics_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/metrics"
)

// TestConsensusRule checks the scoring rule of metrics.Consensus: a
// fitted model is scored on its own probabilities with one tie-breaking
// draw; a frequency baseline on its add-one smoothed counts, with the
// accuracy averaged over TieDraws draws of its raw frequencies, which the
// smoothed ones reproduce exactly.
func TestConsensusRule(t *testing.T) {
	// Three tasks with labels (0, 0), (0, 1) and (1, 1, 1): task 1 is a
	// tie and task 2 has frequency 0 for class 0, its gold class.
	counts := []float64{2, 0, 1, 1, 0, 3}
	freq := []float64{1, 0, 0.5, 0.5, 0, 1}
	g := &data.Gold{Task: []int32{0, 1, 2}, Label: []uint16{0, 0, 0}}
	for _, c := range []struct {
		name      string
		con       metrics.Consensus
		scored    []float64
		accuracy  float64
		finiteLog bool
	}{
		{"fitted", metrics.Consensus{Probs: freq, K: 2}, freq, metrics.Accuracy(freq, 2, g, 5), false},
		{"baseline", metrics.Consensus{Probs: freq, K: 2, Counts: counts},
			[]float64{3.0 / 4, 1.0 / 4, 2.0 / 4, 2.0 / 4, 1.0 / 5, 4.0 / 5},
			metrics.MeanAccuracy(freq, 2, g, 5, metrics.TieDraws), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.con.Baseline(); got != (c.con.Counts != nil) {
				t.Errorf("Baseline() = %v", got)
			}
			if got := c.con.Scored(); !slices.Equal(got, c.scored) {
				t.Errorf("Scored() = %v, want %v", got, c.scored)
			}
			if got := c.con.Accuracy(g, 5); got != c.accuracy {
				t.Errorf("Accuracy = %v, want %v", got, c.accuracy)
			}
			if got := c.con.AccuracyMetric(5)(c.con.Scored(), 2, g); got != c.accuracy {
				t.Errorf("AccuracyMetric on the scored probabilities = %v, want %v", got, c.accuracy)
			}
			s := c.con.Evaluate(g, 5)
			want := metrics.Evaluate(c.scored, 2, g, 5)
			want.Accuracy = c.accuracy
			if s != want {
				t.Errorf("Evaluate = %+v, want %+v", s, want)
			}
			if finite := !math.IsInf(s.LogLoss, 0); finite != c.finiteLog {
				t.Errorf("log loss %v", s.LogLoss)
			}
		})
	}
}

// The relative frequencies give probability 0 to the gold class of the
// second task, so their log loss is infinite; scored as the frequency
// baseline, they are smoothed first.
func ExampleConsensus() {
	counts := []float64{2, 1, 0, 3} // two tasks, two classes
	freq := []float64{2.0 / 3, 1.0 / 3, 0, 1}
	gold := &data.Gold{Task: []int32{0, 1}, Label: []uint16{0, 0}}
	fitted := metrics.Consensus{Probs: freq, K: 2}
	baseline := metrics.Consensus{Probs: freq, K: 2, Counts: counts}
	fmt.Printf("as a fitted model: log loss %.4f\n", fitted.Evaluate(gold, 1).LogLoss)
	fmt.Printf("as the baseline:   log loss %.4f, scored %.3f\n", baseline.Evaluate(gold, 1).LogLoss, baseline.Scored())
	// Output:
	// as a fitted model: log loss +Inf
	// as the baseline:   log loss 1.5294, scored [0.600 0.400 0.200 0.800]
}
