package dsmix

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"

	"github.com/consensuslab/consensus/internal/num"
)

// CavityEB is the cavity empirical Bayes objective of the two kinds at
// K = 2: the log marginal likelihood of every worker's labels with its
// confusion integrated out under each kind's prior and the class of each
// of its tasks drawn from the task's posterior without the worker's label
// (the cavity posterior), summed over the workers,
//
//	Σ_w log(ρ L_full,w(β) + (1 − ρ) L_coin,w(a, b)),
//	L_coin,w = Σ_c P_w(c) B(a + c, b + n_w − c) / B(a, b),
//	L_full,w = Σ_{c,c'} A_w(c) D_w(c') Π_z B(β_z + C_z(c, c')) / B(β_z),
//
// where P_w is the distribution of the number of w's labels that match
// their tasks' classes (a Poisson-binomial of the cavity probabilities
// q_i(y_i)), A_w and D_w those of the numbers of its labels 0 and 1 on
// tasks of class 0, and C_0 = (c, c'), C_1 = (n_0 − c, n_1 − c') the
// counts they give the rows. A mean-field fit counts every label twice,
// in its task's posterior and in its worker's counts, which makes light
// workers look alike and runs the priors' concentrations to their cap;
// the cavity takes the label out of its task's side. A worker with more
// than cebExact labels enters with its expected counts instead of the
// distributions (its counts hardly vary).
type CavityEB struct {
	ws   []cebWorker
	maxN int // the most labels of a worker counted exactly
	// Scratch of the rising factorials' tables, by the parameter.
	lf, df [9][]float64
}

// cebExact is the most labels of a worker whose counts' distributions
// CavityEB holds; a busier worker enters with its expected counts.
const cebExact = 64

// cebPrune is the least probability, relative to the largest, of a count
// (or pair of counts) that CavityEB keeps: on tasks whose cavity
// posteriors are sure the distributions hold many that add nothing.
const cebPrune = 1e-12

// cebWorker is one worker's share of CavityEB: the distribution P and
// the pairs (c, c') of A and D with their probabilities, or with frac its
// expected counts.
type cebWorker struct {
	n0, n1 int
	p      []float64
	pairs  []cebPair
	frac   bool
	c      [4]float64 // expected counts of (z, y): 00, 01, 10, 11
}

// cebPair is a pair of counts (c, c') of the full kind and its
// probability A(c) D(c').
type cebPair struct {
	c, c2 int
	p     float64
}

// Add adds a worker with labels y (0 or 1) whose tasks' cavity
// probabilities of class 0 are q0.
func (e *CavityEB) Add(y []int, q0 []float64) {
	var w cebWorker
	for i, l := range y {
		if l == 0 {
			w.n0++
			w.c[0] += q0[i]
			w.c[2] += 1 - q0[i]
		} else {
			w.n1++
			w.c[1] += q0[i]
			w.c[3] += 1 - q0[i]
		}
	}
	if len(y) == 0 {
		return
	}
	if len(y) > cebExact {
		w.frac = true
		e.ws = append(e.ws, w)
		return
	}
	a, d := []float64{1}, []float64{1}
	w.p = []float64{1}
	for i, l := range y {
		right := q0[i] // the label matches its task's class
		if l == 1 {
			right = 1 - q0[i]
			d = poissonBinomial(d, q0[i])
		} else {
			a = poissonBinomial(a, q0[i])
		}
		w.p = poissonBinomial(w.p, right)
	}
	top := 0.0
	for _, v := range w.p {
		top = max(top, v)
	}
	for c, v := range w.p {
		if v < cebPrune*top {
			w.p[c] = 0
		}
	}
	top = 0
	for _, pa := range a {
		for _, pd := range d {
			top = max(top, pa*pd)
		}
	}
	for c, pa := range a {
		for c2, pd := range d {
			if pa*pd >= cebPrune*top {
				w.pairs = append(w.pairs, cebPair{c, c2, pa * pd})
			}
		}
	}
	e.maxN = max(e.maxN, len(y))
	e.ws = append(e.ws, w)
}

// poissonBinomial returns the distribution of a count dist with one more
// trial of success probability p.
func poissonBinomial(dist []float64, p float64) []float64 {
	return addTrial(dist, p, 1-p)
}

// addTrial returns the weights of a count dist after one more trial that
// adds 1 with weight right and 0 with weight wrong (not necessarily
// summing to 1).
func addTrial(dist []float64, right, wrong float64) []float64 {
	out := make([]float64, len(dist)+1)
	for c, v := range dist {
		out[c] += v * wrong
		out[c+1] += v * right
	}
	return out
}

// The order of the parameters in CavityEB's vector x: logit ρ, log a,
// log b and log β_z(y), row-major.
const (
	cebRho = iota
	cebA
	cebB
	cebBeta
	cebDim = cebBeta + 4
)

