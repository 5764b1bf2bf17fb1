package gibbs_test

import (
	"context"
	"fmt"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model/gibbs"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// ExampleKinds fits a crowd of 100 workers, a fifth of them spammers, by
// collapsed Gibbs sampling.
func ExampleKinds() {
	d, tr, err := sim.Simulate(sim.Settings{Tasks: 1000, Workers: 100, LabelsPerTask: 3, Classes: 3, Spammers: 0.2,
		Noise: noise.DS{}, Latent: latent.LA{}, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := gibbs.Kinds{Seed: 1}.Fit(context.Background(), d, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	acc, err := metrics.Accuracy(r.Probs, 3, tr.Gold(), 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("accuracy %.2f\n", acc)
	// Output:
	// accuracy 0.82
}
