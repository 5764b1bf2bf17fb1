package temper

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// The range of the temperature τ that Best searches.
const (
	Min = 0.02
	Max = 1
)

// Best returns the τ ∈ [Min, Max] that maximises the
// held-out score Σ_i log Σ_z softmax(τ·loo_i)(z) pc_i(z) over the K-long
// rows loo_i and pc_i: golden-section search on log τ, then τ = 1 unless
// the best τ scores more than ½ log n above it for n rows. The score takes
// one logarithm in all (of the product of the rows' predictions, kept in
// range by num.Product), and at K = 2 one exponential a row, of the
// difference of its two entries of loo.
func Best(loo, pc []float64, k int) float64 {
	score := Score(loo, pc, k)
	_, best, lo, hi := num.GoldenMax(math.Log(Min), math.Log(Max), 24, func(lt float64) float64 {
		return score(math.Exp(lt))
	})
	// τ < 1 is taken only when it predicts the labels better by more than
	// half a nat per logarithm of their number (the Bayesian information
	// criterion's price of one parameter): on a handful of labels the
	// criterion is noise, and τ would spread every posterior for nothing.
	if n := float64(len(loo) / k); best-score(Max) <= 0.5*math.Log(n) {
		return Max
	}
	return math.Exp((lo + hi) / 2)
}

// block is the number of rows whose exponentials Score takes in one call.
const block = 1024

// Score returns Best's score of τ, Σ_i log Σ_z softmax(τ·loo_i)(z) pc_i(z),
// for the K-long rows loo_i and pc_i of loo and pc.
func Score(loo, pc []float64, k int) func(tau float64) float64 {
	if k == 2 {
		// softmax(τ l)·c = (c_0 + c_1 e^{τ d}) / (1 + e^{τ d}) with
		// d = l_1 − l_0, from the exponential of −τ|d| ≤ 0: |d| and the
		// pair (c_0, c_1), swapped where d > 0, are taken once, and the
		// exponentials of a score in one call (num.MathExpTo, math.Exp's
		// values four at a time).
		n := len(loo) / 2
		abs, c0s, c1s, e := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range abs {
			d := loo[2*i+1] - loo[2*i]
			c0, c1 := pc[2*i], pc[2*i+1]
			if d > 0 {
				c0, c1 = c1, c0
			}
			abs[i], c0s[i], c1s[i] = math.Abs(d), c0, c1
		}
		return func(tau float64) float64 {
			for i, a := range abs {
				e[i] = -tau * a
			}
			num.MathExpTo(e, e)
			prod := num.NewProduct()
			c0s, c1s := c0s[:len(e)], c1s[:len(e)]
			for i, ei := range e {
				prod.Mul(max((c0s[i]+c1s[i]*ei)/(1+ei), 1e-300))
			}
			return prod.Log()
		}
	}
	// For a block of rows at a time, every row's τ·loo_i − max_z
	// τ·loo_i(z) first (the max by maxNaN: a ±0 maximum gives the same
	// differences' exponentials), then their exponentials in one call
	// (num.MathExpTo, math.Exp's values four at a time), and the rows'
	// sums in the order of z.
	e := make([]float64, min(len(loo), block*k))
	return func(tau float64) float64 {
		prod := num.NewProduct()
		for lo := 0; lo < len(loo); lo += len(e) {
			ls := loo[lo:min(lo+len(e), len(loo))]
			es := e[:len(ls)]
			for i := 0; i < len(ls); i += k {
				x := es[i : i+k]
				top := math.Inf(-1)
				for z, l := range ls[i : i+k] {
					x[z] = tau * l
					top = maxNaN(top, x[z])
				}
				for z := range x {
					x[z] -= top
				}
			}
			num.MathExpTo(es, es)
			for i := 0; i < len(ls); i += k {
				var pred, den float64
				for z, ez := range es[i : i+k] {
					den += ez
					pred += ez * pc[lo+i+z]
				}
				prod.Mul(max(pred/den, 1e-300))
			}
		}
		return prod.Log()
	}
}

// maxNaN returns max(a, b) for a and b that are not −0: the larger, or NaN
// if b is NaN.
func maxNaN(a, b float64) float64 {
	if b > a || b != b {
		return b
	}
	return a
}

// Rows replaces every row ρ_j of probs (J×K) by ρ_j^τ / Σ_z ρ_j(z)^τ
// mixed with floor of the uniform distribution, except the rows of tasks
// of known class (gold[j] ≥ 0; gold may be nil).
func Rows(probs []float64, k int, gold []int, tau, floor float64) {
	for j := 0; j < len(probs); j += k {
		if gold != nil && gold[j/k] >= 0 {
			continue
		}
		row := probs[j : j+k]
		top := 0.0
		for _, v := range row {
			top = max(top, v)
		}
		var s float64
		for z, v := range row {
			row[z] = v / top
			if tau != 1 { // math.Pow(x, 1) is x
				row[z] = math.Pow(row[z], tau)
			}
			s += row[z]
		}
		u := floor / float64(k)
		for z := range row {
			row[z] = (1-floor)*row[z]/s + u
		}
	}
}
