package metrics_test

import (
	"errors"
	"fmt"
	"log"
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
		{"fitted", metrics.Consensus{Probs: freq, K: 2}, freq, must(metrics.Accuracy(freq, 2, g, 5)), false},
		{"baseline", metrics.Consensus{Probs: freq, K: 2, Counts: counts},
			[]float64{3.0 / 4, 1.0 / 4, 2.0 / 4, 2.0 / 4, 1.0 / 5, 4.0 / 5},
			must(metrics.MeanAccuracy(freq, 2, g, 5, metrics.TieDraws)), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.con.Baseline(); got != (c.con.Counts != nil) {
				t.Errorf("Baseline() = %v", got)
			}
			if got := c.con.Scored(); !slices.Equal(got, c.scored) {
				t.Errorf("Scored() = %v, want %v", got, c.scored)
			}
			if got := must(c.con.Accuracy(g, 5)); got != c.accuracy {
				t.Errorf("Accuracy = %v, want %v", got, c.accuracy)
			}
			if got := must(c.con.AccuracyMetric(5)(c.con.Scored(), 2, g)); got != c.accuracy {
				t.Errorf("AccuracyMetric on the scored probabilities = %v, want %v", got, c.accuracy)
			}
			s := must(c.con.Evaluate(g, 5))
			want := must(metrics.Evaluate(c.scored, 2, g, 5))
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
	f, err := fitted.Evaluate(gold, 1)
	if err != nil {
		log.Fatal(err)
	}
	b, err := baseline.Evaluate(gold, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("as a fitted model: log loss %.4f\n", f.LogLoss)
	fmt.Printf("as the baseline:   log loss %.4f, scored %.3f\n", b.LogLoss, baseline.Scored())
	// Output:
	// as a fitted model: log loss +Inf
	// as the baseline:   log loss 1.5294, scored [0.600 0.400 0.200 0.800]
}

// TestConsensusErrors checks that Consensus reports counts whose shape
// does not agree with its probabilities, and the errors of the scores.
func TestConsensusErrors(t *testing.T) {
	g := &data.Gold{Task: []int32{0}, Label: []uint16{0}}
	for _, c := range []struct {
		name string
		con  metrics.Consensus
		kind error
	}{
		{"ragged counts", metrics.Consensus{Probs: []float64{1, 0}, K: 2, Counts: []float64{1, 0, 0}}, metrics.ErrShape},
		{"counts of another size", metrics.Consensus{Probs: []float64{1, 0}, K: 2, Counts: []float64{1, 0, 0, 1}}, metrics.ErrShape},
		{"zero classes", metrics.Consensus{Probs: []float64{1, 0}, Counts: []float64{1, 0}}, metrics.ErrShape},
		{"NaN", metrics.Consensus{Probs: []float64{math.NaN(), 0}, K: 2}, metrics.ErrProbability},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := c.con.Evaluate(g, 1); !errors.Is(err, c.kind) {
				t.Errorf("Evaluate: error %v, want one wrapping %v", err, c.kind)
			}
		})
	}
	if _, err := (metrics.Consensus{Probs: []float64{1, 0, 0}, K: 2}).Accuracy(g, 1); !errors.Is(err, metrics.ErrShape) {
		t.Errorf("Accuracy: error %v, want one wrapping ErrShape", err)
	}
}

// must returns v; it panics, failing the test, if err is not nil.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
