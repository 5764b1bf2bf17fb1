package model_test

import (
	"context"
	"fmt"
	"log"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// Gold labels can train a model as well as score it: latent.WithGold
// clamps the gold tasks to their gold class during the fit. Here half of
// duchenne's gold tasks train Dawid-Skene and the other half score it,
// against the same model fitted without gold (as "consensus fit
// --train-fraction 0.5" does, with another split).
func Example_gold() {
	d, gold, err := datasets.Load("duchenne")
	if err != nil {
		log.Fatal(err)
	}
	train, test := &data.Gold{}, &data.Gold{}
	for i, j := range gold.Task { // every other gold task trains
		half := train
		if i%2 == 1 {
			half = test
		}
		half.Task = append(half.Task, j)
		half.Label = append(half.Label, gold.Label[i])
	}
	plain := model.Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}} // la-ds
	trained := plain
	trained.Latent = latent.WithGold{Base: plain.Latent, Class: latent.GoldClasses(d, train)}
	names := []string{"without gold:", fmt.Sprintf("with %d trained:", train.Len())}
	for i, m := range []model.Model{plain, trained} {
		res, err := m.Fit(context.Background(), d, nil)
		if err != nil {
			log.Fatal(err)
		}
		s, err := metrics.Evaluate(res.Probs, d.NumClasses(), test, 1)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-18s accuracy %.4f on %d held-out gold tasks\n", names[i], s.Accuracy, s.N)
	}
	// Output:
	// without gold:      accuracy 0.6962 on 79 held-out gold tasks
	// with 80 trained:   accuracy 0.7089 on 79 held-out gold tasks
}

// A model whose class prior is a parameter reports it after the fit;
// GLAD models report their task difficulties.
func ExampleResult_ClassPrior() {
	d, _, err := datasets.Load("rte")
	if err != nil {
		log.Fatal(err)
	}
	res, err := model.Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}}.Fit(context.Background(), d, nil) // la-ds
	if err != nil {
		log.Fatal(err)
	}
	for z, p := range res.ClassPrior() {
		fmt.Printf("class %s: %.4f\n", d.Classes[z], p)
	}
	// Output:
	// class 0: 0.5178
	// class 1: 0.4822
}
