// Package sim simulates crowdsourced labels from any noise model under
// either latent assumption, with known ground truth, for recovery tests and
// the paper's synthetic experiment.
//
// For every object j a label distribution q_j is drawn from a symmetric
// Dirichlet distribution (for two classes and concentration 1, the paper's
// q_j ~ U[0, 1]). Each object is labelled by LabelsPerTask distinct workers
// chosen at random (by every worker when LabelsPerTask is 0). The latent
// class of each label comes from the assumption (latent.Generator: one true
// class per object under LA, a fresh subjective class per label under DA)
// and the observed class from the noise model's P(y | z) at random
// parameters (noise.Sampler).
package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"

	"gonum.org/v1/gonum/stat/distmv"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/mem"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// Config describes a simulation. The zero value is the paper's synthetic
// experiment: 2000 objects, 20 workers who all label every object, two
// classes, q_j ~ U[0, 1], GLAD noise under the DA assumption, seed 0.
type Config struct {
	// Tasks is the number of objects; zero means 2000.
	Tasks int
	// Workers is the number of workers; zero means 20.
	Workers int
	// Classes is the number of classes K; zero means 2.
	Classes int
	// LabelsPerTask is the number of distinct workers who label each
	// object; zero (or more than Workers) means all of them.
	LabelsPerTask int
	// Noise is the noise model; nil means noise.GLAD{}. It must implement
	// noise.Sampler.
	Noise noise.Model
	// Latent is the assumption generating latent classes; nil means
	// latent.DA{}. It must implement latent.Generator.
	Latent latent.Assumption
	// Concentration is the parameter of the symmetric Dirichlet
	// distribution of q_j; zero means 1.
	Concentration float64
	// Seed seeds every random draw.
	Seed uint64
}

// Truth is the ground truth of a simulated data set.
type Truth struct {
	// Q holds the label distribution q_j of every object, J×K.
	Q []float64
	// Target holds what a consensus model should recover, J×K: q_j under
	// DA, the one-hot true class under LA (a generator with one class per
	// object).
	Target []float64
	// Worker and Object hold the noise model's parameters (its worker and
	// object blocks).
	Worker, Object []float64
}

func (c Config) withDefaults() Config {
	if c.Tasks == 0 {
		c.Tasks = 2000
	}
	if c.Workers == 0 {
		c.Workers = 20
	}
	if c.Classes == 0 {
		c.Classes = 2
	}
	if c.LabelsPerTask <= 0 || c.LabelsPerTask > c.Workers {
		c.LabelsPerTask = c.Workers
	}
	if c.Noise == nil {
		c.Noise = noise.GLAD{}
	}
	if c.Latent == nil {
		c.Latent = latent.DA{}
	}
	if c.Concentration == 0 {
		c.Concentration = 1
	}
	return c
}

// oneClass is a latent.Generator that may give every label of an object
// the same latent class, its true class (latent.LA), so that what a
// consensus model should recover is that class rather than q_j.
type oneClass interface {
	OneClassPerObject() bool
}

// Simulate draws a data set and its ground truth as described by c.
func Simulate(c Config) (*data.Dataset, *Truth, error) {
	c = c.withDefaults()
	if c.Tasks < 0 || c.Workers < 0 || c.Classes < 2 || c.Classes > data.MaxClasses {
		return nil, nil, fmt.Errorf("sim: invalid sizes: %d tasks, %d workers, %d classes", c.Tasks, c.Workers, c.Classes)
	}
	if err := noise.CheckClasses(c.Noise, c.Classes); err != nil {
		return nil, nil, fmt.Errorf("sim: %w", err)
	}
	sampler, ok := c.Noise.(noise.Sampler)
	if !ok {
		return nil, nil, fmt.Errorf("sim: noise model %s cannot sample parameters", c.Noise.Name())
	}
	gen, ok := c.Latent.(latent.Generator)
	if !ok {
		return nil, nil, errors.New("sim: the assumption cannot generate latent classes")
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x5eed))
	k, n := c.Classes, c.LabelsPerTask

	// Who labels what. The labels are generated grouped by task, so the
	// data set is built in place, without the task index slice and the
	// grouped copy of data.FromIndices: 6 bytes per label.
	d := &data.Dataset{
		Tasks:   names("t", c.Tasks),
		Workers: names("w", c.Workers),
		Classes: names("", k),
		Offsets: mem.Make[int](c.Tasks + 1),
		Worker:  mem.MakeCap[int32](0, c.Tasks*n),
		Label:   mem.Make[uint16](c.Tasks * n),
	}
	perm := make([]int32, c.Workers)
	for i := range perm {
		perm[i] = int32(i)
	}
	swaps := make([]int, n)
	for j := range c.Tasks {
		for i := 0; i < n; i++ { // partial Fisher-Yates: n distinct workers
			r := i + rng.IntN(c.Workers-i)
			swaps[i] = r
			perm[i], perm[r] = perm[r], perm[i]
			d.Worker = append(d.Worker, perm[i])
		}
		// Undo the swaps in reverse order, so that perm is the identity
		// again at O(n) rather than O(Workers) cost per task.
		for i := n - 1; i >= 0; i-- {
			r := swaps[i]
			perm[i], perm[r] = perm[r], perm[i]
		}
		d.Offsets[j+1] = len(d.Worker)
	}
	if err := d.Validate(); err != nil {
		return nil, nil, err
	}

	tr := &Truth{
		Q:      mem.Make[float64](c.Tasks * k),
		Target: mem.Make[float64](c.Tasks * k),
		Worker: make([]float64, c.Workers*c.Noise.WorkerDim(k)),
		Object: mem.Make[float64](c.Tasks * c.Noise.ObjectDim(k)),
	}
	sampler.SampleParams(rng, k, tr.Worker, tr.Object)
	ev := c.Noise.NewEvaluator(d)
	ev.SetParams(tr.Worker, tr.Object)

	alpha := make([]float64, k)
	for z := range alpha {
		alpha[z] = c.Concentration
	}
	dir := distmv.NewDirichlet(alpha, rng)
	z := make([]int, n)
	p := make([]float64, k)
	oc, ok := gen.(oneClass)
	perObject := ok && oc.OneClassPerObject()
	for j := range c.Tasks {
		q := tr.Q[j*k : (j+1)*k]
		dir.Rand(q)
		gen.Generate(rng, q, z)
		target := tr.Target[j*k : (j+1)*k]
		if perObject {
			target[z[0]] = 1
		} else {
			copy(target, q)
		}
		workers, _ := d.TaskLabels(j)
		for i, w := range workers {
			ev.Conditional(w, j, z[i], p)
			d.Label[d.Offsets[j]+i] = uint16(latent.Draw(rng, p))
		}
	}
	return d, tr, nil
}

// names returns prefix0, prefix1, ..., prefix(n-1). The names share one
// backing string, which saves a separate allocation per name on the large
// data sets of the benchmarks.
func names(prefix string, n int) []string {
	var buf []byte
	ends := make([]int, n)
	for i := range n {
		buf = append(buf, prefix...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		ends[i] = len(buf)
	}
	all := string(buf)
	s := make([]string, n)
	start := 0
	for i, e := range ends {
		s[i] = all[start:e]
		start = e
	}
	return s
}
