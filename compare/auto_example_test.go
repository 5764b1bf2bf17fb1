package compare_test

import (
	"context"
	"fmt"
	"log"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/model"
)

// Auto chooses among the candidate models on held-out labels, without
// gold; the chosen model is then fitted to all the labels.
func ExampleAuto() {
	d, _, err := datasets.Load("temp")
	if err != nil {
		log.Fatal(err)
	}
	choice, err := compare.Auto(context.Background(), d, compare.AutoOptions{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range choice.Candidates {
		fmt.Printf("%-9s %s %.4f\n", c.Model, choice.Criterion, c.Score)
	}
	est, err := model.ByName(choice.Model)
	if err != nil {
		log.Fatal(err)
	}
	res, err := est.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("chose", res.Model, "converged:", res.Converged)
	// Output:
	// vb-ds     output-reliable 0.5586
	// vb-da-ds  output-reliable 0.3464
	// vb-hda-ds output-reliable 0.4248
	// chose vb-da-ds converged: true
}
