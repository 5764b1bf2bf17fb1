package plan

import (
	"context"
	"fmt"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestLabelIntervalCoverage measures how often the 90% intervals of q_j
// cover the true label distributions of simulated DA data (Dawid-Skene
// workers, K = 2 and 5, 3 and 10 labels a task, three seeds each), and
// holds it within 0.85 to 0.95 (the target is 0.87 to 0.93:
// docs/planning.md has the numbers).
func TestLabelIntervalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("importance sampling of 400 draws for every task")
	}
	for _, k := range []int{2, 5} {
		for _, n := range []int{3, 10} {
			t.Run(fmt.Sprintf("K%d-L%d", k, n), func(t *testing.T) {
				var in, all float64
				for seed := uint64(1); seed <= 3; seed++ {
					d, truth, err := sim.Simulate(sim.Settings{Tasks: 300, Workers: 50, Classes: k, LabelsPerTask: n, Noise: noise.DS{}, Latent: latent.DA{}, Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					r, err := DAModel.Fit(context.Background(), d, nil)
					if err != nil {
						t.Fatal(err)
					}
					iv, err := LabelIntervals(context.Background(), r, &IntervalSettings{Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					for i, x := range truth.Q {
						all++
						if x >= iv.Lo[i] && x <= iv.Hi[i] {
							in++
						}
					}
				}
				t.Logf("K=%d, %d labels a task: q coverage %.3f", k, n, in/all)
				if c := in / all; c < 0.85 || c > 0.95 {
					t.Errorf("coverage %.3f at 90%%, want 0.85 to 0.95", c)
				}
			})
		}
	}
}
