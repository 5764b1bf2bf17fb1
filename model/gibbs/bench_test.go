package gibbs_test

import (
	"context"
	"testing"

	"github.com/consensuslab/consensus/model/gibbs"
	"github.com/consensuslab/consensus/sim"
)

// BenchmarkKinds fits crowd E of TestKindsSpammersAdversaries (12,000
// labels, K = 3, 1,000 workers): two chains of 300 sweeps.
//
//	go test ./model/gibbs -run '^$' -bench Kinds -benchtime 3x
func BenchmarkKinds(b *testing.B) {
	d, _ := simulate(b, sim.Settings{Tasks: 4000, Workers: 1000, LabelsPerTask: 3, Classes: 3, Activity: 0.5,
		Spammers: 0.2, Adversaries: 0.1, Seed: 1})
	b.ResetTimer()
	for b.Loop() {
		if _, err := (gibbs.Kinds{Seed: 1}).Fit(context.Background(), d, nil); err != nil {
			b.Fatal(err)
		}
	}
}
