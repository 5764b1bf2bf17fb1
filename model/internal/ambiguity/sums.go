package ambiguity

import (
	"math"
	"slices"
)

// Prior holds the hyperparameters of λ ~ Beta(U, V), the share of a task's
// label distribution off the vertex of its true class. U = 0 is LA: no
// ambiguity.
type Prior struct {
	U, V float64
}

// pairSums writes into e (grown as needed) the n+1 sums ẽ_0 … ẽ_n of every
// pair of classes c < d in order, for the per-label probabilities lk (n×K),
// and returns it. A pair's sums that fall below 10⁻²⁰⁰ are rescaled on the
// way and scaled back at the end, so that they underflow only where they
// are negligible beside the task's other pairs.
func pairSums(lk []float64, n, k int, e []float64) []float64 {
	size := k * (k - 1) / 2 * (n + 1)
	e = slices.Grow(e[:0], size)[:size]
	p := 0
	for c := range k {
		for d := c + 1; d < k; d++ {
			v := e[p*(n+1) : (p+1)*(n+1)]
			v[0] = 1
			var extra float64
			for i := range n {
				a, b := lk[i*k+c], lk[i*k+d]
				// ẽ'_m = ((i+1−m)·a·ẽ_m + m·b·ẽ_{m−1}) / (i+1)
				inv := 1 / float64(i+1)
				v[i+1] = b * v[i]
				for m := i; m >= 1; m-- {
					v[m] = (float64(i+1-m)*a*v[m] + float64(m)*b*v[m-1]) * inv
				}
				v[0] *= a
				if i%16 == 15 {
					top := 0.0
					for _, x := range v[:i+2] {
						top = max(top, x)
					}
					if top > 0 && top < 1e-200 {
						for m := range v[:i+2] {
							v[m] /= top
						}
						extra += math.Log(top)
					}
				}
			}
			if extra != 0 {
				f := math.Exp(extra)
				for m := range v {
					v[m] *= f
				}
			}
			p++
		}
	}
	return e
}

// weights writes the beta-binomial probabilities BB_n(m; U, V), m = 0 … n,
// into dst (grown as needed) and returns it; for U = 0, the point mass at
// m = 0.
func (pr Prior) weights(n int, dst []float64) []float64 {
	dst = slices.Grow(dst[:0], n+1)[:n+1]
	if pr.U == 0 {
		clear(dst)
		dst[0] = 1
		return dst
	}
	u, v := pr.U, pr.V
	lg := func(x float64) float64 { r, _ := math.Lgamma(x); return r }
	base := lg(float64(n)+1) + lg(u+v) - lg(u) - lg(v) - lg(u+v+float64(n))
	for m := range n + 1 {
		dst[m] = math.Exp(base - lg(float64(m)+1) - lg(float64(n-m)+1) + lg(u+float64(m)) + lg(v+float64(n-m)))
	}
	return dst
}

// marginal writes into ml the marginal likelihood ML_c of every class c
// from the pair sums e of a task with n labels, the beta-binomial weights
// bb and the distractors' weights w (K×K).
func marginal(e []float64, n, k int, bb, w, ml []float64) {
	clear(ml)
	p := 0
	for c := range k {
		for d := c + 1; d < k; d++ {
			v := e[p*(n+1) : (p+1)*(n+1)]
			var sc, sd float64
			for m, x := range v {
				sc += x * bb[m]
				sd += x * bb[n-m]
			}
			ml[c] += w[c*k+d] * sc
			ml[d] += w[d*k+c] * sd
			p++
		}
	}
}
