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
	cfg := sim.Settings{Tasks: 500, Workers: 10, Noise: noise.GLAD{}, Latent: latent.DA{}, Seed: 2}
	d, truth, err := sim.Simulate(cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.NumTasks(), "tasks,", d.NumWorkers(), "workers,", d.NumLabels(), "labels,", d.NumClasses(), "classes")
	res, err := model.Model{Noise: noise.GLAD{}, Latent: latent.DA{}}.Fit(context.Background(), d, &model.Settings{MaxIterations: 300})
	if err != nil {
		log.Fatal(err)
	}
	mse, err := metrics.MSE(res.Probs, truth.Target, d.NumClasses())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("mean squared error below 0.1:", mse < 0.1)
	// Output:
	// 500 tasks, 10 workers, 5000 labels, 2 classes
	// mean squared error below 0.1: true
}

// Simulate the sparse regime and measure the Bayes limit: the accuracy of
// the posterior under the true parameters, which no model can beat on
// average, beside majority vote's.
func ExampleRegime() {
	cfg, err := sim.Regime("sparse", 1)
	if err != nil {
		log.Fatal(err)
	}
	d, truth, err := sim.Simulate(cfg)
	if err != nil {
		log.Fatal(err)
	}
	post, err := truth.BayesPosterior(d)
	if err != nil {
		log.Fatal(err)
	}
	gold := truth.Gold()
	fmt.Println(d.NumTasks(), "tasks,", d.NumWorkers(), "workers,", d.NumLabels(), "labels")
	bayes, err := metrics.Accuracy(post, 2, gold, 1)
	if err != nil {
		log.Fatal(err)
	}
	mv, err := metrics.Accuracy(d.Frequencies(), 2, gold, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Bayes limit %.3f, majority vote %.3f\n", bayes, mv)
	// Output:
	// 8000 tasks, 176 workers, 24000 labels
	// Bayes limit 0.938, majority vote 0.897
}
