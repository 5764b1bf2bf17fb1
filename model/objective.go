package model

import (
	"runtime"
	"runtime/debug"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/mem"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model/internal/fitting"
	"github.com/consensuslab/consensus/noise"
)

// Layout locates the four parameter blocks of a Model in one vector: the
// noise model's worker block W and object block O, then the assumption's
// global block G and per-object block T, in that order. Each is a half-open
// range [start, end) of indices.
type Layout struct {
	W, O, G, T [2]int
}

type layout = Layout

func newLayout(m Model, d *data.Dataset) layout {
	k := d.NumClasses()
	var l layout
	n := 0
	next := func(size int) [2]int {
		r := [2]int{n, n + size}
		n += size
		return r
	}
	l.W = next(d.NumWorkers() * m.Noise.WorkerDim(k))
	l.O = next(d.NumTasks() * m.Noise.TaskDim(k))
	l.G = next(m.Latent.GlobalDim(k))
	l.T = next(d.NumTasks() * m.Latent.TaskDim(k))
	return l
}

// Dim returns the total number of parameters.
func (l Layout) Dim() int { return l.T[1] }

// Split returns the four blocks of x as subslices.
func (l Layout) Split(x []float64) (w, o, g, t []float64) {
	return x[l.W[0]:l.W[1]], x[l.O[0]:l.O[1]], x[l.G[0]:l.G[1]], x[l.T[0]:l.T[1]]
}

// chunk is a contiguous range of objects evaluated by one goroutine at a
// time, with accumulators of its own, while it is evaluated, for the
// parameters that several objects share (worker and global blocks). The
// batch scratch is allocated by the first pass (allocScratch) and
// dropped when the fit is done (freeAccumulators).
type chunk struct {
	lo, hi int // objects [lo, hi)
	value  float64
	gw, gg []float64 // accumulators of the worker and global blocks, during a pass
	l, g   []float64 // scratch of a batch: probabilities and weights
	gs     []float64 // scratch of a batch: weights per object (shared)
	lf, gf []float64 // scratch of one object on the log path, maxLabels·K
}

// objective evaluates the log-likelihood of a Model on a data set and its
// gradient in one pass over the labels.
//
// The objects are cut into chunks whose number and bounds depend only on the
// data, never on the number of goroutines. Each chunk sums its objects in
// order and the chunks' partial sums are reduced in chunk order, so the
// value and the gradient are bit-for-bit the same for any Threads.
//
// When the noise model and the assumption both work in probability space
// (noise.ProbEvaluator and latent.ProbEvaluator) an object goes through
// Prob, TaskProb and BackpropProb (TaskProbShared and BackpropShared, with
// weights once per object, when both sides have them), which avoid most
// exponentials and logarithms; an object whose probabilities underflow, and every object of
// other models, goes through LogProb, Task and Backprop.
type objective struct {
	d       *data.Dataset
	lay     layout
	noise   noise.Evaluator
	latent  latent.Evaluator
	chunks  []chunk
	threads int

	// pnoise and platent are the probability-space forms of noise and
	// latent, both nil unless both sides have one.
	pnoise  noise.ProbEvaluator
	platent latent.ProbEvaluator

	// slatent and snoise are the forms of platent and pnoise with
	// weights per object (latent.SharedProbEvaluator and
	// noise.SharedBackpropper), both nil unless both sides have one.
	slatent latent.SharedProbEvaluator
	snoise  noise.SharedBackpropper

	// tlatent and tnoise are the forms of platent and pnoise in which
	// the assumption reads the noise model's table itself
	// (latent.TableEvaluator and noise.Tabled), both nil unless both
	// sides have one.
	tlatent latent.TableEvaluator
	tnoise  noise.Tabled

	// scratch reports whether the chunks have their batch scratch.
	scratch bool
	// pool holds accumulators of the worker and global blocks, one
	// after the other, for the chunks of a pass (see pass).
	pool fitting.AccPool
}

