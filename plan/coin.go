package plan

import "math"

// coinNodes is the number of points of the midpoint grid on [0, 1] over
// which a one-coin worker's accuracy is integrated (a multiple of four).
const coinNodes = 200

// coinAcc returns the accuracy at node g of the grid.
func coinAcc(g int) float64 { return (float64(g) + 0.5) / coinNodes }

// coinGrid holds coinAcc(g) for every node g.
var coinGrid = func() []float64 {
	out := make([]float64, coinNodes)
	for g := range out {
		out[g] = coinAcc(g)
	}
	return out
}()

// coinLikelihood writes into dst (coinNodes long) the log likelihood of
// a worker's labels (indices into the labels y, whose class posteriors
// from their tasks' other labels r holds, K a label) at every node of the
// grid, when the worker is a one-coin worker: right with probability acc
// whatever the true class, its errors spread evenly over the other
// classes, so that label i has probability a·acc + (1 − a)(1 − acc)/(K −
// 1), a = r_i(y_i).
func coinLikelihood(labels []int32, y []uint16, r []float64, k int, dst []float64) {
	clear(dst)
	// Label i has probability b_i + d_i·acc.
	b, d := make([]float64, len(labels)), make([]float64, len(labels))
	off := 1 / float64(k-1)
	for t, i := range labels {
		a := r[int(i)*k+int(y[i])]
		b[t] = (1 - a) * off
		d[t] = a - b[t]
	}
	// A label's probability is at least min(acc, 1 − acc)·max(a, b) ≥
	// 1/(2·coinNodes·K) ≥ 3.8·10⁻⁸ (K ≤ 2¹⁶): the products are moved to
	// dst below 10⁻¹⁵⁰, tested every 16 labels, and stay above 10⁻²⁷⁰.
	// Four nodes at a time, whose products are independent.
	for g := 0; g < coinNodes; g += 4 {
		x0, x1, x2, x3 := coinGrid[g], coinGrid[g+1], coinGrid[g+2], coinGrid[g+3]
		p0, p1, p2, p3 := 1.0, 1.0, 1.0, 1.0
		var l0, l1, l2, l3 float64
		for lo := 0; lo < len(b); lo += 16 {
			hi := min(lo+16, len(b))
			bb, dd := b[lo:hi], d[lo:hi:hi]
			for t, bt := range bb {
				dt := dd[t]
				p0 *= bt + dt*x0
				p1 *= bt + dt*x1
				p2 *= bt + dt*x2
				p3 *= bt + dt*x3
			}
			if min(p0, p1, p2, p3) < 1e-150 {
				l0, l1, l2, l3 = l0+math.Log(p0), l1+math.Log(p1), l2+math.Log(p2), l3+math.Log(p3)
				p0, p1, p2, p3 = 1, 1, 1, 1
			}
		}
		dst[g] = l0 + math.Log(p0)
		dst[g+1] = l1 + math.Log(p1)
		dst[g+2] = l2 + math.Log(p2)
		dst[g+3] = l3 + math.Log(p3)
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