// LogLik returns the objective at x (logit ρ, log a, log b, log β_00,
// log β_01, log β_10, log β_11) and, if grad is not nil, writes its
// gradient there.
func (e *CavityEB) LogLik(x, grad []float64) float64 {
	rho := 1 / (1 + math.Exp(-x[cebRho]))
	var v [cebDim]float64
	for i := cebA; i < cebDim; i++ {
		v[i] = math.Exp(x[i])
	}
	// Rising factorials' tables: log Γ(p + c) − log Γ(p) and its
	// derivative in p, for the parameters a, b, a + b, β_00, β_01, their
	// sum, β_10, β_11 and their sum.
	par := [9]float64{v[cebA], v[cebB], v[cebA] + v[cebB], v[3], v[4], v[3] + v[4], v[5], v[6], v[5] + v[6]}
	for t, p := range par {
		lf, df := e.lf[t][:0], e.df[t][:0]
		lf, df = append(lf, 0), append(df, 0)
		for c := range e.maxN {
			lf = append(lf, lf[c]+math.Log(p+float64(c)))
			df = append(df, df[c]+1/(p+float64(c)))
		}
		e.lf[t], e.df[t] = lf, df
	}
	var g [cebDim]float64
	var ll float64
	for i := range e.ws {
		w := &e.ws[i]
		var gc [2]float64 // d log L_coin / d(a, b)
		var gf [4]float64 // d log L_full / d β
		var lc, lfull float64
		if w.frac {
			lc, gc = fracCoin(par[0], par[1], w.c[0]+w.c[3], w.c[1]+w.c[2])
			l0, g0 := fracCoin(par[3], par[4], w.c[0], w.c[1])
			l1, g1 := fracCoin(par[6], par[7], w.c[2], w.c[3])
			lfull, gf = l0+l1, [4]float64{g0[0], g0[1], g1[0], g1[1]}
		} else {
			lc, gc = e.coin(w)
			lfull, gf = e.full(w)
		}
		// log(ρ L_full + (1 − ρ) L_coin) and each kind's share of it.
		hf, hc := math.Log(rho)+lfull, math.Log1p(-rho)+lc
		m := max(hf, hc)
		lw := m + math.Log(math.Exp(hf-m)+math.Exp(hc-m))
		ll += lw
		if grad == nil {
			continue
		}
		sf, sc := math.Exp(hf-lw), math.Exp(hc-lw)
		g[cebRho] += sf - rho
		g[cebA] += sc * gc[0] * v[cebA]
		g[cebB] += sc * gc[1] * v[cebB]
		for j := range 4 {
			g[cebBeta+j] += sf * gf[j] * v[cebBeta+j]
		}
	}
	if grad != nil {
		copy(grad, g[:])
	}
	return ll
}

// fracCoin returns log B(a + c, b + e) − log B(a, b) and its gradient in
// (a, b).
func fracCoin(a, b, c, e float64) (float64, [2]float64) {
	l := num.LogBeta(a+c, b+e) - num.LogBeta(a, b)
	s := num.Digamma(a+b+c+e) - num.Digamma(a+b)
	return l, [2]float64{num.Digamma(a+c) - num.Digamma(a) - s, num.Digamma(b+e) - num.Digamma(b) - s}
}

// coin returns log L_coin of w and its gradient in (a, b), from the
// tables (tables 0, 1 and 2).
func (e *CavityEB) coin(w *cebWorker) (float64, [2]float64) {
	n := len(w.p) - 1
	m := math.Inf(-1)
	for c, p := range w.p {
		if p > 0 {
			m = max(m, e.lf[0][c]+e.lf[1][n-c])
		}
	}
	var s, ga, gb float64
	for c, p := range w.p {
		if p > 0 {
			t := p * math.Exp(e.lf[0][c]+e.lf[1][n-c]-m)
			s += t
			ga += t * e.df[0][c]
			gb += t * e.df[1][n-c]
		}
	}
	return m + math.Log(s) - e.lf[2][n], [2]float64{ga/s - e.df[2][n], gb/s - e.df[2][n]}
}

// full returns log L_full of w and its gradient in β, from the tables
// (tables 3 to 8).
func (e *CavityEB) full(w *cebWorker) (float64, [4]float64) {
	term := func(c, c2 int) float64 {
		return e.lf[3][c] + e.lf[4][c2] - e.lf[5][c+c2] + e.lf[6][w.n0-c] + e.lf[7][w.n1-c2] - e.lf[8][w.n0-c+w.n1-c2]
	}
	m := math.Inf(-1)
	for _, q := range w.pairs {
		m = max(m, term(q.c, q.c2))
	}
	var s float64
	var g [4]float64
	for _, q := range w.pairs {
		c, c2 := q.c, q.c2
		t := q.p * math.Exp(term(c, c2)-m)
		s += t
		r0, r1 := e.df[5][c+c2], e.df[8][w.n0-c+w.n1-c2]
		g[0] += t * (e.df[3][c] - r0)
		g[1] += t * (e.df[4][c2] - r0)
		g[2] += t * (e.df[6][w.n0-c] - r1)
		g[3] += t * (e.df[7][w.n1-c2] - r1)
	}
	for j := range g {
		g[j] /= s
	}
	return m + math.Log(s), g
}

