package pairwise_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/pairwise"
)

func ExampleBradleyTerry() {
	// Which answer is better? Crowd-Kit's columns: the label is the
	// chosen item.
	const comparisons = `worker,left,right,label
w1,answer-a,answer-b,answer-a
w2,answer-a,answer-b,answer-a
w3,answer-b,answer-a,answer-b
w1,answer-b,answer-c,answer-b
w2,answer-c,answer-b,answer-b
w3,answer-a,answer-c,answer-a
`
	c, err := pairwise.ReadComparisons(context.Background(), strings.NewReader(comparisons), "answers.csv", "", pairwise.Columns{}, dataio.ReadSettings{})
	if err != nil {
		log.Fatal(err)
	}
	r, err := pairwise.BradleyTerry{}.Fit(context.Background(), c)
	if err != nil {
		log.Fatal(err)
	}
	for _, i := range r.Ranking() {
		fmt.Printf("%s score %.3f, %d of %d won\n", r.Items[i], r.Scores[i], r.Wins[i], r.Games[i])
	}
	fmt.Printf("P(answer-a beats answer-c) = %.3f\n", r.WinProbability(0, 2))
	// Output:
	// answer-a score 0.723, 3 of 4 won
	// answer-b score 0.333, 3 of 5 won
	// answer-c score -1.130, 0 of 3 won
	// P(answer-a beats answer-c) = 0.864
}

func ExampleNoisyBT() {
	// Comparisons from 40 workers, 30 % of whom click at random.
	c, truth, err := pairwise.Simulate(pairwise.SimSettings{Items: 200, Workers: 40, Comparisons: 20000, Spammers: 0.3, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	r, err := pairwise.NoisyBT{}.Fit(context.Background(), c)
	if err != nil {
		log.Fatal(err)
	}
	spammers, found, wrong := 0, 0, 0
	for w, s := range r.Skills {
		switch spam := truth.Skills[w] < 0.1; {
		case spam && s < 0.3:
			found++
			spammers++
		case spam:
			spammers++
		case s < 0.3:
			wrong++
		}
	}
	fmt.Println("converged:", r.Converged)
	fmt.Printf("spammers found: %d of %d, workers taken for spammers wrongly: %d\n", found, spammers, wrong)
	// Output:
	// converged: true
	// spammers found: 14 of 14, workers taken for spammers wrongly: 0
}