// newObjective returns the objective of m on d, whose parts the caller has
// checked (latent.Check): it panics on the error of an assumption that does
// not suit d, as buildObjective returns it.
func newObjective(m Model, d *data.Dataset, threads int) *objective {
	o, err := buildObjective(m, d, threads)
	if err != nil {
		panic(err)
	}
	return o
}

// buildObjective returns the objective of m on d, or the error of m's
// assumption on d (latent.ErrUnsuited).
func buildObjective(m Model, d *data.Dataset, threads int) (*objective, error) {
	lat, err := m.Latent.NewEvaluator(d)
	if err != nil {
		return nil, err
	}
	threads = fitting.ThreadCount(threads)
	k := d.NumClasses()
	o := &objective{
		d:       d,
		lay:     newLayout(m, d),
		noise:   m.Noise.NewEvaluator(d),
		latent:  lat,
		threads: threads,
	}
	if t, ok := o.noise.(noise.Threaded); ok {
		t.SetThreads(threads)
	}
	pn, ok1 := o.noise.(noise.ProbEvaluator)
	pl, ok2 := o.latent.(latent.ProbEvaluator)
	if ok1 && ok2 {
		o.pnoise, o.platent = pn, pl
		sl, ok1 := pl.(latent.SharedProbEvaluator)
		sn, ok2 := pn.(noise.SharedBackpropper)
		if ok1 && ok2 {
			o.slatent, o.snoise = sl, sn
		}
		tl, ok1 := pl.(latent.TableEvaluator)
		tn, ok2 := pn.(noise.Tabled)
		if ok1 && ok2 {
			o.tlatent, o.tnoise = tl, tn
		}
	}
	o.pool.Dim = (o.lay.W[1] - o.lay.W[0]) + (o.lay.G[1] - o.lay.G[0])
	bounds := fitting.ChunkBounds(d, fitting.ChunkCount(d, o.lay.W[1]-o.lay.W[0]))
	for i := 0; i+1 < len(bounds); i++ {
		lo, hi := bounds[i], bounds[i+1]
		most := fitting.MostLabels(d, lo, hi)
		o.chunks = append(o.chunks, chunk{
			lo: lo, hi: hi,
			lf: make([]float64, most*k),
			gf: make([]float64, most*k),
		})
	}
	// The scratch comes with the first pass (allocScratch), and the
	// accumulators with each pass from the pool.
	return o, nil
}

// allocScratch gives every chunk its batch scratch (zero), unless it
// has it. Large accumulators are preceded by a collection that returns
// the free memory to the system (see bigAccumulators).
func (o *objective) allocScratch() {
	if len(o.chunks) == 0 || o.scratch {
		return
	}
	o.scratch = true
	k := o.d.NumClasses()
	if o.bigAccumulators() {
		debug.FreeOSMemory()
	}
	for i := range o.chunks {
		c := &o.chunks[i]
		most := fitting.MostLabels(o.d, c.lo, c.hi)
		if o.tlatent != nil {
			continue // no batch scratch: see probObjects
		}
		if o.slatent != nil {
			c.gs = make([]float64, fitting.MostBatchTasks(o.d, c.lo, c.hi)*k)
		}
		c.l = make([]float64, max(most, fitting.BatchLabels)*k)
		c.g = make([]float64, max(most, fitting.BatchLabels)*k)
	}
}

// freeAccumulators drops the chunks' accumulators and batch scratch, which
// a fit no longer needs once its parameters are known: with many classes
// the accumulators (a worker block per chunk) are as large as the output
// that is allocated next. Large accumulators are followed by a collection
// (see bigAccumulators). A later pass allocates them again.
func (o *objective) freeAccumulators() {
	big := o.bigAccumulators() && o.scratch
	for i := range o.chunks {
		c := &o.chunks[i]
		c.gw, c.gg, c.l, c.g, c.gs = nil, nil, nil, nil, nil
	}
	o.pool.Free()
	o.scratch = false
	if big {
		runtime.GC()
	}
}

