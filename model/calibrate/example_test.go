package calibrate_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/calibrate"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// A crowd's labels measure one truth, and the gold of 500 tasks another
// (it differs on a third of them): the default model's posteriors are
// confident about the labellers' truth, and Gold tempers them by the
// gold's temperature, found by five fits that each leave a fifth of the
// gold out.
func ExampleGold() {
	d, tr, err := sim.Simulate(sim.Settings{Tasks: 2000, Workers: 30, LabelsPerTask: 5, Classes: 3,
		Noise: noise.DS{}, Latent: latent.LA{}, Seed: 1})
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	gold := make([]int, d.NumTasks())
	for j := range gold {
		gold[j] = -1
		if j < 500 {
			gold[j] = tr.Class[j]
			if rng.IntN(3) == 0 {
				gold[j] = (gold[j] + 1) % 3
			}
		}
	}
	est, err := model.ByName(model.DefaultModel)
	if err != nil {
		panic(err)
	}
	base := est.(model.GoldTrainer)
	plain, err := base.WithGold(gold).Fit(context.Background(), d, nil)
	if err != nil {
		panic(err)
	}
	r, err := calibrate.Gold{Base: base, Class: gold, Seed: 1}.Fit(context.Background(), d, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("task 1999, true class %d: p = %.2f, calibrated %.2f\n", tr.Class[1999], plain.Probs[1999*3:2000*3], r.Probs[1999*3:2000*3])
	// Output:
	// task 1999, true class 2: p = [0.71 0.03 0.26], calibrated [0.44 0.21 0.35]
}
