package noise_test

import (
	"math"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// BenchmarkLift measures noise.Lift, which RegMME's default weight runs
// once per fit, to convergence on 10⁵ labels (K = 10, three labels a task
// from 1000 workers of skewed activity).
func BenchmarkLift(b *testing.B) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 33334, Workers: 1000, Classes: 10, LabelsPerTask: 3, Activity: 1,
		Noise: noise.DS{}, Latent: latent.LA{}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		noise.Lift(d, math.Inf(1))
	}
}
