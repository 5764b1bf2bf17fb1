package num

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPick checks Pick's frequencies against the weights on 10⁵ draws,
// with and without a total other than 1, and that a zero weight is never
// drawn.
func TestPick(t *testing.T) {
	for _, tc := range []struct {
		weight []float64
		total  float64
	}{
		{[]float64{0.2, 0.5, 0.3}, 1},
		{[]float64{2, 0, 6}, 8},
	} {
		rng := rand.New(rand.NewPCG(1, 2))
		const n = 100_000
		count := make([]float64, len(tc.weight))
		for range n {
			count[Pick(rng, tc.weight, tc.total)]++
		}
		for i, w := range tc.weight {
			want := w / tc.total
			if got := count[i] / n; math.Abs(got-want) > 0.01 || (w == 0 && got != 0) {
				t.Errorf("weights %v: index %d drawn %.4f of the time, want %.4f", tc.weight, i, got, want)
			}
		}
	}
}
