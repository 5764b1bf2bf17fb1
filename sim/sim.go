// Package sim simulates crowdsourced labels from any noise model under
// either latent assumption, with known ground truth, for recovery tests,
// the paper's synthetic experiment and benchmarks of harder regimes.
//
// For every object j a label distribution q_j is drawn from a Dirichlet
// distribution (symmetric by default: for two classes and concentration 1,
// the paper's q_j ~ U[0, 1]). Each object is labelled by LabelsPerTask
// distinct workers, chosen at random (uniformly, or skewed towards the first
// workers by Activity), by every worker when LabelsPerTask is 0. The latent
// class of each label comes from the assumption (latent.Generator: one true
// class per object under LA, a fresh subjective class per label under DA)
// and the observed class from the noise model's P(y | z) at random
// parameters (noise.Sampler, or Settings.Params in its place).
//
// Some workers may depart from the noise model: spammers, adversaries, and
// a group of workers who share one systematic confusion (Settings.Spammers,
// Settings.Adversaries, Settings.Correlated). Regime returns named
// settings of these regimes.
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

// Truth is the ground truth of a simulated data set.
type Truth struct {
	// Q holds the label distribution q_j of every object, J×K.
	Q []float64
	// Target holds what a consensus model should recover, J×K: q_j under
	// DA, the one-hot true class under LA (a generator with one class per
	// object).
	Target []float64
	// Class holds the true class of every object under LA; it is nil
	// under DA.
	Class []int
	// Worker and Task hold the noise model's parameters (its worker and
	// object blocks). Spammers and adversaries have parameters too; their
	// labels depart from them as Settings describe.
	Worker, Task []float64
	// Kind holds the kind of every worker.
	Kind []Kind
	// Subtype reports, for every object, whether the correlated group's
	// confusion applied to it: under LA, whether it is of class From and
	// in the subtype; under DA, whether it is in the subtype. It is nil
	// without a correlated group.
	Subtype []bool

	cfg   Settings  // with defaults
	prior []float64 // the class prior, normalised
}

// oneClass is a latent.Generator that may give every label of an object
// the same latent class, its true class (latent.LA), so that what a
// consensus model should recover is that class rather than q_j.
type oneClass interface {
	OneClassPerTask() bool
}

var _ oneClass = latent.LA{}

