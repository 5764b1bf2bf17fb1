package latent

import "github.com/consensuslab/consensus/internal/num"

// daTable is DA's evaluator for K ≥ minTableK classes, and for K = 2 where
// num.RespPairs runs in vector instructions, which can also read the noise
// model's table (TableEvaluator). At K = 2 without them the flat loop of
// taskProb2 over a batch's probabilities is faster than reading the table
// per object in Go, and at K = 3 the row kernels have no group of four to
// take.
type daTable struct {
	*daEval
}

var _ TableEvaluator = daTable{}

// TaskTable is TaskProb with the probabilities read from the noise model's
// table t (see TableEvaluator) and the responsibilities added to the
// worker counts gw: for a block of objects at a time, their q_j =
// softmax(b_j) (softmaxRows), then num.RespRowsGroups gives each label's
// m_i and r_i straight from its row of t and, once every m_i of an object
// has passed TaskProb's check, adds the r_i to the rows of gw and the
// object's gradient to gtask. The arithmetic is TaskProb's and
// BackpropProb's, in the same order, so the value and the sums are the
// same bit for bit. The responsibilities go to g.
func (e daTable) TaskTable(lo, hi int, t []float64, gw, _, gtask, _, g []float64) (float64, int, int) {
	k := e.k
	if k == 2 {
		return e.taskTable2(lo, hi, t, gw, gtask, g)
	}
	var abuf num.Buf
	acc := num.Scratch(&abuf, k)
	var qbuf [qBlock]float64
	q := qbuf[:]
	if k > qBlock {
		q = make([]float64, k)
	}
	per := min(objBlock, max(1, qBlock/k))
	off := e.d.Offsets
	var ends [objBlock]int
	prod, scale := 1.0, 0
	for block := lo; block < hi; block += per {
		end := min(hi, block+per)
		softmaxRows(q, e.b[block*k:end*k], k)
		base, last := blockEnds(off, block, end, &ends)
		var done int
		prod, scale, done = num.RespRowsGroups(t, gw, e.d.Worker[base:last], e.d.Label[base:last], ends[:end-block],
			q[:(end-block)*k], gtask[block*k:end*k], g, acc, prod, scale)
		if done < end-block {
			return prod, scale, block + done - lo
		}
	}
	return prod, scale, hi - lo
}

// qBlock is the number of values of the objects' distributions q_j that
// DA's table path forms in one block: qBlock/K objects (at most objBlock,
// at least one).
const qBlock = 1024

// taskTable2 is TaskTable for K = 2: the exponentials e^-|d_j| of
// taskProb2's q_j for a block of objBlock objects at a time, then
// num.RespPairs, which forms each q_j as taskProb2 does, reads each label's
// row of t, adds its responsibilities to gw once its object has passed
// TaskProb's check, and adds the object's gradient to gtask. r is scratch
// for the responsibilities of one object.
func (e daTable) taskTable2(lo, hi int, t []float64, gw, gtask, r []float64) (float64, int, int) {
	off := e.d.Offsets
	var ex [objBlock]float64
	var ends [objBlock]int
	prod, scale := 1.0, 0
	for block := lo; block < hi; block += objBlock {
		end := min(hi, block+objBlock)
		expNegAbsDiffs(&ex, e.b, block, end)
		base, last := blockEnds(off, block, end, &ends)
		var done int
		prod, scale, done = num.RespPairs(t, gw, e.d.Worker[base:last], e.d.Label[base:last], ends[:end-block],
			e.b[2*block:2*end], ex[:end-block], gtask[2*block:2*end], r, prod, scale)
		if done < end-block {
			return prod, scale, block + done - lo
		}
	}
	return prod, scale, hi - lo
}