// bigAccumulators reports whether the worker block, once per chunk, holds
// at least 2²¹ numbers (16 MiB), as with many classes and workers: a fit
// whose first pass and output allocate large arrays. The fit then
// collects garbage before its first pass, returning the free memory to
// the system (the reader's, whose many small blocks the large vectors of
// the fit cannot reuse), and after it drops the accumulators, before the
// J·K output is allocated: so each large allocation reuses the memory of
// the one before, or fresh pages in place of the ones given back, instead
// of growing the heap while the collector's next cycle is still ahead. A
// collection costs a mark of the live heap, tens of milliseconds, against
// a fit of seconds. On 10⁶ labels with K = 20 (three runs each) the
// collections lowered the peaks from 142-151 to 108-120 MB (la-ds) and
// from 224-249 to 187-194 MB (da-ds), and returning the free memory at
// the first, with the start reading the frequencies a row at a time, from
// 119-130 to 85-91 MB and from 189-197 to 170-172 MB, with no change of
// CPU time beyond the spread of runs.
func (o *objective) bigAccumulators() bool {
	return len(o.chunks)*(o.lay.W[1]-o.lay.W[0]) >= 1<<21
}

// setParams hands the parameters in x to both evaluators.
func (o *objective) setParams(x []float64) {
	w, ob, g, t := o.lay.Split(x)
	o.noise.SetParams(w, ob)
	o.latent.SetParams(g, t)
}

// eval returns the log-likelihood L at x and writes ∂L/∂x into grad. A
// noise model with a penalty (noise.Penalizer) has it subtracted from both.
func (o *objective) eval(x, grad []float64) float64 {
	v := o.pass(x, grad)
	gw, gob, gg, gt := o.lay.Split(grad)
	o.noise.FinishGrad(gw, gob)
	o.latent.FinishGrad(gg, gt)
	if p, ok := o.noise.(noise.Penalizer); ok {
		w, ob, _, _ := o.lay.Split(x)
		v -= p.Penalty(w, ob, gw, gob)
	}
	return v
}

// pass returns the log-likelihood L at x and writes into grad what the
// evaluators accumulate over all objects before FinishGrad: the gradient
// for most models, the expected counts for an M-step (see em.go).
//
// The chunks accumulate the shared blocks into accumulators from a pool
// (fitting.RunChunksOrdered), added to grad in chunk order.
func (o *objective) pass(x, grad []float64) float64 {
	o.allocScratch()
	o.setParams(x)
	clear(grad)
	gw, gob, gg, gt := o.lay.Split(grad)
	nw := len(gw)
	var v float64
	fitting.RunChunksOrdered(len(o.chunks), o.threads, &o.pool, func(i int, acc []float64) {
		c := &o.chunks[i]
		c.gw, c.gg = acc[:nw], acc[nw:]
		o.chunkPass(c, gob, gt)
		c.gw, c.gg = nil, nil
	}, func(i int, acc []float64) {
		v += o.chunks[i].value
		fitting.AddAndClear(gw, acc[:nw])
		fitting.AddAndClear(gg, acc[nw:])
	})
	return v
}

// chunkPass evaluates the objects of c, accumulating into c's value and
// shared-parameter gradients and into the object rows of gob and gt. The
// accumulators c.gw and c.gg are zero before it (pass leaves them so).
func (o *objective) chunkPass(c *chunk, gob, gt []float64) {
	k := o.d.NumClasses()
	var value float64
	// The probability-space terms are multiplied into prod (M·2^E, with M
	// kept in [2⁻²⁵⁶, 2²⁵⁶]) and take one logarithm per chunk.
	prod := num.NewProduct()
	off := o.d.Offsets
	for j := c.lo; j < c.hi; {
		if o.pnoise == nil {
			value += o.logObject(c, j, gob, gt)
			j++
			continue
		}
		start, hi := j, fitting.BatchEnd(off, j, c.hi)
		var p, g []float64
		if o.tlatent == nil {
			n := (off[hi] - off[start]) * k
			p, g = c.l[:n], c.g[:n]
			o.pnoise.Prob(start, hi, p)
		}
		for j < hi {
			// The batch's probabilities stay valid after an object
			// that takes the log path: carry on from the next one
			// without computing them again.
			var pj, gj []float64
			if p != nil {
				at := (off[j] - off[start]) * k
				pj, gj = p[at:], g[at:]
			}
			m, e, done := o.probObjects(c, j, hi, pj, gj, gob, gt)
			prod.Mul(m)
			prod.Scale(e)
			j += done
			if j < hi {
				// Object j underflows in probability space.
				value += o.logObject(c, j, gob, gt)
				j++
			}
		}
	}
	c.value = value + prod.Log()
}

