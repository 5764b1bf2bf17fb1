package dirichlet

import "math"

// Sampled holds the errors of whole-number counts, weighted, for the
// likelihood of the precision κ of Dirichlet(κ μ_z) errors: with counts
// C(z, y) drawn rather than expected, log Γ(κ μ + C) − log Γ(κ μ) is the
// sum Σ_{c<C} log(κ μ + c), so that every row's likelihood is read from
// histograms of the counts (Minka, Estimating a Dirichlet distribution,
// 2000, section 3.1),
//
//	L(κ) = Σ_{z, y≠z} Σ_c H_zy(c) log(κ μ_z(y) + c) − Σ_z Σ_c G_z(c) log(κ + c),
//
// with H_zy(c) the weight of the rows whose count C(z, y) exceeds c and
// G_z(c) that of the rows whose errors e_z exceed c. Its zero value is
// ready for counts of any K; all calls of Add must have the same K.
type Sampled struct {
	k    int
	cell [][]float64 // H_zy, at z·K + y (nil on the diagonal)
	row  [][]float64 // G_z
}

// Add adds one worker's counts of errors, off (K×K row-major: C(z, y) at
// z·K + y, the diagonal not read), with weight u.
func (s *Sampled) Add(k int, off []int32, u float64) {
	if u <= 0 {
		return
	}
	if s.k == 0 {
		s.k, s.cell, s.row = k, make([][]float64, k*k), make([][]float64, k)
	}
	for z := range k {
		var e int32
		for y, n := range off[z*k : (z+1)*k] {
			if y == z || n <= 0 {
				continue
			}
			e += n
			s.cell[z*k+y] = addAbove(s.cell[z*k+y], int(n), u)
		}
		if e > 0 {
			s.row[z] = addAbove(s.row[z], int(e), u)
		}
	}
}

// addAbove adds u to h[c] for every c < n, growing h as needed.
func addAbove(h []float64, n int, u float64) []float64 {
	for len(h) < n {
		h = append(h, 0)
	}
	for c := range n {
		h[c] += u
	}
	return h
}

// slope returns dL/d log κ at κ = kap for the pattern mu (μ_z(y) at
// z·K + y): κ [Σ H_zy(c) μ_z(y) / (κ μ_z(y) + c) − Σ G_z(c) / (κ + c)].
func (s *Sampled) slope(kap float64, mu []float64) float64 {
	var d float64
	for i, hc := range s.cell {
		m := mu[i]
		for c, w := range hc {
			d += w * m / (kap*m + float64(c))
		}
	}
	for _, gc := range s.row {
		for c, w := range gc {
			d -= w / (kap + float64(c))
		}
	}
	return kap * d
}

// Precision returns the κ in [lo, hi] that maximises L for the pattern mu
// (μ_z(y) at z·K + y, summing to 1 over y ≠ z in every row), by bisection
// on the sign of dL/d log κ (L has one maximum in log κ or none, when it
// rises to the bound); lo with no counts.
func (s *Sampled) Precision(mu []float64, lo, hi float64) float64 {
	if s.k == 0 {
		return lo
	}
	a, b := math.Log(lo), math.Log(hi)
	if s.slope(hi, mu) >= 0 {
		return hi
	}
	if s.slope(lo, mu) <= 0 {
		return lo
	}
	for b-a > 1e-6 {
		t := (a + b) / 2
		if s.slope(math.Exp(t), mu) > 0 {
			a = t
		} else {
			b = t
		}
	}
	return math.Exp((a + b) / 2)
}
