package model_test

import (
	"fmt"
	"log"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// FitMemory tells before a fit how much memory it will take, so that a
// program can choose a model, a solver or a machine first: on 10⁶ labels
// of 200,000 objects, DA-DS by EM keeps no optimiser history, the same
// model by L-BFGS keeps fifteen pairs of vectors, and the default
// variational fit a few numbers per object and class.
func ExampleFitMemory() {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 200_000, Workers: 500, LabelsPerTask: 5, Noise: noise.DS{}, Latent: latent.DA{}, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	dads := model.Model{Noise: noise.DS{}, Latent: latent.DA{}}
	for _, c := range []struct {
		name string
		est  model.Estimator
		set  *model.Settings
	}{
		{"da-ds (EM)", dads, nil},
		{"da-ds (L-BFGS)", dads, &model.Settings{Method: model.LBFGS}},
		{"vb-da-ds", vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}}, nil},
	} {
		fmt.Printf("%-15s %6.1f MB\n", c.name, model.FitMemory(c.est, d, c.set)/1e6)
	}
	// Output:
	// da-ds (EM)        19.4 MB
	// da-ds (L-BFGS)   152.0 MB
	// vb-da-ds          13.9 MB
}
