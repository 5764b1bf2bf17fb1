package shared_test

import (
	"testing"

	"github.com/consensuslab/consensus/internal/shared"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestOneCoinPairs checks the one-coin reference check: it flags the two
// workers who share a mistake on 30% of class 0 (w0 and w1), and no pair
// among independent workers, on two seeds each.
func TestOneCoinPairs(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		p := shared.OneCoinPairs(crowd(t, 0.3, 2, seed))
		if len(p) == 0 || p[0].A != 0 || p[0].B != 1 {
			t.Errorf("seed %d: shared mistakes of w0 and w1: pairs %+v", seed, p)
		}
		if p := shared.OneCoinPairs(crowd(t, 0, 0, seed)); len(p) > 0 {
			t.Errorf("seed %d: independent workers: pairs %+v", seed, p)
		}
	}
}

// BenchmarkOneCoinPairs times the one-coin check on 2·10⁶ labels (400,000
// tasks of five one-coin workers among 2,000), the default's speed file
// (scripts/default-bench.sh speed): it reads every m-th task, at most
// 20,000.
func BenchmarkOneCoinPairs(b *testing.B) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 400_000, Workers: 2000, Classes: 2, LabelsPerTask: 5,
		Noise: noise.OneCoin{}, Latent: latent.LA{}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		shared.OneCoinPairs(d)
	}
}
