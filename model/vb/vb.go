package vb

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/mem"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/fitting"
	"github.com/consensuslab/consensus/noise"
)

// vbSide is the latent assumption's part of a variational fit (vbLA or
// vbDA): per-object variational factors and, for DA, the prior's
// hyperparameters.
type vbSide interface {
	// start sets the object factors from the data before the first pass.
	// head is the number of the noise posterior's parameters that will
	// come before the side's in the fit's parameters (see params).
	start(d *data.Dataset, head int)
	// objects runs the E-step over the objects [lo, hi) of chunk c: it
	// reads the noise model's expected log probabilities, writes the
	// object factors, adds the weights of every label to c.acc through
	// nv.Accumulate, and adds to c the objects' part of the evidence lower
	// bound and of the largest change of their outputs.
	objects(c *vbChunk, nv noise.Variational)
	// global updates the shared factors from the chunks' sums, in chunk
	// order.
	global(chunks []vbChunk)
	// globals appends the shared factors to dst; setGlobals sets them
	// (raising any below its floor to it) and returns their part of the
	// evidence lower bound (minus their KL divergence from the prior).
	globals(dst []float64) []float64
	setGlobals(x []float64) float64
	// output writes every object's consensus distribution into probs.
	output(probs []float64)
	// params appends the factors to dst.
	params(dst []float64) []float64
	// describe says what was estimated, for Result.Method.
	describe() string
}

// vbChunk is a range of objects with its own accumulators, so that the
// E-step runs on chunks in parallel and the sums do not depend on the
// number of goroutines (see objective).
type vbChunk struct {
	lo, hi int
	// frozen says that the noise posterior is held (vbFrozen): the
	// expected counts are not needed, and batches leaves acc as it is.
	frozen bool
	acc    []float64 // the noise model's expected counts, during a pass
	glob   []float64 // the assumption's shared sums
	bound  float64   // the objects' part of the bound
	change float64   // the largest change of an output
	p, g   []float64 // scratch: expected probabilities and weights
	// rows and sums are scratch of DA's generic object update: the
	// offsets of an object's labels in p (0, K, 2K, ...) and their
	// normalisers.
	rows []int
	sums []float64
	// settles holds DA's object updates of a batch until their end
	// (vbDA.settleAll).
	settles vbSettles
	// newton is scratch of DA's objectNewton.
	newton newtonScratch
	// pad keeps the fields a goroutine writes for every object (change,
	// and through glob its sums) off the cache line of the next chunk's,
	// which another goroutine works on at the same time: sharing a line,
	// the two cores took turns owning it, and the default's LA passes
	// spent most of their time waiting for it (false sharing).
	_ [64]byte
}

