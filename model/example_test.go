package model_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// pets are a few noisy labels: three workers label four images.
const pets = `task,worker,label
img1,ann,cat
img1,bob,cat
img1,cid,dog
img2,ann,dog
img2,bob,dog
img2,cid,dog
img3,ann,cat
img3,bob,dog
img3,cid,dog
img4,ann,cat
img4,bob,cat
img4,cid,cat
`

func load() *data.Dataset {
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader(pets), "pets.csv", dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	return d
}

// A model is a noise model under a latent assumption. Fit it, then read
// the consensus distribution of every object and its consensus label.
func Example() {
	// 300 objects, each labelled by 7 of 10 workers.
	d, _, err := sim.Simulate(sim.Settings{Tasks: 300, Workers: 10, LabelsPerTask: 7, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	m := model.Model{Noise: noise.DS{}, Latent: latent.DA{}} // DA-DS
	res, err := m.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Model, "converged:", res.Converged)
	labels := res.Labels(1)
	for j, task := range d.Tasks[:3] {
		q := res.Dist(j) // q_j, ordered as d.Classes
		fmt.Printf("%s: label %s, q = (%.2f, %.2f)\n", task, d.Classes[labels[j]], q[0], q[1])
	}
	// Output:
	// da-ds converged: true
	// t0: label 1, q = (0.19, 0.81)
	// t1: label 0, q = (1.00, 0.00)
	// t2: label 0, q = (0.84, 0.16)
}

// Estimators are also known by their command-line names.
func ExampleByName() {
	est, err := model.ByName("la-glad")
	if err != nil {
		log.Fatal(err)
	}
	res, err := est.Fit(context.Background(), load(), &model.Settings{MaxIterations: 200})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Model, len(res.Probs), "probabilities")
	// Output: la-glad 8 probabilities
}

// The fitted worker parameters are read by name: a confusion matrix for
// Dawid-Skene, the ability for GLAD, a matrix for minimax entropy.
func ExampleResult_WorkerValues() {
	d := load()
	res, err := model.Model{Noise: noise.GLAD{}, Latent: latent.LA{}}.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.WorkerColumns())
	var vals []float64
	for w, name := range d.Workers {
		vals = res.WorkerValues(w, vals[:0])
		fmt.Printf("%s %v\n", name, vals[0] > 0)
	}
	// Output:
	// [ability]
	// ann true
	// bob true
	// cid true
}

// Settings control the solver; Progress reports every iteration.
func ExampleSettings() {
	iterations := 0
	s := &model.Settings{
		Method:        model.CG,
		MaxIterations: 50,
		Progress:      func(p model.Progress) { iterations = p.Iteration },
	}
	res, err := model.Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}}.Fit(context.Background(), load(), s)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Method, iterations > 0, res.Iterations <= 50)
	// Output: cg true true
}

func ExampleRegistry() {
	for _, e := range model.Registry()[:4] {
		fmt.Println(e.Name)
	}
	// Output:
	// rfe
	// mv
	// la-ds
	// da-ds
}
