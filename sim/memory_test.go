package sim

import (
	"testing"

	"github.com/consensuslab/consensus/noise"
)

// TestEstimateMemory checks the defaults EstimateMemory fills in for the
// zero sizes, that labels an object are capped at the workers, and that
// the noise model's parameters are counted.
func TestEstimateMemory(t *testing.T) {
	for _, c := range []struct {
		name    string
		cfg     Settings
		labels  float64
		classes int
		params  float64
	}{
		{"defaults", Settings{}, 2000 * 20, 2, 0},
		{"labels capped", Settings{Tasks: 10, Workers: 5, LabelsPerTask: 9, Classes: 3}, 50, 3, 0},
		{"ds parameters", Settings{Tasks: 100, Workers: 4, LabelsPerTask: 2, Classes: 3, Noise: noise.DS{}}, 200, 3,
			4 * float64(noise.DS{}.WorkerDim(3))},
	} {
		m := EstimateMemory(c.cfg)
		if m.Labels != c.labels || m.Classes != c.classes || m.Params != c.params {
			t.Errorf("%s: labels %g, classes %d, params %g; want %g, %d, %g", c.name, m.Labels, m.Classes, m.Params, c.labels, c.classes, c.params)
		}
		if m.Bytes <= baseBytes+m.Labels*bytesPerLabel {
			t.Errorf("%s: %g bytes, no more than the labels and the base", c.name, m.Bytes)
		}
	}
}
