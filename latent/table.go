package latent

import "github.com/consensuslab/consensus/internal/num"

// laTable is LA's evaluator that can also read the noise model's table
// (TableEvaluator).
type laTable struct {
	*laEval
}

var _ TableEvaluator = laTable{}

// TaskTable is TaskProbShared with the probabilities read from the noise
// model's table t (see TableEvaluator) and the weights γ_j added to the
// worker counts gw as they are found: for each object, the products
// p_z Π_i P(y_i | z) are multiplied straight from the rows of t, and γ_j is
// added to the rows of gw of its labels. The arithmetic is
// TaskProbShared's and BackpropShared's, in the same order, so the value
// and the sums are the same bit for bit.
func (e laTable) TaskTable(lo, hi int, t []float64, gw, gglob, _, p, _ []float64) (float64, int, int) {
	if e.k == 2 {
		return e.taskTable2(lo, hi, t, gw, gglob)
	}
	return e.taskTableK(lo, hi, t, gw, gglob, p)
}

// minTableK is the least number of classes beyond 2 for which LA and DA
// read the noise model's table: from four, num.PosteriorRows and
// num.RespRowsGroups take four classes at a time; at K = 3 they would be
// scalar loops, slower than the batch path.
const minTableK = 4

// taskTableK is TaskTable for K ≥ minTableK: num.PosteriorRows takes the
// objects of a block of objBlock at a time whose products need no check
// (every probability read in [0, 1], every product at least 2⁻²⁵⁶), reading
// each label's row of t at (w·K + y)·K and adding γ_j to the same row of
// gw, and an object that does takes the checked loop (objectK).
func (e laTable) taskTableK(lo, hi int, t []float64, gw, gglob, p []float64) (float64, int, int) {
	k := e.k
	var sbuf, abuf num.Buf
	s := num.Scratch(&sbuf, k)
	gacc := num.Scratch(&abuf, k)
	var acc []float64 // the prior's gradient, if it is learned
	if e.learn {
		acc = gacc
	}
	off := e.d.Offsets
	prod := num.NewProduct()
	var ends [objBlock]int
	j := lo
	for j < hi {
		end := min(hi, j+objBlock)
		base, last := blockEnds(off, j, end, &ends)
		var done int
		prod, done = num.PosteriorRows(t, gw, e.d.Worker[base:last], e.d.Label[base:last], ends[:end-j], e.p, s, acc, prod)
		if j += done; j < end {
			if !e.objectK(j, t, gw, p, s, acc, &prod) {
				break
			}
			j++
		}
	}
	e.addGlobal(gglob, gacc)
	return prod.M, prod.E, j - lo
}

// objectK is taskTableK for object j by the checked loop, as TaskProbShared
// takes it: its rows copied out of t into p, posteriorChecked, then γ_j
// (left in s) added to the rows of gw, γ_j - p to acc if it is not nil,
// and the object's term to prod. It reports false, having written nothing
// but scratch, where TaskProb would stop before the object.
func (e laTable) objectK(j int, t, gw, p, s, acc []float64, prod *num.Product) bool {
	k := e.k
	workers, labels := e.d.TaskLabels(j)
	labels = labels[:len(workers)]
	for i, w := range workers {
		r := (int(w)*k + int(labels[i])) * k
		copy(p[i*k:(i+1)*k], t[r:r+k])
	}
	sum, scale, ok := e.posteriorChecked(p[:len(workers)*k], s)
	if !ok {
		return false
	}
	for i, w := range workers {
		r := (int(w)*k + int(labels[i])) * k
		row := gw[r : r+k]
		for z, v := range s {
			row[z] += v
		}
	}
	if acc != nil {
		for z, v := range s {
			acc[z] += v - e.p[z]
		}
	}
	prod.Mul(sum)
	prod.Scale(scale)
	return true
}

// taskTable2 is TaskTable for K = 2: num.PosteriorPairs takes the objects
// of a block of objBlock at a time whose products need no check (every
// product at least 2⁻²⁵⁶ after every label, their sum at most 2), and an
// object that does takes the checked loop (object2); the same operations
// in the same order as for every object in the checked loop.
func (e laTable) taskTable2(lo, hi int, t []float64, gw, gglob []float64) (float64, int, int) {
	off := e.d.Offsets
	prod := num.NewProduct()
	var acc [2]float64 // the prior's gradient
	var ends [objBlock]int
	j := lo
	for j < hi {
		end := min(hi, j+objBlock)
		base, last := blockEnds(off, j, end, &ends)
		var done int
		prod, done = num.PosteriorPairs(t, gw, e.d.Worker[base:last], e.d.Label[base:last], ends[:end-j], e.p[0], e.p[1], acc[:], prod)
		if j += done; j < end {
			if !e.object2(j, t, gw, &acc, &prod) {
				break
			}
			j++
		}
	}
	if e.learn {
		gglob[0] += acc[0]
		gglob[1] += acc[1]
	}
	return prod.M, prod.E, j - lo
}

// object2 is taskTable2 for object j with the products checked after every
// label (pair.check): it multiplies the two products, adds γ_j(z) to
// gw[4w + 2y + z] for each label y of worker w, γ_j - p to acc and the
// object's term to prod, and reports false, having written nothing, where
// TaskProb would stop before the object.
func (e laTable) object2(j int, t, gw []float64, acc *[2]float64, prod *num.Product) bool {
	off := e.d.Offsets
	a, b := off[j], off[j+1]
	workers, labels := e.d.Worker[a:b], e.d.Label[a:b]
	labels = labels[:len(workers)]
	var q pair
	p0, p1 := e.p[0], e.p[1]
	s0, s1 := p0, p1
	ok := true
	for i, w := range workers {
		r := (*[4]float64)(t[4*int(w):])
		y := 2 * int(labels[i]&1)
		s0 *= r[y]
		s1 *= r[y+1]
		if !(s0 >= 0x1p-256 && s1 >= 0x1p-256) {
			if s0, s1, ok = q.check(s0, s1); !ok {
				return false
			}
		}
	}
	g0, g1, sum, ok := q.end(s0, s1)
	if !ok {
		return false
	}
	for i, w := range workers {
		c := (*[4]float64)(gw[4*int(w):])
		y := 2 * int(labels[i]&1)
		c[y] += g0
		c[y+1] += g1
	}
	acc[0] += g0 - p0
	acc[1] += g1 - p1
	prod.Mul(sum)
	prod.Scale(q.scale)
	return true
}
