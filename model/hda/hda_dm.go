package hda

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/optimize"
)

// The bounds of the Dirichlet-multinomial estimates: α within
// [dmMinAlpha, dmMaxAlpha] (the upper bound is where the likelihood of
// counts with no overdispersion stops growing), every p_z at least dmMinP.
const (
	dmMinAlpha = 1e-3
	dmMaxAlpha = 1e4
	dmMinP     = 1e-6
)

// FitDirichletMultinomial returns the maximum-likelihood concentration α
// and mean p of the Dirichlet-multinomial distribution of the rows of
// counts (J×K, nonnegative, not necessarily integers): the maximiser of
//
//	Σ_j [log Γ(α) - log Γ(α + n_j) + Σ_z log Γ(α p_z + m_j(z)) - log Γ(α p_z)],
//
// n_j = Σ_z m_j(z), over rows with n_j > 0. A positive alpha or a non-nil p
// is held fixed. α is kept within [1e-3, 1e4] (1e4 when the counts show no
// overdispersion, where the likelihood grows up to α = ∞) and every p_z is
// at least 1e-6. Integer counts up to 255 (such as data.Dataset.Counts)
// are summed into histograms first (dmHist), which makes the cost of an
// evaluation independent of J.
func FitDirichletMultinomial(counts []float64, k int, alpha float64, p []float64) (float64, []float64) {
	if alpha > 0 && p != nil {
		return alpha, p
	}
	// Start at α = K and p at the smoothed pooled frequencies.
	tot := make([]float64, k)
	var all float64
	for i, v := range counts {
		tot[i%k] += v
		all += v
	}
	a0 := float64(k)
	if alpha > 0 {
		a0 = alpha
	}
	p0 := p
	if p == nil {
		p0 = make([]float64, k)
		for z := range k {
			p0[z] = (tot[z] + 1) / (all + float64(k))
		}
	}
	rows := len(counts) / k
	if h, ok := countHist(counts, k); ok {
		return h.fit(a0, p0, alpha > 0, p != nil, float64(rows))
	}
	return dmFit(a0, p0, alpha > 0, p != nil, float64(rows), lgammaDM(counts, k))
}

// dmHist is the sufficient statistic of a Dirichlet-multinomial
// likelihood of count vectors of at most nmax labels, possibly weighted:
// ns[n] is the weight of the vectors of n labels and h[z·(nmax+1) + v]
// that of those with v labels of class z. With the tail sums
// H(s) = Σ_{n>s} ns[n] and G_z(s) = Σ_{v>s} h_z(v), the log-likelihood is
//
//	Σ_s [Σ_z G_z(s) log(a_z + s) - H(s) log(α + s)],    α = Σ_z a_z,
//
// since log Γ(a + v) - log Γ(a) = Σ_{s<v} log(a + s): an evaluation costs
// K·nmax logarithms whatever the number of vectors.
type dmHist struct {
	k, nmax int
	ns      []float64 // nmax + 1
	h       []float64 // K·(nmax + 1)
}

// countHist returns the histograms of the rows of counts (J×K), and false
// if a count is not an integer in [0, 255].
func countHist(counts []float64, k int) (dmHist, bool) {
	nmax := 0
	for j := 0; j+k <= len(counts); j += k {
		var n float64
		for _, c := range counts[j : j+k] {
			if c != math.Trunc(c) || c < 0 || c > maxPolyLabels {
				return dmHist{}, false
			}
			n += c
		}
		nmax = max(nmax, int(n))
	}
	h := dmHist{k: k, nmax: nmax, ns: make([]float64, nmax+1), h: make([]float64, k*(nmax+1))}
	for j := 0; j+k <= len(counts); j += k {
		n := 0
		for z, c := range counts[j : j+k] {
			h.h[z*(nmax+1)+int(c)]++
			n += int(c)
		}
		h.ns[n]++
	}
	return h, true
}

