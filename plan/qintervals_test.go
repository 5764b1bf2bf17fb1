package plan

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// covConc is the concentration of the Dirichlet distribution of the q_j
// in TestLabelIntervalCoverage's crowds.
var covConc = flag.Float64("cov-conc", 1, "TestLabelIntervalCoverage: the q_j of its crowds ~ Dirichlet(cov-conc); the coverage is held within 0.85 to 0.95 only at 1")

// TestLabelIntervalCoverage measures how often the 90% intervals of q_j
// cover the true label distributions of simulated DA data (Dawid-Skene
// workers, K = 2 and 5, 3 and 10 labels a task, seeds 1 to 6 each, q_j ~
// Dirichlet(1)), and holds it within 0.85 to 0.95 (the target is
// 0.87 to 0.93: docs/planning.md has the numbers). With -cov-conc other
// than 1 the q_j are drawn from Dirichlet(cov-conc) and the coverage is
// only logged: the labels do not tell a task's spread from its workers'
// noise, the fitted prior of q_j hardly follows the crowd's, and the
// intervals cover less where tasks are clearer than Dirichlet(1) and more
// where they are more spread (docs/planning.md).
func TestLabelIntervalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("importance sampling of 400 draws for every task")
	}
	for _, k := range []int{2, 5} {
		for _, n := range []int{3, 10} {
			t.Run(fmt.Sprintf("K%d-L%d", k, n), func(t *testing.T) {
				var in, all float64
				lowest, highest := 1.0, 0.0
				first, last := seedRange(t, "cov-seeds", *covSeeds)
				for seed := first; seed <= last; seed++ {
					_, truth, r := coverageFit(t, k, n, seed)
					iv, err := LabelIntervals(context.Background(), r, &IntervalSettings{Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					var crowd float64
					for i, x := range truth.Q {
						if x >= iv.Lo[i] && x <= iv.Hi[i] {
							crowd++
						}
					}
					in += crowd
					all += float64(len(truth.Q))
					crowd /= float64(len(truth.Q))
					lowest, highest = min(lowest, crowd), max(highest, crowd)
					t.Logf("seed %d: q coverage %.3f", seed, crowd)
				}
				t.Logf("K=%d, %d labels a task, seeds %s, q_j ~ Dirichlet(%g): q coverage %.3f, one crowd's %.3f-%.3f", k, n, *covSeeds, *covConc, in/all, lowest, highest)
				if c := in / all; *covConc == 1 && (c < 0.85 || c > 0.95) {
					t.Errorf("coverage %.3f at 90%%, want 0.85 to 0.95", c)
				}
			})
		}
	}
}

// TestLabelIntervalsThreads checks that the intervals of q_j are the same
// on one, two and three goroutines, and depend on the seed.
func TestLabelIntervalsThreads(t *testing.T) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 600, Workers: 20, Classes: 3, LabelsPerTask: 4, Noise: noise.DS{}, Latent: latent.DA{}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	r, err := DAModel.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkThreads(t, func(threads int, seed uint64) (*Intervals, error) {
		return LabelIntervals(context.Background(), r, &IntervalSettings{Seed: seed, Fit: &model.Settings{Threads: threads}})
	})
}

// coverageFit simulates the DA crowd of the coverage tests (300 tasks, 50
// Dawid-Skene workers, K classes, n labels a task, q_j ~ Dirichlet of
// -cov-conc) and fits DAModel to it.
func coverageFit(t *testing.T, k, n int, seed uint64) (*data.Dataset, *sim.Truth, *model.Result) {
	t.Helper()
	d, truth, err := sim.Simulate(sim.Settings{Tasks: 300, Workers: 50, Classes: k, LabelsPerTask: n, Noise: noise.DS{}, Latent: latent.DA{}, Seed: seed, Concentration: *covConc})
	if err != nil {
		t.Fatal(err)
	}
	r, err := DAModel.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d, truth, r
}