// Simulate draws a data set and its ground truth as described by c.
func Simulate(c Settings) (*data.Dataset, *Truth, error) {
	c = c.withDefaults()
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	if err := noise.CheckClasses(c.Noise, c.Classes); err != nil {
		return nil, nil, fmt.Errorf("sim: %w", err)
	}
	sampler, err := c.sampler()
	if err != nil {
		return nil, nil, err
	}
	gen, ok := c.Latent.(latent.Generator)
	if !ok {
		return nil, nil, errors.New("sim: the assumption cannot generate latent classes")
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x5eed))
	k, n := c.Classes, c.LabelsPerTask
	group := c.Correlated

	// Who labels what. The labels are generated grouped by task, so the
	// data set is built in place, without the task index slice and the
	// grouped copy of data.FromIndices: 6 bytes per label.
	d := &data.Dataset{
		Tasks:   names("t", c.Tasks),
		Workers: names("w", c.Workers),
		Classes: names("", k),
		Offsets: mem.Make[int](c.Tasks + 1),
		Worker:  mem.MakeCap[int32](0, c.Tasks*n),
	}
	ch := newChooser(rng, c.Workers, group.Workers, c.Activity)
	for j := range c.Tasks {
		m := n
		if group.Workers > 0 && rng.Float64() < group.Coverage {
			for w := range group.Workers {
				d.Worker = append(d.Worker, int32(w))
			}
			m -= group.Workers
		}
		d.Worker = ch.choose(d.Worker, m)
		d.Offsets[j+1] = len(d.Worker)
	}
	d.Label = mem.Make[uint16](len(d.Worker))
	if err := d.Validate(); err != nil {
		return nil, nil, err
	}

	tr := &Truth{
		Q:      mem.Make[float64](c.Tasks * k),
		Target: mem.Make[float64](c.Tasks * k),
		Worker: make([]float64, c.Workers*c.Noise.WorkerDim(k)),
		Task:   mem.Make[float64](c.Tasks * c.Noise.TaskDim(k)),
		Kind:   c.kinds(),
		cfg:    c,
		prior:  c.prior(),
	}
	sampler.SampleParams(rng, k, tr.Worker, tr.Task)
	ev := c.Noise.NewEvaluator(d)
	ev.SetParams(tr.Worker, tr.Task)

	alpha := make([]float64, k)
	for z := range alpha {
		alpha[z] = c.Concentration
		if c.ClassPrior != nil {
			alpha[z] = c.Concentration * float64(k) * c.ClassPrior[z]
		}
	}
	dir := distmv.NewDirichlet(alpha, rng)
	z := make([]int, c.Workers)
	p := make([]float64, k)
	oc, ok := gen.(oneClass)
	perObject := ok && oc.OneClassPerTask()
	if perObject {
		tr.Class = make([]int, c.Tasks)
	}
	if group.Workers > 0 {
		tr.Subtype = make([]bool, c.Tasks)
	}
	// Under Settings.Ambiguity, q_j ~ Dirichlet(Vertex·e_z + Base·1)
	// around the true class z: amb[z], drawn from the simulation's stream.
	var amb []*distmv.Dirichlet
	if c.Ambiguity != (Ambiguity{}) {
		for z := range k {
			a := make([]float64, k)
			for x := range a {
				a[x] = c.Ambiguity.Base
			}
			a[z] += c.Ambiguity.Vertex
			amb = append(amb, distmv.NewDirichlet(a, rng))
		}
	}
	for j := range c.Tasks {
		q := tr.Q[j*k : (j+1)*k]
		dir.Rand(q)
		workers, _ := d.TaskLabels(j)
		zj := z[:len(workers)]
		gen.Generate(rng, q, zj)
		truth := zj[0] // the true class, under LA
		if amb != nil {
			amb[truth].Rand(q)
			for i := range zj {
				zj[i] = latent.Draw(rng, q)
			}
		}
		target := tr.Target[j*k : (j+1)*k]
		if perObject {
			target[truth] = 1
			tr.Class[j] = truth
		} else {
			copy(target, q)
		}
		subtype := false
		if group.Workers > 0 {
			subtype = rng.Float64() < group.Subtype
			tr.Subtype[j] = subtype && (!perObject || truth == group.From)
		}
		for i, w := range workers {
			var y int
			switch kind := tr.Kind[w]; {
			case kind == Spammer:
				y = rng.IntN(k)
			case kind == CorrelatedWorker && subtype && zj[i] == group.From:
				y = group.To
			default:
				ev.Conditional(w, j, zj[i], p)
				y = latent.Draw(rng, p)
				if kind == Adversary {
					y = (y + 1) % k
				}
			}
			d.Label[d.Offsets[j]+i] = uint16(y)
		}
	}
	return d, tr, nil
}

// kinds returns the kind of every worker: the correlated group first, then
// spammers and adversaries at random among the others, from a random
// stream of their own.
func (c Settings) kinds() []Kind {
	kinds := make([]Kind, c.Workers)
	g := c.Correlated.Workers
	for w := range g {
		kinds[w] = CorrelatedWorker
	}
	ns, na := c.kindCount(c.Spammers), c.kindCount(c.Adversaries)
	if ns+na == 0 {
		return kinds
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x6b696e64))
	perm := rng.Perm(c.Workers - g)
	for i, w := range perm[:ns+na] {
		kinds[g+w] = Spammer
		if i >= ns {
			kinds[g+w] = Adversary
		}
	}
	return kinds
}

// prior returns the class prior, normalised: ClassPrior, or uniform.
func (c Settings) prior() []float64 {
	p := make([]float64, c.Classes)
	var sum float64
	for z := range p {
		p[z] = 1
		if c.ClassPrior != nil {
			p[z] = c.ClassPrior[z]
		}
		sum += p[z]
	}
	for z := range p {
		p[z] /= sum
	}
	return p
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
