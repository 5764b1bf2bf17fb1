package compare_test

import (
	"context"
	"fmt"
	"log"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/model"
)

// Auto makes the recommendation, the choice of "consensus fit --model
// auto", "consensus compare" and "consensus report": among AutoModels, the
// model whose workers best predict held-out labels, without gold. The
// chosen model is then fitted to all the labels.
func ExampleAuto() {
	d, _, err := datasets.Load("temp")
	if err != nil {
		log.Fatal(err)
	}
	choice, err := compare.Auto(context.Background(), d, compare.AutoSettings{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range choice.Candidates {
		fmt.Printf("%-10s %s %.4f\n", c.Model, choice.Criterion, c.Score)
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
	// vb-ds      likelihood 0.3299
	// vb-onecoin likelihood 0.6257
	// vb-glad    likelihood 0.6168
	// chose vb-ds converged: true
}
