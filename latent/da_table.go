package latent

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

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
// worker counts gw: for each object, q_j = softmax(b_j), then
// num.RespRows gives each label's m_i and r_i straight from its row of t,
// and once every m_i has passed TaskProb's check, num.AddRowsEach adds the
// r_i to the rows of gw and to the object's sum. The arithmetic is
// TaskProb's and BackpropProb's, in the same order, so the value and the
// sums are the same bit for bit. The responsibilities go to g, their sums
// to p.
func (e daTable) TaskTable(lo, hi int, t []float64, gw, _, gtask, p, g []float64) (float64, int, int) {
	k := e.k
	if k == 2 {
		return e.taskTable2(lo, hi, t, gw, gtask, g)
	}
	var qbuf, abuf num.Buf
	q := num.Scratch(&qbuf, k)
	acc := num.Scratch(&abuf, k)
	var buf [2 * walkBlock]int // a block and the object after it, unless one has more labels
	walk := newRowWalk(e.d, k, lo, hi, t, gw, buf[:0])
	prod, scale := 1.0, 0
	for j := lo; j < hi; j++ {
		if j >= walk.last {
			walk = walk.fill(j)
		}
		rows := walk.rowsOf(j)
		n := len(rows)
		r, m := g[:n*k], p[:n] // the responsibilities and their sums
		softmax(q, e.b[j*k:(j+1)*k])
		num.RespRows(r, q, t, rows, m)
		oprod, oscale := prod, scale // to undo a failure
		for _, mi := range m {
			if !(mi >= 0x1p-600) {
				return oprod, oscale, j - lo
			}
			prod *= mi
			if prod < 0x1p-256 {
				var ex int
				prod, ex = math.Frexp(prod)
				scale += ex
			}
		}
		clear(acc)
		num.AddRowsEach(gw, rows, r, k, acc)
		gb := gtask[j*k : (j+1)*k]
		gb, ac := gb[:len(q)], acc[:len(q)]
		nf := float64(n)
		for z, qz := range q {
			gb[z] += ac[z] - nf*qz
		}
	}
	return prod, scale, hi - lo
}

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
		base := off[block]
		for j := block; j < end; j++ {
			ends[j-block] = off[j+1] - base
		}
		last := off[end]
		var done int
		prod, scale, done = num.RespPairs(t, gw, e.d.Worker[base:last], e.d.Label[base:last], ends[:end-block],
			e.b[2*block:2*end], ex[:end-block], gtask[2*block:2*end], r, prod, scale)
		if done < end-block {
			return prod, scale, block + done - lo
		}
	}
	return prod, scale, hi - lo
}
