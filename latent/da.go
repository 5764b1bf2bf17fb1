package latent

import (
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// DA is the latent distribution assumption, the paper's eq. 3:
//
//	L = Σ_j Σ_{i ∈ j} log Σ_z q_j(z) P(y_i | z).
//
// Every object has its own distribution q_j = softmax(b_j) with K free
// logits b_j. Each label's term is log Σ_z exp t_i(z) with
// t_i(z) = log q_j(z) + l_i(z); the weights are the responsibilities of the
// subjective classes, g_i(z) = r_i(z) = softmax(t_i)(z), and
//
//	∂L/∂b_j = Σ_{i ∈ j} (r_i - q_j).
//
// The consensus output is q_j.
type DA struct {
	// Floor is the pseudo-frequency that replaces a zero in an object's
	// initial frequency vector before it is renormalised, so that every
	// initial logit is finite: q_j(z) ∝ max(freq_j(z), Floor). Zero means
	// 0.01. The paper initialises q_j at the label frequencies and does not
	// say how it treats zeros.
	Floor float64
}

// Name returns "da".
func (DA) Name() string { return "da" }

// GlobalDim returns 0: plain DA has no shared parameters.
func (DA) GlobalDim(int) int { return 0 }

// TaskDim returns k, the logits b_j.
func (DA) TaskDim(k int) int { return k }

// Init sets q_j to object j's label frequencies, with zeros raised to the
// Floor and the vector renormalised, and b_j = log q_j.
func (a DA) Init(d *data.Dataset, freq data.TaskWeights, _, t []float64) {
	k := d.NumClasses()
	buf := make([]float64, k)
	for j := range d.Tasks {
		a.initRow(t[j*k:(j+1)*k], freq.Row(j, buf))
	}
}

// initRow sets the logits row to log q, q ∝ max(f, Floor), given the
// frequencies f of one object. row and f may be the same slice.
func (a DA) initRow(row, f []float64) {
	floor := a.Floor
	if floor == 0 {
		floor = 0.01
	}
	var sum float64
	for z, v := range f {
		row[z] = max(v, floor)
		sum += row[z]
	}
	for z, v := range row {
		row[z] = math.Log(v / sum)
	}
}

// NewEvaluator returns an evaluator of DA on d, or an error wrapping
// ErrUnsuited if d is nil.
func (DA) NewEvaluator(d *data.Dataset) (Evaluator, error) {
	if err := checkData(d); err != nil {
		return nil, err
	}
	e := newDAEval(d)
	if e.k >= minTableK || e.k == 2 && num.Vectorised() {
		return daTable{e}, nil
	}
	return e, nil
}

// newDAEval returns DA's evaluator on d without the table path.
func newDAEval(d *data.Dataset) *daEval {
	return &daEval{d: d, k: d.NumClasses()}
}

type daEval struct {
	d *data.Dataset
	k int
	b []float64
	// pseudo is added to every object's number of labels in the M-step:
	// zero for DA, α for Dirichlet, whose M-step is DA's with the prior's
	// pseudo-counts in the expected counts.
	pseudo float64
}

func (e *daEval) SetParams(_, t []float64) { e.b = t }

// taskBlock is the number of values of taskScratch's buffer of
// exponentials: Task takes the log-sum-exps of as many labels as fit. It
// is small because Go clears the buffer at every call.
const taskBlock = 128

// taskScratch is Task's working memory on the stack.
type taskScratch struct {
	exps [taskBlock]float64
	lse  [taskBlock / 2]float64 // enough from K = 2
}

// buffers returns the buffers for blocks of labels of k values each and
// the number of labels in a block (allocated above K = taskBlock).
func (s *taskScratch) buffers(k int) (exps, lse []float64, per int) {
	if k > taskBlock {
		return make([]float64, k), make([]float64, 1), 1
	}
	per = min(taskBlock/k, len(s.lse))
	return s.exps[:per*k], s.lse[:per], per
}

func (e *daEval) Task(j int, l, g []float64, _, gtask []float64) float64 {
	k := e.k
	var buf num.Buf
	logq := num.Scratch(&buf, k)
	num.LogSoftmax(logq, e.b[j*k:(j+1)*k])
	n := e.d.Offsets[j+1] - e.d.Offsets[j]
	gb := gtask[j*k : (j+1)*k]
	// The labels a block at a time: t_i = log q_j + l_i written into g,
	// the block's log-sum-exps and softmaxes each in one call (the same
	// numbers as LogSumExp and SoftmaxFrom label by label).
	var sc taskScratch
	exps, lse, per := sc.buffers(k)
	var v float64
	for i0 := 0; i0 < n; i0 += per {
		m := min(per, n-i0)
		t := g[i0*k : (i0+m)*k]
		for i := range m {
			li, ti := l[(i0+i)*k:(i0+i+1)*k], t[i*k:(i+1)*k]
			for z, lq := range logq {
				ti[z] = lq + li[z]
			}
		}
		num.LogSumExpRows(lse[:m], t, exps, k)
		num.SoftmaxRows(t, lse[:m], k)
		for i, lsei := range lse[:m] {
			v += lsei
			for z, r := range t[i*k : (i+1)*k] {
				gb[z] += r
			}
		}
	}
	num.MathExpTo(logq, logq) // q_j, as math.Exp of each
	for z, q := range logq {
		gb[z] -= float64(n) * q
	}
	return v
}

// TaskProb is Task in probability space: with q_j = softmax(b_j) and
// m_i = Σ_z q_j(z) P(y_i | z), the responsibilities are
// r_i(z) = q_j(z) P(y_i | z)/m_i and the object's term Σ_i log m_i is the
// logarithm of the product of the m_i, kept from underflowing by a
// power-of-two scale: one division per label, and for K = 2 one
// exponential per object. It stops at an object with a label whose m_i is
// below 2⁻⁶⁰⁰.
func (e *daEval) TaskProb(lo, hi int, p, g []float64, _, gtask []float64) (float64, int, int) {
	k := e.k
	off := e.d.Offsets
	base := off[lo]
	if k == 2 {
		return e.taskProb2(lo, hi, p, g, gtask)
	}
	var qbuf, abuf num.Buf
	q := num.Scratch(&qbuf, k)
	acc := num.Scratch(&abuf, k)
	prod, scale := 1.0, 0
	for j := lo; j < hi; j++ {
		pj := p[(off[j]-base)*k : (off[j+1]-base)*k]
		gj := g[(off[j]-base)*k : (off[j+1]-base)*k]
		n := off[j+1] - off[j]
		oprod := prod // the product before object j, to undo a failure
		oscale := scale
		softmax(q, e.b[j*k:(j+1)*k])
		clear(acc)
		for i := 0; i < len(pj); i += k {
			pi, gi := pj[i:i+k], gj[i:i+k]
			m := num.Responsibilities(gi, q, pi)
			if !(m >= 0x1p-600) {
				return oprod, oscale, j - lo
			}
			for z, r := range gi {
				acc[z] += r
			}
			prod *= m
			if prod < 0x1p-256 {
				var ex int
				prod, ex = math.Frexp(prod)
				scale += ex
			}
		}
		gb := gtask[j*k : (j+1)*k]
		for z, qz := range q {
			gb[z] += acc[z] - float64(n)*qz
		}
	}
	return prod, scale, hi - lo
}

// taskProb2 is TaskProb at K = 2: q_j = (σ(-d_j), σ(d_j)) with
// d_j = b_j1 - b_j0, the exponentials e^-|d_j| of a block of objBlock
// objects in one call, and num.RespPairsBatch for the block's labels: one
// loop over them with the objects' ends as marks (in assembly where
// num.Vectorised).
func (e *daEval) taskProb2(lo, hi int, p, g, gtask []float64) (float64, int, int) {
	off := e.d.Offsets
	base := off[lo]
	prod, scale := 1.0, 0
	var ex [objBlock]float64
	var ends [objBlock]int
	for block := lo; block < hi; block += objBlock {
		end := min(hi, block+objBlock)
		expNegAbsDiffs(&ex, e.b, block, end)
		first, _ := blockEnds(off, block, end, &ends)
		first -= base
		var done int
		prod, scale, done = num.RespPairsBatch(p[2*first:], g[2*first:], ends[:end-block],
			e.b[2*block:2*end], ex[:end-block], gtask[2*block:2*end], prod, scale)
		if done < end-block {
			return prod, scale, block + done - lo
		}
	}
	return prod, scale, hi - lo
}

// softmax writes softmax(b) into q with K exponentials (one for K = 2) and
// no logarithm.
func softmax(q, b []float64) {
	if len(b) == 2 {
		d := b[1] - b[0]
		softmax2(q, d, num.Exp(-math.Abs(d)))
		return
	}
	softmaxRows(q, b, len(b))
}

// softmaxRows writes softmax(b_j) for each row b_j of k > 2 logits of b
// into the same row of q: softmax's operations in its order on every row
// (the largest logit subtracted, the exponentials, their sum in the order
// of z, the division), with the shifts of all rows in one
// num.ShiftMaxRows call, their exponentials in one num.ExpTo call and their
// sums objBlock rows at a time by num.SumRows.
func softmaxRows(q, b []float64, k int) {
	q = q[:len(b)]
	num.ShiftMaxRows(q, b, k)
	num.ExpTo(q, q)
	var sums [objBlock]float64
	for lo := 0; lo < len(q); lo += objBlock * k {
		block := q[lo:min(len(q), lo+objBlock*k)]
		num.SumRows(sums[:], block, k)
		for j := range len(block) / k {
			inv := 1 / sums[j]
			qj := block[j*k : (j+1)*k]
			for z := range qj {
				qj[z] *= inv
			}
		}
	}
}

// softmax2 writes q = softmax(0, d): q_1 = σ(d), q_0 = σ(-d), given
// ex = num.Exp(-|d|).
func softmax2(q []float64, d, ex float64) {
	q[1], q[0] = num.SigmoidPair(d, ex)
}

// objBlock is the number of objects whose exponentials (K = 2) or
// logarithms the DA evaluator computes in one call of num.ExpTo or
// num.LogTo.
const objBlock = 64

// blockEnds writes into ends the ends of the labels of the objects
// [j, end), at most objBlock of them, counted from the first label of j,
// as the kernels of num take a block's objects, and returns the range
// [base, last) of the block's labels.
func blockEnds(off []int, j, end int, ends *[objBlock]int) (base, last int) {
	base = off[j]
	for i := j; i < end; i++ {
		ends[i-j] = off[i+1] - base
	}
	return base, off[end]
}

// expNegAbsDiffs writes e^-|b_j1 - b_j0| for the objects [lo, hi), at most
// objBlock of them, into ex[:hi-lo], given the K = 2 logits b.
func expNegAbsDiffs(ex *[objBlock]float64, b []float64, lo, hi int) {
	x := ex[:hi-lo]
	for i := range x {
		j := lo + i
		x[i] = -math.Abs(b[2*j+1] - b[2*j])
	}
	num.ExpTo(x, x)
}

func (e *daEval) FinishGrad(_, _ []float64) {}

// MStep sets every object's distribution to the mean responsibility of its
// labels, q_j = (1/n_j) Σ_{i ∈ j} r_i = q_j + gtask_j/n_j; a probability
// that rounds to zero or below is raised to MinProb. An object without
// labels keeps its distribution.
//
// The logits written are b_j = log q_j, except for K = 2, where they are
// b_j = (0, log(q_j(1)/q_j(0))): the same q_j = softmax(b_j) for one
// logarithm per object instead of two.
func (e *daEval) MStep(_, gtask []float64, _, t []float64) {
	e.MStepTasks(0, e.d.NumTasks(), gtask, t)
}

// MStepGlobal does nothing: DA has no global parameters.
func (e *daEval) MStepGlobal(_, _ []float64) {}

var _ TaskMStepper = (*daEval)(nil)

// MStepTasks is MStep for the objects [lo, hi) only.
func (e *daEval) MStepTasks(lo, hi int, gtask, t []float64) {
	k := e.k
	off := e.d.Offsets
	if k == 2 {
		// In blocks of objBlock objects: the exponentials of softmax(b_j)
		// in one call, then the odds (num.OddsPairs, four objects at a
		// time where num.Vectorised), then their logarithms in one call.
		var ex, odds [objBlock]float64
		for block := lo; block < hi; block += objBlock {
			end := min(hi, block+objBlock)
			expNegAbsDiffs(&ex, t, block, end)
			num.OddsPairs(odds[:end-block], t[2*block:2*end], gtask[2*block:2*end], ex[:end-block], off[block:end+1], e.pseudo, MinProb)
			num.LogTo(odds[:end-block], odds[:end-block])
			for j := block; j < end; j++ {
				if float64(off[j+1]-off[j])+e.pseudo > 0 {
					t[2*j], t[2*j+1] = 0, odds[j-block]
				}
			}
		}
		return
	}
	// Blocks of mstepBlock/K objects, or one object at a time beyond
	// mstepBlock classes.
	per := max(1, mstepBlock/k)
	var buf [mstepBlock]float64
	x := buf[:]
	if k > mstepBlock {
		x = make([]float64, k)
	}
	var flat [mstepBlock]bool
	var sums [mstepBlock]float64
	for block := lo; block < hi; block += per {
		e.mstepBlockK(block, min(hi, block+per), gtask, t, x, sums[:], flat[:])
	}
}

// mstepBlock is the number of values on which the M-step for K > 2 takes
// its exponentials and its logarithms in one call: the objects of a block,
// mstepBlock/K of them (at least one), at a time.
const mstepBlock = 256

// mstepBlockK is MStepTasks for K > 2 on the objects [lo, hi), with
// scratch x for their K·(hi - lo) values, sums and flat for hi - lo sums
// and marks: softmax's and logNormalise's operations on every object in
// their order, with the shifts of the whole block in one num.ShiftMaxRows
// call, its exponentials in one num.ExpTo call, its sums in one
// num.SumRows call and its logarithms in one num.MathLogTo call instead of
// a call of each per object, and an object's two divisions per class four
// at a time (num.WeightsTo, num.DivMaxTo).
func (e *daEval) mstepBlockK(lo, hi int, gtask, t, x, sums []float64, flat []bool) {
	k := e.k
	off := e.d.Offsets
	x = x[:(hi-lo)*k]
	flat = flat[:hi-lo] // logNormalise's uniform case
	num.ShiftMaxRows(x, t[lo*k:hi*k], k)
	for j := lo; j < hi; j++ {
		flat[j-lo] = false
		if float64(off[j+1]-off[j])+e.pseudo == 0 {
			clear(x[(j-lo)*k : (j-lo+1)*k])
		}
	}
	num.ExpTo(x, x)
	num.SumRows(sums, x, k)
	for j := lo; j < hi; j++ {
		n := float64(off[j+1]-off[j]) + e.pseudo
		if n == 0 {
			continue
		}
		xj := x[(j-lo)*k : (j-lo+1)*k]
		sum := sums[j-lo]
		// q_j(z) + gtask_j(z)/n with softmax's q_j(z) = v/sum, raised to 0,
		// and their sum.
		s := num.WeightsTo(xj, gtask[j*k:(j+1)*k], 1/sum, n)
		if !(s > 0) {
			flat[j-lo] = true
			continue
		}
		num.DivMaxTo(xj, s, MinProb)
	}
	num.MathLogTo(x, x)
	for j := lo; j < hi; j++ {
		if float64(off[j+1]-off[j])+e.pseudo == 0 {
			continue
		}
		b := t[j*k : (j+1)*k]
		if flat[j-lo] {
			for z := range b {
				b[z] = -math.Log(float64(k))
			}
			continue
		}
		copy(b, x[(j-lo)*k:(j-lo+1)*k])
	}
}

func (e *daEval) Output(j int, _ []float64, out []float64) {
	k := e.k
	b := e.b[j*k : (j+1)*k]
	num.SoftmaxFrom(out[:k], b, num.LogSumExp(b))
}
