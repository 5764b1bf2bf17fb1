package theory_test

import (
	"fmt"

	"github.com/consensuslab/consensus/theory"
)

// The paper's motivating example: 110 ones and 100 zeros from 210 workers
// who are right with probability 0.8.
func Example() {
	la := theory.LAPosterior(110, 210, 0.8, 0.5)
	da := theory.DAEstimate(110, 210, 0.8)
	fmt.Printf("LA: 1 - %.4g\n", 1-la)
	fmt.Printf("DA: %.4f\n", da)
	// Output:
	// LA: 1 - 9.537e-07
	// DA: 0.5397
}

// The expectation of the LA estimate under the DA process is biased
// (Proposition 1) and moves towards 0 or 1 as the number of labels grows,
// while the unclipped DA estimate is unbiased (Proposition 2).
func ExampleExpectedLA() {
	const a, r = 0.8, 0.5
	for _, q := range []float64{0.1, 0.3, 0.5, 0.7} {
		fmt.Printf("q=%.1f  E[LA] n=5: %.3f  n=20: %.3f  n=2000: %.3f  limit: %.1f\n",
			q, theory.ExpectedLA(q, a, r, 5), theory.ExpectedLA(q, a, r, 20),
			theory.ExpectedLA(q, a, r, 2000), theory.LimitLA(q, a, r))
	}
	// Output:
	// q=0.1  E[LA] n=5: 0.156  n=20: 0.014  n=2000: 0.000  limit: 0.0
	// q=0.3  E[LA] n=5: 0.314  n=20: 0.147  n=2000: 0.000  limit: 0.0
	// q=0.5  E[LA] n=5: 0.500  n=20: 0.500  n=2000: 0.500  limit: 0.5
	// q=0.7  E[LA] n=5: 0.686  n=20: 0.853  n=2000: 1.000  limit: 1.0
}

// Clipping the DA estimate to [0, 1] biases it near the bounds; the
// unclipped estimate has expectation exactly q.
func ExampleExpectedDA() {
	const a, n = 0.8, 10
	for _, q := range []float64{0, 0.3, 1} {
		unclipped := theory.Expectation(q, a, n, func(n1 int) float64 {
			return theory.DAUnclipped(n1, n, a)
		})
		fmt.Printf("q=%.1f  clipped: %.4f  unclipped: %.4f\n", q, theory.ExpectedDA(q, a, n), unclipped)
	}
	// Output:
	// q=0.0  clipped: 0.0805  unclipped: 0.0000
	// q=0.3  clipped: 0.3112  unclipped: 0.3000
	// q=1.0  clipped: 0.9195  unclipped: 1.0000
}

// At q = 1/2 the paper's limit is the prior r, but the expectation of the
// LA estimate tends to 1/2 whatever r is.
func ExampleLimitLA() {
	fmt.Printf("limit %.2f, E at n=2000: %.2f\n", theory.LimitLA(0.5, 0.8, 0.3), theory.ExpectedLA(0.5, 0.8, 0.3, 2000))
	// Output:
	// limit 0.30, E at n=2000: 0.49
}
