package vb_test

import (
	"context"
	"fmt"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
)

// ExampleBayes fits vb-da-ds, Bayesian Dawid-Skene under DA (the label
// distributions fitted jointly with the workers), to a shipped data set
// and evaluates it on the gold labels.
func ExampleBayes() {
	d, gold, err := datasets.Load("temp")
	if err != nil {
		panic(err)
	}
	m := vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}} // vb-da-ds
	res, err := m.Fit(context.Background(), d, nil)
	if err != nil {
		panic(err)
	}
	q := res.Dist(0)
	fmt.Printf("%s converged: %v\n", res.Model, res.Converged)
	fmt.Printf("task %s: P(%s) = %.3f, P(%s) = %.3f\n", d.Tasks[0], d.Classes[0], q[0], d.Classes[1], q[1])
	s, err := metrics.Evaluate(res.Probs, d.NumClasses(), gold, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("accuracy %.3f, log loss %.3f\n", s.Accuracy, s.LogLoss)
	// Output:
	// vb-da-ds converged: true
	// task 42_0: P(1) = 0.943, P(2) = 0.057
	// accuracy 0.942, log loss 0.260
}

// ExampleBayes_both fits the default model of the command line, vb-ds: the
// posterior of every task's true class in Probs and its label
// distribution in Distribution.
func ExampleBayes_both() {
	d, gold, err := datasets.Load("temp")
	if err != nil {
		panic(err)
	}
	m := vb.Bayes{Noise: noise.DS{}.WithSharedPrior(), Latent: latent.LA{}, Both: true} // vb-ds
	res, err := m.Fit(context.Background(), d, nil)
	if err != nil {
		panic(err)
	}
	k := d.NumClasses()
	p, q := res.Dist(0), res.Distribution[:k]
	fmt.Printf("%s converged: %v\n", res.Model, res.Converged)
	fmt.Printf("task %s: P(true class %s) = %.3f, q(%s) = %.3f\n", d.Tasks[0], d.Classes[0], p[0], d.Classes[0], q[0])
	s, err := metrics.Evaluate(res.Probs, k, gold, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("accuracy %.3f, ECE %.3f\n", s.Accuracy, s.ECE)
	// Output:
	// vb-ds converged: true
	// task 42_0: P(true class 1) = 0.996, q(1) = 0.944
	// accuracy 0.939, ECE 0.039
}