// fit returns the maximiser (α, p) of the histograms' log-likelihood,
// started from (a0, p0), with α (fixA) or p (fixP) held at the start;
// rows scales the gradient tolerance.
func (h dmHist) fit(a0 float64, p0 []float64, fixA, fixP bool, rows float64) (float64, []float64) {
	k, m := h.k, h.nmax+1
	// The tail sums; entries with n or v = 0 do not enter.
	hs := make([]float64, m)
	gs := make([]float64, k*m)
	for s := m - 2; s >= 0; s-- {
		hs[s] = hs[s+1] + h.ns[s+1]
		for z := range k {
			gs[z*m+s] = gs[z*m+s+1] + h.h[z*m+s+1]
		}
	}
	f := func(a, grad []float64) float64 {
		var alpha float64
		for _, v := range a {
			alpha += v
		}
		var v, ga float64
		for s := range m - 1 {
			if hs[s] != 0 {
				v -= hs[s] * math.Log(alpha+float64(s))
				ga -= hs[s] / (alpha + float64(s))
			}
		}
		for z := range k {
			grad[z] = ga
			g := gs[z*m : (z+1)*m]
			for s := range m - 1 {
				if g[s] != 0 {
					v += g[s] * math.Log(a[z]+float64(s))
					grad[z] += g[s] / (a[z] + float64(s))
				}
			}
		}
		return v
	}
	return dmFit(a0, p0, fixA, fixP, rows, f)
}

// lgammaDM returns the Dirichlet-multinomial log-likelihood of the rows of
// counts (J×K, any nonnegative numbers) and its gradient in a, for dmFit.
func lgammaDM(counts []float64, k int) func(a, grad []float64) float64 {
	rows := len(counts) / k
	lgz := make([]float64, k)
	psiz := make([]float64, k)
	return func(a, grad []float64) float64 {
		var alpha float64
		for _, v := range a {
			alpha += v
		}
		var v float64
		clear(grad)
		lgA, _ := math.Lgamma(alpha)
		psiA := mathext.Digamma(alpha)
		for z := range a {
			lgz[z], _ = math.Lgamma(a[z])
			psiz[z] = mathext.Digamma(a[z])
		}
		for j := range rows {
			row := counts[j*k : (j+1)*k]
			var n float64
			for _, c := range row {
				n += c
			}
			if n <= 0 {
				continue
			}
			lg, _ := math.Lgamma(alpha + n)
			v += lgA - lg
			dA := psiA - mathext.Digamma(alpha+n)
			for z, c := range row {
				grad[z] += dA
				if c > 0 {
					lc, _ := math.Lgamma(a[z] + c)
					v += lc - lgz[z]
					grad[z] += mathext.Digamma(a[z]+c) - psiz[z]
				}
			}
		}
		return v
	}
}

// dmFit maximises a Dirichlet-multinomial log-likelihood f(a, grad), which
// returns its value at a = α p and writes its gradient in a into grad, over
// log α and the logits of p by L-BFGS, from (a0, p0), with α (fixA) or p
// (fixP) held at the start; α stays within [dmMinAlpha, dmMaxAlpha] and
// every p_z at least dmMinP. rows scales the gradient tolerance.
func dmFit(a0 float64, p0 []float64, fixA, fixP bool, rows float64, f func(a, grad []float64) float64) (float64, []float64) {
	k := len(p0)
	x := make([]float64, k+1) // log α, logits of p
	x[0] = math.Log(a0)
	for z := range k {
		x[1+z] = math.Log(max(p0[z], dmMinP))
	}
	ap := make([]float64, k)
	pp := make([]float64, k)
	grad := make([]float64, k)
	unpack := func(x []float64) float64 {
		a := math.Exp(min(max(x[0], math.Log(dmMinAlpha)), math.Log(dmMaxAlpha)))
		num.SoftmaxFrom(pp, x[1:], num.LogSumExp(x[1:]))
		for z := range ap {
			pp[z] = max(pp[z], dmMinP)
			ap[z] = a * pp[z]
		}
		return a
	}
	obj := func(x, g []float64) float64 {
		a := unpack(x)
		v := f(ap, grad)
		if g != nil {
			// Chain rule to log α and the logits of p.
			var ga, mean float64
			for z := range ap {
				ga += ap[z] * grad[z]
				mean += pp[z] * grad[z]
			}
			g[0] = -ga
			if fixA {
				g[0] = 0
			}
			for z := range ap {
				g[1+z] = -a * pp[z] * (grad[z] - mean)
				if fixP {
					g[1+z] = 0
				}
			}
		}
		return -v
	}
	prob := optimize.Problem{
		Func: func(x []float64) float64 { return obj(x, nil) },
		Grad: func(g, x []float64) { obj(x, g) },
	}
	res, _ := optimize.Minimize(prob, x, &optimize.Settings{GradientThreshold: 1e-6 * max(rows, 1), MajorIterations: 200}, &optimize.LBFGS{})
	if res != nil {
		copy(x, res.X)
	}
	a := unpack(x)
	if fixA {
		a = a0
	}
	if fixP {
		return a, append([]float64(nil), p0...)
	}
	out := append([]float64(nil), pp...)
	var s float64
	for _, v := range out {
		s += v
	}
	for z := range out {
		out[z] /= s
	}
	return a, out
}
