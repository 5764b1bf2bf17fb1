package metrics_test

import (
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
)

// TestAccuracyMatchesArgmax checks that Accuracy breaks ties exactly as
// model.Argmax does, so that scores agree with the labels the CLI reports.
func TestAccuracyMatchesArgmax(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const j, k = 300, 3
	pred := make([]float64, j*k)
	g := &data.Gold{}
	for i := range j {
		for range 3 {
			pred[i*k+rng.IntN(k)] += 1. / 3 // many ties
		}
		g.Task = append(g.Task, int32(i))
		g.Label = append(g.Label, uint16(rng.IntN(k)))
	}
	for seed := range uint64(5) {
		labels := model.Argmax(pred, k, seed)
		right := 0
		for i, task := range g.Task {
			if labels[task] == int(g.Label[i]) {
				right++
			}
		}
		if got, want := must(metrics.Accuracy(pred, k, g, seed)), float64(right)/j; got != want {
			t.Errorf("seed %d: Accuracy = %v, model.Argmax gives %v", seed, got, want)
		}
	}
}