// vbFit runs mean-field variational Bayes for a conjugate noise model under
// the assumption side s. One iteration is the map x ↦ F(x) on the shared
// factors x (the noise posterior's pseudo-counts and the side's globals):
// the E-step over the objects (s.objects) at x, then the closed-form
// updates of the noise posterior (nv.Update) and of the globals
// (s.global). The same pass gives the evidence lower bound at x, with every
// object's factors at their optimum given x. SQUAREM accelerates the
// iterations as EM's (see squarem), with the bound in the place of the
// log-likelihood while the passes ascend it. Passes that learn a structure
// (the averaged kinds' shares, the default's shared priors) or hold some
// of it (Settings.Fixed) do not all ascend the bound: once a plain pass
// has lowered it by more than FunctionTol·|bound|, an extrapolated step is
// accepted when its residual ‖F(x′) − x′‖ is below the plain step's
// ‖F(F(x)) − F(x)‖ (the residual as the merit function). The bound's
// check rejected nearly every step there: on a public set of 98,453
// relevance labels (K = 4, 766 workers; not shipped) the default took
// 1,077 passes and 10.2 CPU-s, and takes 498 and 5.4, the same outputs
// within 0.001. The fit stops when the relative change of the bound is at
// most FunctionTol·|bound| and no output probability moved by more than
// ParamTol, or after MaxIterations passes. With mode vbFrozen the noise
// posterior is kept (fitted before) and only the objects' factors and the
// globals are fitted; otherwise it starts from weight, then from set.Start
// if given, with the pseudo-counts set.Fixed marks held (Bayes.Init).
func vbFit(ctx context.Context, name string, d *data.Dataset, set model.Settings, nv noise.Variational, s vbSide, mode vbMode, weight data.TaskWeights) (*model.Result, error) {
	start := time.Now()
	k := d.NumClasses()
	frozen := mode == vbFrozen
	if t, ok := nv.(noise.Threaded); ok {
		t.SetThreads(fitting.ThreadCount(set.Threads))
	}
	if !frozen {
		if weight == nil {
			weight = d.FrequencyWeights()
		}
		nv.Start(weight)
	}
	nl := len(nv.Params(nil)) // the noise posterior's share of the parameters
	if !frozen {
		if err := loadStart(name, nv, set, nl); err != nil {
			return nil, err
		}
	}
	s.start(d, nl)
	bounds := fitting.ChunkBounds(d, fitting.ChunkCount(d, nv.AccDim()))
	chunks := make([]vbChunk, len(bounds)-1)
	for i := range chunks {
		lo, hi := bounds[i], bounds[i+1]
		most := fitting.MostLabels(d, lo, hi)
		chunks[i] = vbChunk{
			lo: lo, hi: hi, frozen: frozen,
			// A whole number of cache lines (64 bytes), so that no two
			// chunks' sums share one (see vbChunk's padding).
			glob: make([]float64, k, (k+7)/8*8),
			p:    make([]float64, max(most, fitting.BatchLabels)*k),
			g:    make([]float64, max(most, fitting.BatchLabels)*k),
		}
	}
	v := &vbRun{ctx: ctx, nv: nv, s: s, chunks: chunks, set: set, frozen: frozen, acc: make([]float64, nv.AccDim()), pool: fitting.AccPool{Dim: nv.AccDim()}, start: start}
	if !frozen {
		v.nl = nl
	}
	x := v.state(nil)
	bound, fx, _, err := v.pass(x)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", name, err)
	}
	status, converged := "IterationLimit", false
	maxStep := 1.0
	ascent := true // whether every plain pass so far has raised the bound
	for v.iter < set.MaxIterations {
		// x, bound = L(x), fx = F(x).
		b1, f1, c1, err := v.pass(fx)
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", name, err)
		}
		if v.done(bound, b1, c1) {
			bound, status, converged = b1, "Converged", true
			break
		}
		if b1 < bound-v.set.FunctionTol*math.Abs(bound) {
			ascent = false
		}
		alpha := 1.0
		if len(x) > 0 {
			alpha = squaremLength(x, fx, f1, maxStep)
		}
		if alpha <= 1 || v.iter >= set.MaxIterations {
			// A step of length 1 is the plain step F(F(x)): accepted,
			// and the largest length grows as after any accepted one.
			if alpha == maxStep {
				maxStep *= fitting.SquaremStepGrowth
			}
			v.release(x)
			x, bound, fx = fx, b1, f1
			continue
		}
		// x' = x + 2α r + α² v with r = F(x) - x, v = F(F(x)) - 2F(x) + x.
		xp := v.vector(len(x))
		for i := range xp {
			r := fx[i] - x[i]
			w := f1[i] - 2*fx[i] + x[i]
			xp[i] = x[i] + 2*alpha*r + alpha*alpha*w
		}
		bp, fp, _, err := v.pass(xp)
		if err == nil && (bp >= b1 || !ascent && residual(xp, fp) <= residual(fx, f1)) {
			if alpha == maxStep {
				maxStep *= fitting.SquaremStepGrowth
			}
			v.release(x, fx, f1)
			x, bound, fx = xp, bp, fp
			continue
		}
		maxStep = max(1, maxStep/fitting.SquaremStepGrowth)
		v.release(x, xp, fp)
		x, bound, fx = fx, b1, f1
	}
	if !fitting.IsFinite(bound) {
		return nil, fmt.Errorf("model %s: the evidence lower bound became non-finite after %d iterations", name, v.iter)
	}
	r := &model.Result{
		Model:         name,
		Data:          d,
		LogLikelihood: bound,
		Method:        "vb, " + s.describe(),
		Iterations:    v.iter,
		Evaluations:   v.iter,
		Status:        status,
		Converged:     converged,
		Params:        s.params(nv.Params(nil)),
	}
	r.SetNoise(nv)
	r.Probs = mem.Make[float64](d.NumTasks() * k)
	s.output(r.Probs)

	r.Runtime = time.Since(start)
	return r, nil
}

// vbMode says what a variational fit fits.
type vbMode int

const (
	// vbFresh starts the noise posterior from the data and fits it.
	vbFresh vbMode = iota
	// vbFrozen keeps the noise posterior as it is (it must have been
	// fitted before) and fits only the objects' factors and the globals.
	vbFrozen
)

// vbRun is the state of one variational fit: its parts, the chunks, and
// the number of passes so far.
type vbRun struct {
	ctx    context.Context
	nv     noise.Variational
	s      vbSide
	chunks []vbChunk
	set    model.Settings
	frozen bool
	nl     int             // the noise posterior's share of the state (0 if frozen)
	acc    []float64       // the summed expected counts of the last pass
	pool   fitting.AccPool // the chunks' accumulators of expected counts
	spare  [][]float64
	iter   int
	start  time.Time
}

