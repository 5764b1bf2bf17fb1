package model

import (
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/consensuslab/consensus/internal/num"
)

// maxStates bounds the number of count vectors of one object's polynomial
// (see objectPoly); an object with more is left out of the marginal
// likelihood and keeps its MAP output.
const maxStates = 50000

// objectPoly is the likelihood of one object's labels as a polynomial in
// its distribution q:
//
//	Π_{i ∈ j} Σ_z q(z) P(y_i | z) = Σ_c A(c) Π_z q(z)^{c(z)},
//
// summed over the count vectors c of subjective classes (Σ_z c(z) = n_j).
// The coefficients do not depend on the prior, so the marginal likelihood
// under Dirichlet(α p),
//
//	∫ Dir(q | α p) Σ_c A(c) Π_z q(z)^{c(z)} dq = Σ_c A(c) [Γ(α)/Γ(α + n)] Π_z Γ(α p_z + c(z))/Γ(α p_z),
//
// and the posterior mean of q, E[q(z) | labels] = Σ_c w(c) (α p_z + c(z))/(α + n)
// with w(c) the normalised terms of that sum, cost one pass over the states
// for every (α, p).
type objectPoly struct {
	n      int
	counts []uint8   // K per state
	logA   []float64 // log A(c)
}

// buildPolys expands the polynomial of every object at the fitted noise
// parameters of r. Objects with more than 255 labels or maxStates states
// get a nil entry.
func buildPolys(r *Result) []*objectPoly {
	d := r.Data
	k := d.NumClasses()
	r.obj.setParams(r.Params)
	polys := make([]*objectPoly, d.NumTasks())
	most := 0
	for j := range d.Tasks {
		most = max(most, d.Offsets[j+1]-d.Offsets[j])
	}
	l := make([]float64, most*k)
	for j := range d.Tasks {
		n := d.Offsets[j+1] - d.Offsets[j]
		if n == 0 || n > 255 || binom(n+k-1, k-1) > maxStates {
			continue
		}
		r.obj.noise.LogProb(j, l[:n*k])
		idx := map[string]int{}
		cur := &objectPoly{counts: make([]uint8, k), logA: []float64{0}}
		for i := 0; i < n; i++ {
			next := &objectPoly{n: i + 1}
			clear(idx)
			key := make([]uint8, k)
			for s := range cur.logA {
				c := cur.counts[s*k : (s+1)*k]
				for z := 0; z < k; z++ {
					copy(key, c)
					key[z]++
					v := cur.logA[s] + l[i*k+z]
					if t, ok := idx[string(key)]; ok {
						a := next.logA[t]
						hi, lo := max(a, v), min(a, v)
						if !math.IsInf(hi, -1) {
							next.logA[t] = hi + math.Log1p(math.Exp(lo-hi))
						}
						continue
					}
					idx[string(key)] = len(next.logA)
					next.counts = append(next.counts, key...)
					next.logA = append(next.logA, v)
				}
			}
			cur = next
		}
		polys[j] = cur
	}
	return polys
}

func binom(n, k int) int {
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
		if r > 1<<40 {
			return r
		}
	}
	return r
}

// risingLog fills t[c] = log Γ(a + c) - log Γ(a) = Σ_{s<c} log(a + s) for
// c = 0..len(t)-1.
func risingLog(t []float64, a float64) {
	t[0] = 0
	for c := 1; c < len(t); c++ {
		t[c] = t[c-1] + math.Log(a+float64(c-1))
	}
}

// marginal returns the log marginal likelihood Σ_j log Σ_c A_j(c) DM(c | α p)
// of the objects' polynomials and, if mean is not nil, writes every
// object's posterior mean of q into it (J×K, rows of objects without a
// polynomial untouched).
func marginal(polys []*objectPoly, k int, alpha float64, p []float64, mean []float64) float64 {
	most := 0
	for _, pl := range polys {
		if pl != nil {
			most = max(most, pl.n)
		}
	}
	ra := make([]float64, most+1)
	risingLog(ra, alpha)
	rz := make([][]float64, k)
	for z := range rz {
		rz[z] = make([]float64, most+1)
		risingLog(rz[z], alpha*p[z])
	}
	var total float64
	var buf num.Buf
	acc := num.Scratch(&buf, k)
	var terms []float64
	for j, pl := range polys {
		if pl == nil {
			continue
		}
		terms = terms[:0]
		for s, la := range pl.logA {
			v := la - ra[pl.n]
			for z, c := range pl.counts[s*k : (s+1)*k] {
				v += rz[z][c]
			}
			terms = append(terms, v)
		}
		lse := num.LogSumExp(terms)
		total += lse
		if mean == nil {
			continue
		}
		clear(acc)
		for s, v := range terms {
			w := math.Exp(v - lse)
			for z, c := range pl.counts[s*k : (s+1)*k] {
				acc[z] += w * (alpha*p[z] + float64(c))
			}
		}
		for z := range acc {
			mean[j*k+z] = acc[z] / (alpha + float64(pl.n))
		}
	}
	return total
}

// marginalEB returns the α and p that maximise the marginal likelihood of
// the polynomials (Nelder-Mead over log α and the logits of p; a positive
// fixA or non-nil fixP is held), starting from (alpha, p). α stays within
// [1e-3, 1e4]. It also returns the log marginal likelihood at them.
func marginalEB(polys []*objectPoly, k int, alpha float64, p []float64, fixA float64, fixP []float64) (float64, []float64, float64) {
	const minA, maxA = 1e-3, 1e4
	unpack := func(x []float64) (float64, []float64) {
		a := fixA
		if a <= 0 {
			a = math.Exp(min(max(x[0], math.Log(minA)), math.Log(maxA)))
		}
		if fixP != nil {
			return a, fixP
		}
		q := make([]float64, k)
		q[k-1] = 0
		copy(q, x[1:])
		lse := num.LogSumExp(q)
		num.SoftmaxFrom(q, q, lse)
		for z := range q {
			q[z] = max(q[z], 1e-6)
		}
		return a, q
	}
	// x = [log α, logits of p_0..p_{K-2} relative to p_{K-1}].
	x := make([]float64, k)
	x[0] = math.Log(alpha)
	for z := 0; z < k-1; z++ {
		x[1+z] = math.Log(max(p[z], 1e-6) / max(p[k-1], 1e-6))
	}
	f := func(x []float64) float64 {
		a, q := unpack(x)
		return -marginal(polys, k, a, q, nil)
	}
	res, _ := optimize.Minimize(optimize.Problem{Func: f}, x, &optimize.Settings{
		MajorIterations: 400,
		FuncEvaluations: 2000,
		Converger:       &optimize.FunctionConverge{Absolute: 1e-6, Iterations: 50},
	}, &optimize.NelderMead{})
	best := f(x)
	if res != nil && res.F <= best {
		x, best = res.X, res.F
	}
	a, q := unpack(x)
	return a, q, -best
}
