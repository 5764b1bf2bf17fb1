package dsmix

import (
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// betaWorkerLabels bounds the labels of a worker that CavityBetas reads
// (the first ones): the distribution of its count of right labels costs
// the square of them, and one worker is one draw from the prior however
// busy it is.
const betaWorkerLabels = 200

// betaKindWorkers and betaKindShare are the least weight of workers
// (their probabilities of the kind, summed), in all and as a share of the
// workers, whose labels CavityBetas fits a kind's prior to: a kind of
// fewer keeps its prior. The few workers of a small kind are those the
// other kinds fit worst, and the round after round of fits ran its prior
// away (on a crowd of 200 workers of whom 20% spammers, with 2% of them
// one-coin, to accuracy 0; on 2,000 light workers at K = 10, 2% one-coin,
// its concentration from 50 to 3.6 over ten rounds, still falling).
const (
	betaKindWorkers = 10
	betaKindShare   = 0.1
)

// CavityBetas returns the Beta prior of the workers' accuracies, (a, b),
// that maximises the cavity marginal likelihood of the labels at K > 2,
//
//	Σ_w u_w log Σ_m E_w(m) B(a + m, b + n_w − m) / B(a, b),
//
// where E_w(m) is the sum over the sets S of m of worker w's n_w labels of
// Π_{i∈S} r_i Π_{i∉S} s_i, r_i the cavity probability (its task's
// posterior without the label) that label i names its task's class and
// s_i = Σ_{z≠y_i} q_i(z) μ_z(y_i) the cavity probability of its error
// under the crowd's pattern: each label's probability given the worker's
// accuracy a_w is r_i a_w + s_i (1 − a_w), with a_w integrated out; and
// likewise (a_c, b_c) of the per-class kind, its accuracies read as one
// (u_w is the worker's probability of the kind); a kind whose workers
// weigh less than betaKindWorkers, or betaKindShare of them all, keeps its
// prior. labels holds every worker's labels' pairs (r_i, s_i)
// (CavityPairs). Every concentration is at most MaxConcentration, every
// value at least MinPrior.
func (x *Mix) CavityBetas(labels [][][2]float64) (a, b, ac, bc float64) {
	cl := x.cls
	if cl == nil {
		return x.a, x.b, 0, 0
	}
	coin, class := make([]float64, len(x.m)), make([]float64, len(x.m))
	for w, m := range x.m {
		coin[w], class[w] = max(1-m-cl.m[w], 0), cl.m[w]
	}
	a, b = cavityBeta(labels, coin, x.a, x.b)
	ac, bc = cavityBeta(labels, class, cl.a, cl.b)
	return a, b, ac, bc
}

// cavityBeta is CavityBetas's maximiser for one kind: the workers weighted
// by u (their probabilities of the kind), from the prior (a0, b0).
func cavityBeta(labels [][][2]float64, u []float64, a0, b0 float64) (a, b float64) {
	type worker struct {
		u  float64
		m  []int     // the counts m whose E_w(m) is kept
		le []float64 // log E_w(m) of each, scaled to a largest value of 1
		n  int
	}
	var ws []worker
	var total, all float64
	for w, ls := range labels {
		if len(ls) > 0 {
			all++
		}
		u := u[w]
		if u <= 0 || len(ls) == 0 {
			continue
		}
		ls = ls[:min(len(ls), betaWorkerLabels)]
		e := []float64{1}
		for _, rs := range ls {
			next := addTrial(e, rs[0], rs[1])
			num.DivideByMax(next)
			e = next
		}
		wk := worker{u: u, n: len(ls)}
		for m, v := range e {
			if v >= cebPrune { // e's largest value is 1
				wk.m, wk.le = append(wk.m, m), append(wk.le, math.Log(v))
			}
		}
		ws = append(ws, wk)
		total += u
	}
	if total < betaKindWorkers || total < betaKindShare*all {
		return a0, b0
	}
	// θ = (logit of the mean, log of the concentration).
	ab := func(t []float64) (float64, float64) {
		mu := 1 / (1 + math.Exp(-t[0]))
		s := min(math.Exp(t[1]), MaxConcentration)
		return max(mu*s, MinPrior), max((1-mu)*s, MinPrior)
	}
	maxN := 0
	for _, w := range ws {
		maxN = max(maxN, w.n)
	}
	// Rising factorials' logarithms, log Γ(x + m) − log Γ(x) for m ≤ maxN,
	// of a, b and a + b: log B(a + m, b + n − m) − log B(a, b) =
	// la[m] + lb[n − m] − lab[n].
	la, lb, lab := make([]float64, maxN+1), make([]float64, maxN+1), make([]float64, maxN+1)
	rising := func(dst []float64, x float64) {
		for m := 1; m < len(dst); m++ {
			dst[m] = dst[m-1] + math.Log(x+float64(m-1))
		}
	}
	negLL := func(t []float64) float64 {
		a, b := ab(t)
		rising(la, a)
		rising(lb, b)
		rising(lab, a+b)
		var ll float64
		for _, w := range ws {
			top := math.Inf(-1)
			for i, m := range w.m {
				top = max(top, w.le[i]+la[m]+lb[w.n-m])
			}
			var sum float64
			for i, m := range w.m {
				sum += math.Exp(w.le[i] + la[m] + lb[w.n-m] - top)
			}
			ll += w.u * (top + math.Log(sum) - lab[w.n])
		}
		return -ll
	}
	start := []float64{math.Log(a0 / b0), math.Log(min(a0+b0, MaxConcentration*0.99))}
	res, err := optimize.Minimize(optimize.Problem{Func: negLL}, start, &optimize.Settings{
		MajorIterations: 200,
		// Stop once ten iterations gain less than 10⁻⁶ in the log
		// likelihood (gonum's default waits for a hundred).
		Converger: &optimize.FunctionConverge{Absolute: 1e-6, Iterations: 10},
	}, &optimize.NelderMead{})
	if err != nil && res == nil {
		return a0, b0
	}
	return ab(res.X)
}

// Pattern returns the crowd's pattern of errors μ_z(y) at z·K + y (0 on
// the diagonal), as the last Counts set it.
func (x *Mix) Pattern() []float64 { return x.mu }

// CavityPairs returns every worker's labels' cavity pairs (r_i, s_i) of
// Mix.CavityBetas under the pattern mu (μ_z(y) at z·K + y, Mix.Pattern):
// each label's cavity probabilities q_i(z) (LabelCavities) give r_i =
// q_i(y_i) and s_i = Σ_{z≠y_i} q_i(z) μ_z(y_i).
func CavityPairs(d *data.Dataset, k int, post, cav, mu []float64, factors func(j int, r, p []float64)) [][][2]float64 {
	out := make([][][2]float64, d.NumWorkers())
	LabelCavities(d, k, post, cav, factors, func(i int, q []float64) {
		y := int(d.Label[i])
		var right, wrong float64
		for z, v := range q {
			if z == y {
				right = v
			} else {
				wrong += v * mu[z*k+y]
			}
		}
		w := d.Worker[i]
		out[w] = append(out[w], [2]float64{right, wrong})
	})
	return out
}

// LabelCavities calls f, for every label i of d in order, with the
// label's cavity probabilities q_i(z) of its task's classes: its task's
// cavity posterior cav (J×K) divided by the label's own factor and
// normalised. factors(j, r, p) writes the factors of task j's labels, K
// each, given its posterior r (a row of post, J×K), as
// noise.CavityProber's CavityProbs does. q is reused from call to call.
func LabelCavities(d *data.Dataset, k int, post, cav []float64, factors func(j int, r, p []float64), f func(i int, q []float64)) {
	var p []float64
	q := make([]float64, k)
	for j := range d.NumTasks() {
		lo, hi := d.Offsets[j], d.Offsets[j+1]
		if n := int(hi-lo) * k; cap(p) < n {
			p = make([]float64, n)
		}
		p = p[:int(hi-lo)*k]
		factors(j, post[j*k:(j+1)*k], p)
		c := cav[j*k : (j+1)*k]
		for i := lo; i < hi; i++ {
			fi := p[(i-lo)*k : (i-lo+1)*k]
			var s float64
			for z := range k {
				q[z] = c[z] / max(fi[z], cavityFloor)
				s += q[z]
			}
			for z := range k {
				q[z] /= s
			}
			f(i, q)
		}
	}
}

// cavityFloor bounds a label's factor below in LabelCavities, against
// division by zero.
const cavityFloor = 1e-12
