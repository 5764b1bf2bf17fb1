package num

import "math"

// MixtureWeights sets p (k values, a start inside the simplex) to the
// maximiser of the log-likelihood of mixture weights,
//
//	ℓ(p) = Σ_i log Σ_z p_z L_iz,
//
// over the simplex with every p_z at least floor (k·floor < 1), where lik
// holds the likelihoods L_iz of n = len(lik)/k items, row-major (any
// positive scale per item). ℓ is concave in p. Each step is EM's, p_z ←
// mean_i p_z L_iz / Σ_z' p_z' L_iz', then raised to the floor (the others
// scaled down by one factor), accelerated by SQUAREM
// (Varadhan and Roland 2008, scheme S3) where that raises ℓ: EM alone
// crawls where two components explain the items almost equally. It stops
// when no weight moves by more than tol, or after maxSteps extrapolations,
// and returns ℓ at p.
func MixtureWeights(lik []float64, k int, floor float64, p []float64) float64 {
	const (
		tol      = 1e-10
		maxSteps = 200
	)
	p0, p1, p2 := make([]float64, k), make([]float64, k), make([]float64, k)
	ext, e := make([]float64, k), make([]float64, k) // the extrapolation, and its EM step
	copy(p0, p)
	l0 := mixtureLogLik(lik, k, p0)
	for range maxSteps {
		mixtureEM(lik, k, floor, p0, p1)
		mixtureEM(lik, k, floor, p1, p2)
		var rr, vv float64
		for z := range k {
			r, v := p1[z]-p0[z], p2[z]-2*p1[z]+p0[z]
			rr += r * r
			vv += v * v
		}
		next, lnext := p2, mixtureLogLik(lik, k, p2)
		if vv > 0 {
			// p' = p0 − 2αr + α²v with α = −‖r‖/‖v‖ ≤ −1, then one EM step.
			a := -math.Sqrt(rr / vv)
			if a < -1 {
				ok := true
				for z := range k {
					r, v := p1[z]-p0[z], p2[z]-2*p1[z]+p0[z]
					ext[z] = p0[z] - 2*a*r + a*a*v
					ok = ok && ext[z] >= floor
				}
				if ok {
					mixtureEM(lik, k, floor, ext, e)
					if le := mixtureLogLik(lik, k, e); le >= lnext {
						next, lnext = e, le
					}
				}
			}
		}
		var moved float64
		for z := range k {
			moved = max(moved, math.Abs(next[z]-p0[z]))
		}
		copy(p0, next)
		l0 = lnext
		if moved <= tol {
			break
		}
	}
	copy(p, p0)
	return l0
}

// mixtureEM writes into dst EM's step from p for MixtureWeights, with
// every weight raised to floor.
func mixtureEM(lik []float64, k int, floor float64, p, dst []float64) {
	clear(dst)
	n := len(lik) / k
	for i := range n {
		l := lik[i*k : (i+1)*k]
		var s float64
		for z, v := range l {
			s += p[z] * v
		}
		if s <= 0 {
			continue
		}
		for z, v := range l {
			dst[z] += p[z] * v / s
		}
	}
	var tot float64
	for _, v := range dst {
		tot += v
	}
	if tot <= 0 {
		copy(dst, p)
		return
	}
	for z := range dst {
		dst[z] /= tot
	}
	floorWeights(dst, floor)
}

// floorWeights raises every weight of p (summing to 1) below floor to it
// and scales the others by one factor so that they sum to the rest,
// until none is below floor: at a fixed point of EM's step followed by
// it, every free weight's mean responsibility ratio is the same, the
// Karush-Kuhn-Tucker condition of the floored maximum.
func floorWeights(p []float64, floor float64) {
	for range len(p) {
		var low, free float64
		for _, v := range p {
			if v <= floor {
				low++
			} else {
				free += v
			}
		}
		if free <= 0 {
			return
		}
		f := (1 - low*floor) / free
		changed := false
		for z, v := range p {
			if v <= floor {
				p[z] = floor
				continue
			}
			p[z] = v * f
			changed = changed || p[z] < floor
		}
		if !changed {
			return
		}
	}
}

// mixtureLogLik returns Σ_i log Σ_z p_z L_iz, the logarithms of a block of
// items in one MathLogTo call (bit for bit math.Log's).
func mixtureLogLik(lik []float64, k int, p []float64) float64 {
	var l float64
	var s [64]float64
	for i := 0; i+k <= len(lik); {
		m := 0
		for ; m < len(s) && i+k <= len(lik); i, m = i+k, m+1 {
			var si float64
			for z, v := range lik[i : i+k] {
				si += p[z] * v
			}
			s[m] = si
		}
		MathLogTo(s[:m], s[:m])
		for _, v := range s[:m] {
			l += v
		}
	}
	return l
}
