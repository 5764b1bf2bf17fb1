package sim_test

import (
	"context"
	"fmt"
	"log"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// Simulate labels from DA-GLAD, fit a model to them and measure how far its
// estimates are from the true label distributions.
func ExampleSimulate() {
	cfg := sim.Config{Tasks: 500, Workers: 10, Noise: noise.GLAD{}, Latent: latent.DA{}, Seed: 2}
	d, truth, err := sim.Simulate(cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.NumTasks(), "tasks,", d.NumWorkers(), "workers,", d.NumLabels(), "labels,", d.NumClasses(), "classes")
	res, err := model.Model{Noise: noise.GLAD{}, Latent: latent.DA{}}.Fit(context.Background(), d, &model.Settings{MaxIterations: 300})
	if err != nil {
		log.Fatal(err)
	}
	mse := metrics.MSE(res.Probs, truth.Target, d.NumClasses())
	fmt.Println("mean squared error below 0.1:", mse < 0.1)
	// Output:
	// 500 tasks, 10 workers, 5000 labels, 2 classes
	// mean squared error below 0.1: true
}
