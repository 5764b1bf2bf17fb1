package num

import "math/rand/v2"

// Pick draws an index i with probability weight[i]/total, by one uniform
// draw of rng: the first i at which the running sum of the weights passes
// u·total (the last index if rounding leaves none).
func Pick(rng *rand.Rand, weight []float64, total float64) int {
	u := rng.Float64() * total
	for i, x := range weight {
		u -= x
		if u < 0 {
			return i
		}
	}
	return len(weight) - 1
}