// Maximise returns the state (laid out as Mix.State at K = 2: β_00, β_01,
// β_10, β_11, ρ, a, b) that maximises the objective from the state st and
// from the fixed prior's (β_z(z) = 2, β_z(y) = 1, a = 2, b = 1), whichever
// start reaches the higher value, with the full kind's share ρ held at
// its floor, minMixShare, over the three Beta priors' means (a / (a + b)
// and each row's accuracy) and one concentration s they share (a + b =
// Σ_y β_z(y) = s). Light workers' labels do not tell the kinds apart: with
// ρ free and a concentration for each kind the objective is maximised by
// a sharp kind beside a broad one, and the refit under those priors came
// out sure of itself (on issue 39's four crowds of two classes, ECE 0.023
// to 0.042; with ρ free and one concentration, 0.014 to 0.043; with ρ
// held, 0.006 to 0.025, and the log loss lowest of the three on all
// four). The state is within the mixture's bounds: every pseudo-count at
// least MinPrior and s at most MaxConcentration. It returns st and false
// if the search fails.
func (e *CavityEB) Maximise(st []float64) ([]float64, bool) {
	// The value and gradient of the last point: the search asks for both
	// at most points, in two calls.
	var at, grad []float64
	var val float64
	eval := func(r []float64) {
		if at != nil && slices.Equal(at, r) {
			return
		}
		at, grad = append(at[:0], r...), make([]float64, len(r))
		val = e.tiedLogLik(r, grad)
	}
	p := optimize.Problem{
		Func: func(r []float64) float64 {
			eval(r)
			return -val
		},
		Grad: func(g, r []float64) {
			eval(r)
			for i := range g {
				g[i] = -grad[i]
			}
		},
	}
	var best []float64
	bestF := math.Inf(1)
	for _, s0 := range [][]float64{st, {2, 1, 1, 2, minMixShare, 2, 1}} {
		// A search that stops short (a failed line search) still gives
		// its best point.
		res, _ := optimize.Minimize(p, tiedStart(s0), &optimize.Settings{GradientThreshold: 1e-6, MajorIterations: 200}, &optimize.BFGS{})
		if res == nil || !num.AllFinite(res.X) {
			continue
		}
		if res.F < bestF {
			best, bestF = res.X, res.F
		}
	}
	if best == nil {
		return st, false
	}
	x := tiedPoint(best)
	out := make([]float64, len(st))
	copy(out, st)
	for z := range 2 {
		out[2*z], out[2*z+1] = bounded(math.Exp(x[cebBeta+2*z]), math.Exp(x[cebBeta+2*z+1]))
	}
	out[4] = minMixShare
	out[5], out[6] = bounded(math.Exp(x[cebA]), math.Exp(x[cebB]))
	return out, true
}

// tiedLogLik returns LogLik at the tied parameters r (tiedPoint) and, if
// grad is not nil, writes its gradient in r there.
func (e *CavityEB) tiedLogLik(r, grad []float64) float64 {
	if grad == nil {
		return e.LogLik(tiedPoint(r), nil)
	}
	var g [cebDim]float64
	ll := e.LogLik(tiedPoint(r), g[:])
	mc, m0, m1 := num.Sigmoid(r[1]), num.Sigmoid(r[2]), num.Sigmoid(r[3])
	grad[0] = g[cebA] + g[cebB] + g[3] + g[4] + g[5] + g[6]
	grad[1] = g[cebA]*(1-mc) - g[cebB]*mc
	grad[2] = g[3]*(1-m0) - g[4]*m0
	grad[3] = g[6]*(1-m1) - g[5]*m1
	return ll
}

// tiedPoint returns LogLik's vector of the tied parameters r: log s and
// the logits of the one-coin kind's mean and of the rows' accuracies
// β_00 / s and β_11 / s, with ρ = minMixShare.
func tiedPoint(r []float64) []float64 {
	mc, m0, m1 := num.Sigmoid(r[1]), num.Sigmoid(r[2]), num.Sigmoid(r[3])
	ls := r[0]
	return []float64{math.Log(minMixShare / (1 - minMixShare)), ls + math.Log(mc), ls + math.Log1p(-mc), ls + math.Log(m0), ls + math.Log1p(-m0), ls + math.Log1p(-m1), ls + math.Log(m1)}
}

// tiedStart returns the tied parameters of the state st, its
// concentrations averaged.
func tiedStart(st []float64) []float64 {
	logit := func(m float64) float64 { return math.Log(m / (1 - m)) }
	s := (st[0] + st[1] + st[2] + st[3] + st[5] + st[6]) / 3
	return []float64{math.Log(s), logit(st[5] / (st[5] + st[6])), logit(st[0] / (st[0] + st[1])), logit(st[3] / (st[2] + st[3]))}
}

// bounded returns the pseudo-counts (p, q) at least MinPrior, scaled to
// a sum of at most MaxConcentration.
func bounded(p, q float64) (float64, float64) {
	p, q = max(p, MinPrior), max(q, MinPrior)
	s := min(1, MaxConcentration/(p+q))
	return p * s, q * s
}
