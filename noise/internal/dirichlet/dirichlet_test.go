package dirichlet

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/consensuslab/consensus/internal/num"
)

// counts returns the counts of w workers at K = k: every row's errors
// drawn around a random pattern, from busy rows to rows of counts below
// 10⁻⁸ (most of a light worker's) and rows of none, and the pattern's
// logarithms.
func counts(w, k int) (Counts, []float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	c := Counts{K: k, Off: make([]float64, w*k*k), E: make([]float64, w*k)}
	lpat := make([]float64, k*k)
	for z := range k {
		var s float64
		for y := range k {
			if y != z {
				lpat[z*k+y] = rng.ExpFloat64()
				s += lpat[z*k+y]
			}
		}
		for y := range k {
			if y != z {
				lpat[z*k+y] = math.Log(lpat[z*k+y] / s)
			}
		}
	}
	for i := range w * k {
		scale := []float64{0, 1e-9, 0.3, 5, 40}[i%5]
		for y := range k {
			if y != i%k {
				n := scale * rng.ExpFloat64()
				c.Off[i*k+y] = n
				c.E[i] += n
			}
		}
	}
	return c, lpat
}

// TestFill checks the batched values against their formulas computed one
// term at a time: every worker's evidence E_w(κ), and Row's expectations
// and divergence, against num.DirichletExpLog and num.DirichletKL.
func TestFill(t *testing.T) {
	const w, k = 30, 4
	c, lpat := counts(w, k)
	var s Scratch
	for _, kap := range []float64{0.3, 4, 50} {
		e := New(kap, k, w)
		e.Fill(c, lpat, &s)
		errs := make([]float64, k)
		for wk := range w {
			var ev float64
			for z := range k {
				var prior, post []float64
				for y := range k {
					if y != z {
						p := kap * math.Exp(lpat[z*k+y])
						prior = append(prior, p)
						post = append(post, p+c.Off[(wk*k+z)*k+y])
					}
				}
				ev += num.DirichletLogNorm(prior) - num.DirichletLogNorm(post) // log B(post) − log B(prior)
				kl := e.Row(c, wk, z, errs)
				want := make([]float64, len(post))
				num.DirichletExpLog(want, post)
				i := 0
				for y := range k {
					if y == z {
						continue
					}
					// ψ(Σ post) and ψ(κ + e_wz) differ in rounding, and
					// mathext.Digamma's series is accurate to about 1e-10
					// where the rounding crosses its switch at 7.
					if d := math.Abs(errs[y] - want[i]); d > 1e-9 {
						t.Errorf("κ %g, worker %d, row %d: E[log ε(%d)] = %g, want %g", kap, wk, z, y, errs[y], want[i])
					}
					i++
				}
				if wkl := num.DirichletKL(post, prior, want, num.DirichletLogNorm(prior)); math.Abs(kl-wkl) > 1e-9*max(1, math.Abs(wkl)) {
					t.Errorf("κ %g, worker %d, row %d: divergence %g, want %g", kap, wk, z, kl, wkl)
				}
			}
			if math.Abs(e.Ev[wk]-ev) > 1e-9*max(1, math.Abs(ev)) {
				t.Errorf("κ %g, worker %d: evidence %g, want %g", kap, wk, e.Ev[wk], ev)
			}
		}
	}
}

// TestPrecisionStep checks that PrecisionStep, repeated with Fill, ends at
// a stationary point of the weighted evidence Σ_w u_w E_w(κ), by its
// derivative in finite differences.
func TestPrecisionStep(t *testing.T) {
	const w, k = 60, 5
	c, lpat := counts(w, k)
	u := make([]float64, w)
	for i := range u {
		u[i] = float64(i%3) / 2
	}
	var s Scratch
	e := New(1, k, w)
	for range 100 {
		e.Fill(c, lpat, &s)
		e.Kap = e.PrecisionStep(c, u, 0.01, 1e6)
	}
	lik := func(p []float64) float64 {
		f := New(p[0], k, w)
		f.Fill(c, lpat, &s)
		var l float64
		for i, v := range u {
			l += v * f.Ev[i]
		}
		return l
	}
	g := fd.Gradient(nil, lik, []float64{e.Kap}, &fd.Settings{Formula: fd.Central, Step: 1e-5 * e.Kap})
	t.Logf("κ %.5g, derivative %.3g", e.Kap, g[0])
	if math.Abs(g[0]*e.Kap) > 1e-5 {
		t.Errorf("κ %g: derivative %g of the evidence at the end", e.Kap, g[0])
	}
	// The check can see a wrong κ: 20% off, the derivative is far from 0.
	off := fd.Gradient(nil, lik, []float64{1.2 * e.Kap}, nil)
	if off[0]*e.Kap > -0.1 {
		t.Errorf("derivative %g at 1.2 κ: the evidence does not fall beyond the maximum", off[0])
	}
}
