package model

import (
	"fmt"
	"math"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/noise"
)

// vbSide is the latent assumption's part of a variational fit (vbLA or
// vbDA): per-object variational factors and, for DA, the prior's
// hyperparameters.
type vbSide interface {
	// name is "la", "da" or "hda".
	name() string
	// start sets the object factors from the data before the first pass.
	start(d *data.Dataset)
	// objects runs the E-step over the objects [lo, hi) of chunk c: it
	// reads the noise model's expected log probabilities, writes the
	// object factors, adds the weights of every label to c.acc through
	// nv.Accumulate, and adds to c the objects' part of the evidence lower
	// bound and of the largest change of their outputs.
	objects(c *vbChunk, nv noise.Variational)
	// global updates the shared factors from the chunks' sums, in chunk
	// order, and returns the global part of the bound (minus KL terms).
	global(chunks []vbChunk) float64
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
	acc    []float64 // the noise model's expected counts
	glob   []float64 // the assumption's shared sums
	bound  float64   // the objects' part of the bound
	change float64   // the largest change of an output
	p, g   []float64 // scratch: expected probabilities and weights
}

// vbFit runs mean-field variational Bayes for a conjugate noise model under
// the assumption side s: alternate the E-step over the objects (s.objects)
// with the closed-form updates of the noise posterior (nv.Update) and of the
// shared factors (s.global), until both the relative change of the evidence
// lower bound is at most FunctionTol·|bound| and no output probability
// moved by more than ParamTol in the last iteration, or MaxIterations.
func vbFit(name string, d *data.Dataset, set Settings, nv noise.Variational, s vbSide, globDim int, frozen bool) (*Result, error) {
	start := time.Now()
	k := d.NumClasses()
	if !frozen {
		nv.Start(d.Frequencies())
	}
	s.start(d)
	bounds := chunkBounds(d, chunkCount(d, nv.AccDim()))
	chunks := make([]vbChunk, len(bounds)-1)
	for i := range chunks {
		lo, hi := bounds[i], bounds[i+1]
		most := 0
		for j := lo; j < hi; j++ {
			most = max(most, d.Offsets[j+1]-d.Offsets[j])
		}
		chunks[i] = vbChunk{
			lo: lo, hi: hi,
			acc:  make([]float64, nv.AccDim()),
			glob: make([]float64, globDim),
			p:    make([]float64, max(most, batchLabels)*k),
			g:    make([]float64, max(most, batchLabels)*k),
		}
	}
	acc := make([]float64, nv.AccDim())
	threads := set.Threads
	prev := math.Inf(-1)
	var bound float64
	status, converged := "IterationLimit", false
	iter := 0
	for iter < set.MaxIterations {
		if err := set.Context.Err(); err != nil {
			return nil, err
		}
		runChunks(len(chunks), threads, func(i int) {
			c := &chunks[i]
			clear(c.acc)
			clear(c.glob)
			c.bound, c.change = 0, 0
			s.objects(c, nv)
		})
		clear(acc)
		var change float64
		bound = 0
		for i := range chunks {
			c := &chunks[i]
			bound += c.bound
			change = max(change, c.change)
			for p, v := range c.acc {
				acc[p] += v
			}
		}
		bound += s.global(chunks)
		if !frozen {
			bound -= nv.Update(acc)
		}
		iter++
		if !isFinite(bound) {
			return nil, fmt.Errorf("model %s: the evidence lower bound became non-finite after %d iterations", name, iter)
		}
		if set.Progress != nil {
			set.Progress(Progress{Iteration: iter, MaxIterations: set.MaxIterations, LogLikelihood: bound, Elapsed: time.Since(start)})
		}
		if math.Abs(bound-prev) <= set.FunctionTol*math.Abs(bound) && change <= set.ParamTol {
			status, converged = "Converged", true
			break
		}
		prev = bound
	}
	r := &Result{
		Model:         name,
		Data:          d,
		LogLikelihood: bound,
		Method:        "vb, " + s.describe(),
		Iterations:    iter,
		Evaluations:   iter,
		Status:        status,
		Converged:     converged,
		Params:        s.params(nv.Params(nil)),
		view:          nv,
	}
	r.Probs = make([]float64, d.NumTasks()*k)
	s.output(r.Probs)
	r.Runtime = time.Since(start)
	return r, nil
}

// chunkCount returns the number of chunks for d when every chunk
// accumulates accDim numbers of its own (see newObjective).
func chunkCount(d *data.Dataset, accDim int) int {
	n := d.NumLabels()
	c := min(maxChunks, max(1, n/minChunkLabels))
	for c > 1 && c*accDim > 4*n+1024 {
		c--
	}
	return c
}

// batches calls f for consecutive ranges [lo, hi) of the objects of c with
// at most batchLabels labels each (or one larger object), a cut that
// depends on the data only, after the noise model's expected probabilities
// of their labels have been written to c.p.
func (c *vbChunk) batches(d *data.Dataset, nv noise.Variational, f func(lo, hi int, p, g []float64)) {
	k := d.NumClasses()
	off := d.Offsets
	for j := c.lo; j < c.hi; {
		hi := j + 1
		for hi < c.hi && off[hi+1]-off[j] <= batchLabels {
			hi++
		}
		n := (off[hi] - off[j]) * k
		p, g := c.p[:n], c.g[:n]
		nv.Prob(j, hi, p)
		f(j, hi, p, g)
		nv.Accumulate(j, hi, g, c.acc)
		j = hi
	}
}