// vector returns a vector of length n in the memory of a state vector
// that the fit no longer uses, if there is one large enough: with many
// classes and workers a state holds W·K² numbers, and SQUAREM drops one to
// three of them in every cycle, which would otherwise be garbage that
// grows the heap between the collector's cycles.
func (v *vbRun) vector(n int) []float64 {
	if k := len(v.spare); k > 0 {
		s := v.spare[k-1]
		v.spare = v.spare[:k-1]
		if cap(s) >= n {
			return s[:n]
		}
	}
	return mem.Make[float64](n)
}

// release hands state vectors that the fit no longer uses to vector; nil
// ones are left out.
func (v *vbRun) release(s ...[]float64) {
	for _, x := range s {
		if x != nil {
			v.spare = append(v.spare, x)
		}
	}
}

// state appends the shared factors (noise pseudo-counts unless frozen,
// then the side's globals) to dst.
func (v *vbRun) state(dst []float64) []float64 {
	if !v.frozen {
		dst = v.nv.Params(dst)
	}
	return v.s.globals(dst)
}

// pass sets the shared factors to x, runs the E-step, and returns the
// evidence lower bound at x, F(x), and the largest change of an output
// probability since the last pass.
func (v *vbRun) pass(x []float64) (float64, []float64, float64, error) {
	if err := v.ctx.Err(); err != nil {
		return 0, nil, 0, err
	}
	var bound float64
	if !v.frozen {
		bound -= v.nv.Load(x[:v.nl])
	}
	bound += v.s.setGlobals(x[v.nl:])
	clear(v.acc)
	var change float64
	// Each chunk's expected counts go into an accumulator from the
	// pool, added to v.acc in chunk order (see fitting.RunChunksOrdered).
	fitting.RunChunksOrdered(len(v.chunks), v.set.Threads, &v.pool, func(i int, acc []float64) {
		c := &v.chunks[i]
		c.acc = acc
		clear(c.glob)
		c.bound, c.change = 0, 0
		v.s.objects(c, v.nv)
		c.acc = nil
	}, func(i int, acc []float64) {
		c := &v.chunks[i]
		bound += c.bound
		change = max(change, c.change)
		fitting.AddAndClear(v.acc, acc)
	})
	if !v.frozen {
		v.nv.Update(v.acc)
	}
	v.s.global(v.chunks)
	v.iter++
	if !fitting.IsFinite(bound) {
		return bound, nil, 0, fmt.Errorf("the evidence lower bound became non-finite after %d iterations", v.iter)
	}
	if v.set.Progress != nil {
		v.set.Progress(model.Progress{Iteration: v.iter, MaxIterations: v.set.MaxIterations, LogLikelihood: bound, Elapsed: time.Since(v.start)})
	}
	return bound, v.state(v.vector(0)), change, nil
}

// done reports whether a step from a bound prev to b with the largest
// output change c meets the stopping rule.
func (v *vbRun) done(prev, b, c float64) bool {
	return math.Abs(b-prev) <= v.set.FunctionTol*math.Abs(b) && c <= v.set.ParamTol
}

// residual returns ‖F(x) − x‖², fx = F(x).
func residual(x, fx []float64) float64 {
	var s float64
	for i := range x {
		r := fx[i] - x[i]
		s += float64(r * r)
	}
	return s
}

// squaremLength returns SQUAREM's step length ‖r‖/‖v‖ for r = x1 - x0,
// v = x2 - 2x1 + x0, clamped to [1, maxStep].
func squaremLength(x0, x1, x2 []float64, maxStep float64) float64 {
	var rr, vv float64
	for i := range x0 {
		r := x1[i] - x0[i]
		w := x2[i] - 2*x1[i] + x0[i]
		rr += float64(r * r) // each product rounded before its sum, on every
		vv += float64(w * w) // build (no multiply-add), as object2 does
	}
	if !(vv > 0) {
		return 1
	}
	return min(max(math.Sqrt(rr/vv), 1), maxStep)
}

// batches calls f for the batches of the objects of c (fitting.BatchEnd),
// after the noise model's expected probabilities of their labels have been
// written to c.p, and then adds the weights f wrote to c.g to the expected
// counts c.acc, unless the noise posterior is frozen.
func (c *vbChunk) batches(d *data.Dataset, nv noise.Variational, f func(lo, hi int, p, g []float64)) {
	k := d.NumClasses()
	off := d.Offsets
	for j := c.lo; j < c.hi; {
		hi := fitting.BatchEnd(off, j, c.hi)
		n := (off[hi] - off[j]) * k
		p, g := c.p[:n], c.g[:n]
		nv.Prob(j, hi, p)
		f(j, hi, p, g)
		if !c.frozen {
			nv.Accumulate(j, hi, g, c.acc)
		}
		j = hi
	}
}
