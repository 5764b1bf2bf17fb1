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

// TestTruthAgree checks the default's decision to challenge its answer by
// EBCC's, a pair flagged by Truth or any pair of the one-coin check: true
// on the crowd whose two busiest workers share a mistake, whether the
// conditionals are read once a worker (the trap model's test runs) or not
// (it does not, and the one-coin check alone answers), and false on
// independent workers either way. Where the trap model's test does not
// run, Truth leaves the check to the caller.
func TestTruthAgree(t *testing.T) {
	for _, c := range []struct {
		name    string
		subtype float64
		group   int
		want    bool
	}{
		{"shared mistake", 0.3, 2, true},
		{"independent", 0, 0, false},
	} {
		d := crowd(t, c.subtype, c.group, 1)
		rows, prior, _ := start(d)
		la := shared.Fit(d, rows, prior, nil, nil, false)
		probs := make([]float64, d.NumTasks()*d.NumClasses())
		la.Posterior(d, nil, 0, probs)
		for _, only := range []bool{true, false} {
			calls := 0
			oneCoin := func() []shared.Pair { calls++; return shared.OneCoinPairs(d) }
			_, _, flagged := shared.Truth(d, probs, la.Cond, only, nil, 0, oneCoin)
			if !only && calls > 0 {
				t.Errorf("%s: the one-coin check ran %d times without the trap model's test", c.name, calls)
			}
			if got := flagged || len(oneCoin()) > 0; got != c.want {
				t.Errorf("%s, conditionals read once a worker %v: agree %v, want %v", c.name, only, got, c.want)
			}
		}
	}
}
