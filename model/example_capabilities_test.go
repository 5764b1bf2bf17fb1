package model_test

import (
	"context"
	"fmt"
	"log"
	"slices"
	"strings"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// A Model's name is a registry name only when it is the registry's model:
// the command's la-ds learns the class prior, as Dawid-Skene declares
// (noise.Info), so a Dawid-Skene model under LA with a uniform prior says
// so in its name.
func ExampleModel_Name() {
	learned := model.Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}}
	uniform := model.Model{Noise: noise.DS{}, Latent: latent.LA{}}
	fmt.Println(learned.Name())
	fmt.Println(uniform.Name())

	est, err := model.ByName("la-ds")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(est == model.Estimator(learned))
	// Output:
	// la-ds
	// la-ds (uniform class prior)
	// true
}

// A fit can start from known worker parameters: here those of an earlier
// fit under LA, read back through WorkerValues (which takes the worker's
// index, as Dist takes the object's) and set through the WorkerStarter
// capability, as the command's --init-workers does with a workers file.
func ExampleWorkerStarter() {
	d := load()
	first, err := model.Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}}.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	est, _ := model.ByName("da-ds")
	ws, ok := est.(model.WorkerStarter)
	if !ok {
		log.Fatal("da-ds cannot start from workers")
	}
	x := ws.Init(d)
	for w := range d.Workers {
		if err := ws.SetWorker(d, x, w, first.WorkerValues(w, nil)); err != nil {
			log.Fatal(err)
		}
	}
	res, err := est.Fit(context.Background(), d, &model.Settings{Start: x})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ws.WorkerColumns(d))
	for j, task := range d.Tasks {
		fmt.Printf("%s %.2f\n", task, res.Dist(j))
	}
	// Output:
	// [p[cat,cat] p[cat,dog] p[dog,cat] p[dog,dog]]
	// img1 [1.00 0.00]
	// img2 [0.00 1.00]
	// img3 [0.00 1.00]
	// img4 [1.00 0.00]
}

// Workers fitted before can be held while new objects are fitted: their
// parameters go into the start vector, and Settings.Fixed marks their
// blocks (FixedWorkers), whose values the fit then keeps, as the
// command's --init-workers with --fix-workers does. Here the workers of the
// pets are held while two new images are labelled by them (workers are
// matched by name, since each data set numbers its own).
func ExampleWorkerStarter_fixed() {
	old := load()
	first, err := model.Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}}.Fit(context.Background(), old, nil)
	if err != nil {
		log.Fatal(err)
	}
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader("task,worker,label\nimg5,ann,cat\nimg5,bob,dog\nimg5,cid,dog\nimg6,ann,dog\nimg6,cid,dog\n"),
		"new.csv", dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	est, _ := model.ByName("da-ds")
	ws := est.(model.WorkerStarter)
	x := ws.Init(d)
	var known []int
	for w, name := range d.Workers {
		if err := ws.SetWorker(d, x, w, first.WorkerValues(slices.Index(old.Workers, name), nil)); err != nil {
			log.Fatal(err)
		}
		known = append(known, w)
	}
	fixed := model.FixedWorkers(ws, d, x, known)
	res, err := est.Fit(context.Background(), d, &model.Settings{Start: x, Fixed: fixed})
	if err != nil {
		log.Fatal(err)
	}
	for j, task := range d.Tasks {
		fmt.Printf("%s %.2f\n", task, res.Dist(j))
	}
	cid := slices.Index(d.Workers, "cid")
	fmt.Printf("cid before %.3f, after %.3f\n", first.WorkerValues(slices.Index(old.Workers, "cid"), nil), res.WorkerValues(cid, nil))
	// Output:
	// img5 [0.00 1.00]
	// img6 [0.00 1.00]
	// cid before [0.500 0.500 0.000 1.000], after [0.500 0.500 0.000 1.000]
}
