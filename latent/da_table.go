package latent

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// daTable is DA's evaluator for K ≥ minTableK classes, which can also
// read the noise model's table (TableEvaluator). At K = 2 the flat loop of
// taskProb2 over a batch's probabilities is faster than reading the table
// per object, and at K = 3 the row kernels have no group of four to take.
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
	var qbuf, abuf num.Buf
	q := num.Scratch(&qbuf, k)
	acc := num.Scratch(&abuf, k)
	var buf0, buf1 [64]int
	walk := newRowWalk(e.d, k, lo, hi, t, gw, buf0[:0], buf1[:0])
	prod, scale := 1.0, 0
	for j := lo; j < hi; j++ {
		var rows []int
		walk, rows = walk.advance(j)
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
		for z, qz := range q {
			gb[z] += acc[z] - float64(n)*qz
		}
	}
	return prod, scale, hi - lo
}
