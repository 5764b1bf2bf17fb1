package ebcc_test

import (
	"context"
	"fmt"
	"log"

	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model/ebcc"
	"github.com/consensuslab/consensus/sim"
)

// EBCC on the correlated regime: two prolific workers call a subtype of
// class 0 class 1, and EBCC's subtypes keep their shared mistake from
// outvoting the other workers.
func ExampleEBCC() {
	c, err := sim.Regime("correlated", 1)
	if err != nil {
		log.Fatal(err)
	}
	d, truth, err := sim.Simulate(c)
	if err != nil {
		log.Fatal(err)
	}
	r, err := ebcc.EBCC{}.Fit(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	acc, err := metrics.Accuracy(r.Probs, d.NumClasses(), truth.Gold(), 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("accuracy %.3f on %d tasks\n", acc, d.NumTasks())
	// Output:
	// accuracy 0.925 on 4000 tasks
}
