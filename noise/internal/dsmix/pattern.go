package dsmix

import "gonum.org/v1/gonum/mathext"

// BetterThanChance returns, for each of the w workers whose expected
// counts acc holds (laid out as dsVB's), the weight of its counts in the
// crowd's prior (noise's learnPrior): for K > 2 the probability that its accuracy
// exceeds chance, P(a_w > 1/K) with a_w ~ Beta(1 + c_w, 1 + e_w), c_w and
// e_w its expected counts on and off the diagonal, and 1 at K = 2.
//
// Why: a worker worse than chance (an adversary, who reports a class
// beside the one it saw) makes its errors by a rule of its own, and its
// errors are many. Counted in the crowd's pattern of errors, which the
// one-coin and per-class kinds of worker follow (Mix), they skew it
// towards its rule, and the honest workers' errors are then read as
// falling there (K = 5, two labels a task, 50 workers of whom 5 report
// the next class: honest workers' fitted P(z+1 | z) three times their
// true one).
func BetterThanChance(acc []float64, k, w int) []float64 {
	omega := make([]float64, w)
	k2 := k * k
	for i := range omega {
		omega[i] = 1
		if k <= 2 {
			continue
		}
		var c, e float64
		for z := range k {
			for y := range k {
				n := max(acc[countAt(i*k2, k, z, y)], 0)
				if y == z {
					c += n
				} else {
					e += n
				}
			}
		}
		omega[i] = 1 - mathext.RegIncBeta(1+c, 1+e, 1/float64(k))
	}
	return omega
}