// probObjects evaluates the objects j, j+1, ... of a batch that ends at hi
// in probability space, up to one that needs the log path, and returns
// their terms as m·2^e and their number, as latent.ProbEvaluator.TaskProb
// does; p and g are the batch's probabilities and weights from object j
// on. With the noise model's table (latent.TableEvaluator) the assumption
// reads the probabilities and adds the weights itself, and p and g are
// nil; otherwise the noise model accumulates the weights, once per
// object if both sides can (SharedProbEvaluator and SharedBackpropper).
func (o *objective) probObjects(c *chunk, j, hi int, p, g, gob, gt []float64) (float64, int, int) {
	if o.tlatent != nil {
		return o.tlatent.TaskTable(j, hi, o.tnoise.Table(), c.gw, c.gg, gt, c.lf, c.gf)
	}
	var m float64
	var e, done int
	if o.slatent != nil {
		m, e, done = o.slatent.TaskProbShared(j, hi, p, c.gs, c.gg, gt)
	} else {
		m, e, done = o.platent.TaskProb(j, hi, p, g, c.gg, gt)
	}
	switch {
	case done == 0:
	case o.snoise != nil:
		o.snoise.BackpropShared(j, j+done, p, c.gs, c.gw, gob)
	default:
		o.pnoise.BackpropProb(j, j+done, p, g, c.gw, gob)
	}
	return m, e, done
}

// logObject evaluates object j in log space (LogProb, Task, Backprop), with
// c's fallback scratch, which the probability-space batch does not use, and
// returns its term of the log-likelihood.
func (o *objective) logObject(c *chunk, j int, gob, gt []float64) float64 {
	n := (o.d.Offsets[j+1] - o.d.Offsets[j]) * o.d.NumClasses()
	l, g := c.lf[:n], c.gf[:n]
	o.noise.LogProb(j, l)
	v := o.latent.Task(j, l, g, c.gg, gt)
	o.noise.Backprop(j, g, c.gw, gob)
	return v
}

// outputs returns the consensus distribution of every object at the
// parameters x (J×K), the end of a fit: it first drops the chunks'
// accumulators (freeAccumulators), which the output would otherwise join.
func (o *objective) outputs(x []float64) []float64 {
	o.freeAccumulators()
	o.setParams(x)
	k := o.d.NumClasses()
	probs := mem.Make[float64](o.d.NumTasks() * k)
	po, _ := o.platent.(latent.ProbOutputter)
	o.forChunks(func(c *chunk) {
		for j := c.lo; j < c.hi; j++ {
			l := c.lf[:(o.d.Offsets[j+1]-o.d.Offsets[j])*k]
			out := probs[j*k : (j+1)*k]
			if po != nil {
				o.pnoise.Prob(j, j+1, l)
				if po.OutputProb(j, l, out) {
					continue
				}
			}
			o.noise.LogProb(j, l)
			o.latent.Output(j, l, out)
		}
	})
	return probs
}

// forChunks runs f on every chunk, on up to o.threads goroutines.
func (o *objective) forChunks(f func(c *chunk)) {
	fitting.RunChunks(len(o.chunks), o.threads, func(i int) { f(&o.chunks[i]) })
}
