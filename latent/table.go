package latent

import (
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

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
// read the noise model's table: from four, num.MulRows, num.AddRows,
// num.RespRows and num.AddRowsEach take four classes at a time; at K = 3
// they would be scalar loops with more bookkeeping than the batch's.
const minTableK = 4

// taskTableK is TaskTable for K ≥ minTableK: an object's labels give the offsets
// of their rows, (w·K + y)·K for a label y of worker w, in t and gw alike;
// num.MulRows multiplies the products by the rows, four classes at a time
// where it can, and num.AddRows adds γ_j to the counts. Where
// posteriorQuick would refuse the object (a probability outside [0, 1] or
// a product below 2⁻²⁵⁶), the object's rows are copied out for
// posteriorChecked, as TaskProbShared does, into p.
func (e laTable) taskTableK(lo, hi int, t []float64, gw, gglob, p []float64) (float64, int, int) {
	k := e.k
	var sbuf, abuf num.Buf
	s := num.Scratch(&sbuf, k)
	gacc := num.Scratch(&abuf, k)
	var buf [2 * walkBlock]int // a block and the object after it, unless one has more labels
	walk := newRowWalk(e.d, k, lo, hi, t, gw, buf[:0])
	prior := e.p // a local, which the stores into gacc cannot change
	prod := num.NewProduct()
	done := hi - lo
	for j := lo; j < hi; j++ {
		if j >= walk.last {
			walk = walk.fill(j)
		}
		rows := walk.rowsOf(j)
		copy(s, prior)
		var sum float64
		scale, ok := 0, false
		if mn, mx := num.MulRows(s, t, rows); mn >= 0 && mx <= 1 {
			sum, ok = quickEnd(s)
		}
		if !ok {
			for i, r := range rows {
				copy(p[i*k:(i+1)*k], t[r:r+k])
			}
			if sum, scale, ok = e.posteriorChecked(p[:len(rows)*k], s); !ok {
				done = j - lo
				break
			}
		}
		num.AddRows(gw, rows, s)
		if e.learn {
			pz := prior[:len(s)]
			ga := gacc[:len(s)]
			for z, v := range s {
				ga[z] += v - pz[z]
			}
		}
		prod.Mul(sum)
		prod.Scale(scale)
	}
	e.addGlobal(gglob, gacc)
	return prod.M, prod.E, done
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
		base, last := off[j], off[end]
		for i := j; i < end; i++ {
			ends[i-j] = off[i+1] - base
		}
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

// rowWalk gives the table paths of LA and DA the rows of each object's
// labels in turn, in a table of K×K numbers per worker read by label and
// class: (w·K + y)·K for a label y of worker w, the same offsets in the
// noise model's table t and in the counts gw. It computes the offsets of a
// block of objects at a time (up to walkBlock objects, or one object with
// more labels than that), in one loop over the block's labels, plus those
// of the object after the block. When the table is large (prefetchFrom)
// it asks for the next object's rows of both while the caller works on
// one (num.PrefetchRows), so that their cache misses overlap that work.
type rowWalk struct {
	d        *data.Dataset
	k, hi    int
	t, gw    []float64
	prefetch bool
	rows     []int // the offsets of the objects [first, last]
	base     int   // the index of first's first label
	last     int   // the last object whose offsets rows holds; first - 1 before the first block
}

// walkBlock is the number of objects, and of labels, that rowWalk's blocks
// hold at most (beyond one object's labels).
const walkBlock = 256

// newRowWalk returns a walk over the objects [lo, hi), whose offsets it
// keeps in buf (of any length; it grows as needed).
func newRowWalk(d *data.Dataset, k, lo, hi int, t, gw []float64, buf []int) rowWalk {
	return rowWalk{d: d, k: k, hi: hi, t: t, gw: gw, prefetch: len(t) >= prefetchFrom, rows: buf[:0], last: lo - 1}
}

// rowsOf returns the offsets of object j's rows, which the walk's block
// must hold (j < last unless j is the last object; see fill), and
// prefetches those of the object after it. The slice is valid until the
// next fill.
func (w *rowWalk) rowsOf(j int) []int {
	off := w.d.Offsets
	if w.prefetch && j+1 < w.hi {
		num.PrefetchRows(w.t, w.gw, w.rows[off[j+1]-w.base:off[j+2]-w.base], w.k)
	}
	return w.rows[off[j]-w.base : off[j+1]-w.base]
}

// fill returns the walk with the block of objects from j: a walk is a
// value, refilled by assignment (walk = walk.fill(j) when j ≥ walk.last),
// so that its buffer can stay on the caller's stack.
func (w rowWalk) fill(j int) rowWalk {
	w.rows, w.base, w.last = blockRows(w.d, w.k, w.hi, j, w.rows[:0])
	return w
}

// blockRows appends to rows the offsets of a block of objects from j, and
// of the object after the block (whose rows the prefetch needs), of the
// objects before hi; it returns them, the index of j's first label and the
// last object whose offsets they hold.
func blockRows(d *data.Dataset, k, hi, j int, rows []int) ([]int, int, int) {
	off := d.Offsets
	last := j + 1
	for last < hi && last-j < walkBlock && off[last+1]-off[j] <= walkBlock {
		last++
	}
	last = min(last, hi-1) // the block [j, last) and the object last
	a, b := off[j], off[last+1]
	workers, labels := d.Worker[a:b], d.Label[a:b]
	labels = labels[:len(workers)]
	for i, wk := range workers {
		rows = append(rows, (int(wk)*k+int(labels[i]))*k)
	}
	return rows, a, last
}

// prefetchFrom is the size of a table, in numbers, from which rowWalk
// prefetches: 2¹⁵ numbers, 256 KB, a quarter of a core's L2 cache.
const prefetchFrom = 1 << 15
