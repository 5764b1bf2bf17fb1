package latent

import "github.com/consensuslab/consensus/internal/num"

// laEval2 is LA's evaluator for K = 2 classes, which can also read the
// noise model's table (TableEvaluator). With more classes an object's
// products, its posterior and its counts take as long read from a copy of
// the table as read from the table, so only K = 2 has the capability.
type laEval2 struct {
	*laEval
}

var _ TableEvaluator = laEval2{}

// TaskTable is TaskProbShared with the probabilities read from the noise
// model's table t (see TableEvaluator) and the weights γ_j added to the
// worker counts gw as they are found: for each object, one loop over its
// labels multiplies the products p_z Π_i P(y_i | z), and a second adds
// γ_j(z) to gw[4w + 2y + z] for each label y of worker w. The arithmetic
// is TaskProbShared's and BackpropShared's, in the same order, so the value
// and the sums are the same bit for bit.
func (e laEval2) TaskTable(lo, hi int, t []float64, gw, gglob, _ []float64) (float64, int, int) {
	off := e.d.Offsets
	prod := num.NewProduct()
	var a0, a1 float64 // the prior's gradient, in registers (see taskProb)
	p0, p1 := e.p[0], e.p[1]
	done := hi - lo
	for j := lo; j < hi; j++ {
		a, b := off[j], off[j+1]
		workers, labels := e.d.Worker[a:b], e.d.Label[a:b]
		labels = labels[:len(workers)]
		var q pair
		s0, s1 := p0, p1
		ok := true
		for i, w := range workers {
			r := (*[4]float64)(t[4*int(w):])
			y := 2 * int(labels[i]&1)
			s0 *= r[y]
			s1 *= r[y+1]
			if !(s0 >= 0x1p-256 && s1 >= 0x1p-256) {
				if s0, s1, ok = q.check(s0, s1); !ok {
					break
				}
			}
		}
		var g0, g1, sum float64
		if ok {
			g0, g1, sum, ok = q.end(s0, s1)
		}
		if !ok {
			done = j - lo
			break
		}
		for i, w := range workers {
			c := (*[4]float64)(gw[4*int(w):])
			y := 2 * int(labels[i]&1)
			c[y] += g0
			c[y+1] += g1
		}
		if e.learn {
			a0 += g0 - p0
			a1 += g1 - p1
		}
		prod.Mul(sum)
		prod.Scale(q.scale)
	}
	if e.learn {
		gglob[0] += a0
		gglob[1] += a1
	}
	return prod.M, prod.E, done
}
