package plan

import "math"

// coinNodes is the number of points of the midpoint grid on [0, 1] over
// which a one-coin worker's accuracy is integrated.
const coinNodes = 200

// coinAcc returns the accuracy at node g of the grid.
func coinAcc(g int) float64 { return (float64(g) + 0.5) / coinNodes }

// coinLikelihood writes into dst (coinNodes long) the log likelihood of
// a worker's labels (indices into the labels y, whose class posteriors
// from their tasks' other labels r holds, K a label) at every node of the
// grid, when the worker is a one-coin worker: right with probability acc
// whatever the true class, its errors spread evenly over the other
// classes, so that label i has probability a·acc + (1 − a)(1 − acc)/(K −
// 1), a = r_i(y_i).
func coinLikelihood(labels []int32, y []uint16, r []float64, k int, dst []float64) {
	clear(dst)
	prod := make([]float64, coinNodes)
	for g := range prod {
		prod[g] = 1
	}
	off := 1 / float64(k-1)
	for _, i := range labels {
		a := r[int(i)*k+int(y[i])]
		b := (1 - a) * off
		for g := range prod {
			acc := coinAcc(g)
			if prod[g] *= a*acc + b*(1-acc); prod[g] < 1e-200 {
				dst[g] += math.Log(prod[g])
				prod[g] = 1
			}
		}
	}
	for g, p := range prod {
		dst[g] += math.Log(p)
	}
}

// coinPrior returns the log weight of every node of the grid under the
// prior Beta(mu·conc, (1 − mu)·conc) of a one-coin worker's accuracy: its
// density normalised over the nodes, which keeps a sharp prior's weights
// summing to one.
func coinPrior(p symmetric) []float64 {
	a, b := p.mu*p.conc, (1-p.mu)*p.conc
	out := make([]float64, coinNodes)
	top := math.Inf(-1)
	for g := range out {
		acc := coinAcc(g)
		out[g] = (a-1)*math.Log(acc) + (b-1)*math.Log1p(-acc)
		top = max(top, out[g])
	}
	var sum float64
	for _, l := range out {
		sum += math.Exp(l - top)
	}
	norm := top + math.Log(sum)
	for g := range out {
		out[g] -= norm
	}
	return out
}

// coinWeights writes into dst (coinNodes long) every node's log share of
// the marginal likelihood of the worker's labels when its accuracy has the
// prior whose log weights at the nodes are prior (coinPrior), ll being the
// log likelihood at the nodes (coinLikelihood), and returns the log
// marginal likelihood.
func coinWeights(ll, prior, dst []float64) float64 {
	top := math.Inf(-1)
	for g, l := range ll {
		dst[g] = l + prior[g]
		top = max(top, dst[g])
	}
	var sum float64
	for _, l := range dst {
		sum += math.Exp(l - top)
	}
	return top + math.Log(sum)
}
