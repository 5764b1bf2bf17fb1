package plan

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// workerSample is an importance sample of one worker's confusion matrix
// π, drawn from a proposal q: for every draw, the sums D = Σ_z log π(z, z)
// and O = Σ_{z≠y} log π(z, y) that a symmetric Dirichlet prior's density
// reads, the balanced accuracy, and base = log L(π) − log q(π), where
//
//	L(π) = Π_i Σ_z r_i(z) π(z, y_i)
//
// is the likelihood of the worker's labels y_i given its tasks' class
// posteriors r_i from their other labels. Under a prior of the rows p(π),
// the draw's importance weight is exp(base + log p(π)), and the mean of the
// weights estimates the worker's marginal likelihood.
type workerSample struct {
	diag, off, acc, base []float64
	// coin is the log likelihood of the worker's labels as a one-coin
	// worker at the nodes of coinLikelihood's grid.
	coin []float64
	// labels counts the worker's labels of every class.
	labels []float64
	// lm holds the log marginal likelihood under every prior of the
	// population's grid, once fitPopulation has computed it (nil before).
	lm []float64
}

// sampleWorker draws the sample of a worker whose labels are those listed
// (indices into d's labels; r holds every label's class posterior, K a
// label) and whose expected counts are c (K×K), draws draws, from a
// generator seeded with (seed, w). The proposal takes every row z from
// Dirichlet(1 + c(z, ·)/2): the counts' Dirichlet posterior widened, as
// the counts are soft (a label whose task is uncertain counts a little
// for every class), which makes the worker look less sure than its labels
// say.
func sampleWorker(labels []int32, y []uint16, r, c []float64, k, draws int, seed, w uint64) *workerSample {
	s := &workerSample{diag: make([]float64, draws), off: make([]float64, draws), acc: make([]float64, draws), base: make([]float64, draws), coin: make([]float64, coinNodes)}
	coinLikelihood(labels, y, r, k, s.coin)
	s.labels = make([]float64, k)
	for _, i := range labels {
		s.labels[y[i]]++
	}
	src := rand.NewPCG(seed, w)
	prop := make([]float64, k*k)
	var lb float64
	for z := range k {
		for x := range k {
			prop[z*k+x] = 1 + c[z*k+x]/2
		}
		lb += logBeta(prop[z*k : (z+1)*k])
	}
	// The labels' classes and their tasks' posteriors, gathered: every
	// draw reads them all.
	yw, rw := make([]int, len(labels)), make([]float64, len(labels)*k)
	for t, i := range labels {
		yw[t] = int(y[i])
		copy(rw[t*k:(t+1)*k], r[int(i)*k:(int(i)+1)*k])
	}
	pi := make([]float64, k*k)
	for t := range draws {
		lq := -lb
		var diag, off, acc float64
		for z := range k {
			row := pi[z*k : (z+1)*k]
			var sum float64
			for x := range k {
				row[x] = distuv.Gamma{Alpha: prop[z*k+x], Beta: 1, Src: src}.Rand()
				sum += row[x]
			}
			for x := range k {
				row[x] = max(row[x]/sum, 1e-300)
				l := math.Log(row[x])
				lq += (prop[z*k+x] - 1) * l
				if x == z {
					diag += l
				} else {
					off += l
				}
			}
			acc += row[z]
		}
		prod, ll := 1.0, 0.0
		for u, yi := range yw {
			var m float64
			for z, x := range rw[u*k : (u+1)*k] {
				m += x * pi[z*k+yi]
			}
			if prod *= m; prod < 1e-200 {
				ll += math.Log(prod)
				prod = 1
			}
		}
		s.diag[t], s.off[t], s.acc[t] = diag, off, acc/float64(k)
		s.base[t] = ll + math.Log(prod) - lq
	}
	return s
}

// symmetric is a symmetric Dirichlet prior of a K×K confusion matrix:
// every row's mean puts mu on the diagonal and spreads the rest evenly,
// with concentration conc.
type symmetric struct{ mu, conc float64 }

// logWeights writes every draw's log importance weight under the prior
// into dst and returns the log of their mean, the log marginal likelihood.
func (s *workerSample) logWeights(p symmetric, k int, dst []float64) float64 {
	a, b := p.mu*p.conc, (1-p.mu)*p.conc/float64(k-1)
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lc, _ := math.Lgamma(p.conc)
	norm := float64(k) * (la + float64(k-1)*lb - lc)
	top := math.Inf(-1)
	for t := range s.base {
		dst[t] = s.base[t] + (a-1)*s.diag[t] + (b-1)*s.off[t] - norm
		top = max(top, dst[t])
	}
	var sum float64
	for _, l := range dst {
		sum += math.Exp(l - top)
	}
	return top + math.Log(sum/float64(len(dst)))
}

// logMarginal returns the log marginal likelihood of the worker's labels
// under the component's prior.
func (s *workerSample) logMarginal(c component, k int) float64 {
	if s.lm != nil {
		return s.lm[c.index]
	}
	switch c.form {
	case formSpam:
		return spamMarginal(s.labels, c.prior.conc)
	case formCoin:
		return coinWeights(s.coin, c.nodes, make([]float64, coinNodes))
	}
	return s.logWeights(c.prior, k, make([]float64, len(s.base)))
}

// weightedQuantile returns the q-quantile of the values of pairs, sorted
// by value, whose weights sum to one: the first value whose cumulative
// weight reaches q.
func weightedQuantile(pairs []weighted, q float64) float64 {
	var cum float64
	for _, x := range pairs {
		if cum += x.w; cum >= q {
			return x.v
		}
	}
	return pairs[len(pairs)-1].v
}

// sortWeighted sorts pairs by value.
func sortWeighted(pairs []weighted) {
	slices.SortFunc(pairs, func(a, b weighted) int { return cmp.Compare(a.v, b.v) })
}
