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
// parameters (noise.Sampler, or Config.Params in its place).
//
// Some workers may depart from the noise model: spammers, adversaries, and
// a group of workers who share one systematic confusion (Config.Spammers,
// Config.Adversaries, Config.Correlated). Regime returns named
// configurations of these regimes.
package sim

import (
	"errors"
	"fmt"
	"math"
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
// Every field added to it later has a zero value that leaves the data set
// drawn by the other fields unchanged, bit for bit.
type Config struct {
	// Tasks is the number of objects; zero means 2000.
	Tasks int
	// Workers is the number of workers; zero means 20.
	Workers int
	// Classes is the number of classes K; zero means len(ClassPrior), or
	// 2 without a class prior.
	Classes int
	// LabelsPerTask is the number of distinct workers who label each
	// object; zero (or more than Workers) means all of them.
	LabelsPerTask int
	// Noise is the noise model; nil means the model of Params, or
	// noise.GLAD{} without Params. It must implement noise.Sampler unless
	// Params is set.
	Noise noise.Model
	// Latent is the assumption generating latent classes; nil means
	// latent.DA{}. It must implement latent.Generator.
	Latent latent.Assumption
	// Concentration is the concentration of the Dirichlet distribution of
	// q_j; zero means 1.
	Concentration float64
	// Seed seeds every random draw.
	Seed uint64

	// ClassPrior is the marginal distribution of the classes, K positive
	// numbers summing to 1 (within 10⁻⁶). The label distributions are
	// drawn from Dirichlet(Concentration·K·ClassPrior), whose mean is
	// ClassPrior, so under LA (which draws the true class of an object
	// from q_j) the true class of each object is distributed as ClassPrior
	// and under DA every label's latent class is. Nil means the uniform
	// prior, the symmetric Dirichlet(Concentration) of the paper.
	ClassPrior []float64

	// Activity skews which workers label an object: its distinct workers
	// are drawn without replacement with probability proportional to
	// 1/rank^Activity, where the rank of worker w (named "w<index>") is
	// its index + 1, so worker w0 is the most active. Zero means uniform,
	// the draw of the paper's experiment; it must not be negative.
	Activity float64

	// Spammers and Adversaries are the shares of workers, from 0 to 1
	// with a sum of at most 1, who are spammers and adversaries:
	// round(Spammers·Workers) and round(Adversaries·Workers) workers
	// outside the correlated group, chosen by a random permutation
	// seeded by Seed (and independent of every other draw, so that adding
	// spammers does not change who labels which object). A spammer's
	// every label is uniform over the K classes, whatever the latent
	// class. An adversary draws a label y from its noise model's P(y | z)
	// and reports (y + 1) mod K instead: its confusion matrix's columns
	// are shifted by one class, so a worker who would favour the latent
	// class favours the next class instead (for K = 2, it flips every
	// label) and is right with probability P(z - 1 | z), worse than chance
	// for a worker better than chance. Truth.Kind tells which workers they
	// are.
	Spammers, Adversaries float64

	// Correlated describes a group of workers who share one systematic
	// confusion; its zero value means no group.
	Correlated Correlated

	// Params, if not nil, draws the true noise parameters in place of the
	// noise model's own noise.Sampler, for worker populations other than
	// its default one (DSParams, OneCoinParams). Its Model must have the
	// name of Noise.
	Params ParamSampler
}

// Correlated describes a group of workers who label many of the same
// objects and share one systematic confusion: a latent subtype of class
// From, a share Subtype of that class's objects, that every member of the
// group labels To, whatever its own noise parameters. On every other
// object a member labels as its noise model says.
//
// The group's members are workers 0 to Workers-1 (the top of the activity
// ranking) and label exactly the covered objects: each object is covered
// with probability Coverage, and a covered object is labelled by every
// member and by LabelsPerTask - Workers other workers, an uncovered one by
// LabelsPerTask other workers (at most all the workers outside the group).
// The group gives on average a share Coverage·Workers/LabelsPerTask of all
// labels: for example two members, five labels an object and Coverage 5/6
// give a third of the labels.
//
// Each object is in the subtype with probability Subtype, drawn
// independently of its class; the confusion applies to the labels whose
// latent class is From (under LA: to the subtype's objects whose true class
// is From). Truth.Subtype tells which objects it affected.
type Correlated struct {
	// Workers is the number of members; zero means no group. It must be
	// at most LabelsPerTask (when that is not zero) and less than Workers.
	Workers int
	// Coverage is the share of objects the group labels, in (0, 1].
	Coverage float64
	// Subtype is the share of the objects of class From in the subtype,
	// in [0, 1].
	Subtype float64
	// From is the class of the subtype and To the class the group calls
	// it; both zero mean 0 and 1. They must differ and be classes.
	From, To int
}

// Kind is the kind of a simulated worker.
type Kind uint8

// The kinds of worker of Config.
const (
	// Normal is a worker whose labels follow its noise model.
	Normal Kind = iota
	// Spammer is a worker whose labels are uniform at random.
	Spammer
	// Adversary is a worker whose labels are shifted by one class.
	Adversary
	// CorrelatedWorker is a member of the correlated group.
	CorrelatedWorker
)

// String returns "normal", "spammer", "adversary" or "correlated".
func (k Kind) String() string {
	switch k {
	case Normal:
		return "normal"
	case Spammer:
		return "spammer"
	case Adversary:
		return "adversary"
	case CorrelatedWorker:
		return "correlated"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

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
	// Worker and Object hold the noise model's parameters (its worker and
	// object blocks). Spammers and adversaries have parameters too; their
	// labels depart from them as Config describes.
	Worker, Object []float64
	// Kind holds the kind of every worker.
	Kind []Kind
	// Subtype reports, for every object, whether the correlated group's
	// confusion applied to it: under LA, whether it is of class From and
	// in the subtype; under DA, whether it is in the subtype. It is nil
	// without a correlated group.
	Subtype []bool

	cfg   Config    // with defaults
	prior []float64 // the class prior, normalised
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
		if len(c.ClassPrior) > 0 {
			c.Classes = len(c.ClassPrior)
		}
	}
	if c.LabelsPerTask <= 0 || c.LabelsPerTask > c.Workers {
		c.LabelsPerTask = c.Workers
	}
	if c.Noise == nil {
		c.Noise = noise.GLAD{}
		if c.Params != nil {
			c.Noise = c.Params.Model()
		}
	}
	if c.Latent == nil {
		c.Latent = latent.DA{}
	}
	if c.Concentration == 0 {
		c.Concentration = 1
	}
	if g := &c.Correlated; g.Workers > 0 && g.From == 0 && g.To == 0 {
		g.To = 1
	}
	return c
}

// check returns an error if c, with defaults, is not a valid simulation.
func (c Config) check() error {
	if c.Tasks < 0 || c.Workers < 0 || c.Classes < 2 || c.Classes > data.MaxClasses {
		return fmt.Errorf("sim: invalid sizes: %d tasks, %d workers, %d classes", c.Tasks, c.Workers, c.Classes)
	}
	if !(c.Concentration > 0) || math.IsInf(c.Concentration, 0) {
		return fmt.Errorf("sim: concentration %v is not a positive number", c.Concentration)
	}
	if c.ClassPrior != nil {
		if len(c.ClassPrior) != c.Classes {
			return fmt.Errorf("sim: class prior of %d values for %d classes", len(c.ClassPrior), c.Classes)
		}
		var sum float64
		for z, p := range c.ClassPrior {
			if !(p > 0 && p <= 1) {
				return fmt.Errorf("sim: class prior of class %d is %v, not in (0, 1]", z, p)
			}
			sum += p
		}
		if math.Abs(sum-1) > 1e-6 {
			return fmt.Errorf("sim: class prior sums to %v, not 1", sum)
		}
	}
	if !(c.Activity >= 0) || math.IsInf(c.Activity, 0) {
		return fmt.Errorf("sim: activity %v is not a finite number at least 0", c.Activity)
	}
	for _, s := range []struct {
		name string
		v    float64
	}{{"spammers", c.Spammers}, {"adversaries", c.Adversaries}} {
		if !(s.v >= 0 && s.v <= 1) {
			return fmt.Errorf("sim: share of %s %v is not in [0, 1]", s.name, s.v)
		}
	}
	if c.Spammers+c.Adversaries > 1 {
		return fmt.Errorf("sim: shares of spammers and adversaries sum to %v, more than 1", c.Spammers+c.Adversaries)
	}
	if g := c.Correlated; g != (Correlated{}) {
		switch {
		case g.Workers <= 0:
			return fmt.Errorf("sim: correlated group of %d workers", g.Workers)
		case g.Workers >= c.Workers:
			return fmt.Errorf("sim: correlated group of %d workers among %d: some must be outside it", g.Workers, c.Workers)
		case g.Workers > c.LabelsPerTask:
			return fmt.Errorf("sim: correlated group of %d workers on objects with %d labels", g.Workers, c.LabelsPerTask)
		case !(g.Coverage > 0 && g.Coverage <= 1):
			return fmt.Errorf("sim: correlated coverage %v is not in (0, 1]", g.Coverage)
		case !(g.Subtype >= 0 && g.Subtype <= 1):
			return fmt.Errorf("sim: correlated subtype share %v is not in [0, 1]", g.Subtype)
		case g.From < 0 || g.From >= c.Classes || g.To < 0 || g.To >= c.Classes || g.From == g.To:
			return fmt.Errorf("sim: correlated confusion from class %d to %d: want two different classes of %d", g.From, g.To, c.Classes)
		}
	}
	if n := c.kindCount(c.Spammers) + c.kindCount(c.Adversaries); n > c.Workers-c.Correlated.Workers {
		return fmt.Errorf("sim: %d spammers and adversaries, more than the %d workers outside the correlated group", n, c.Workers-c.Correlated.Workers)
	}
	if c.Params != nil {
		if c.Params.Model().Name() != c.Noise.Name() {
			return fmt.Errorf("sim: parameters for noise model %s, not %s", c.Params.Model().Name(), c.Noise.Name())
		}
		if err := c.Params.Validate(c.Classes); err != nil {
			return fmt.Errorf("sim: %w", err)
		}
	}
	return nil
}

// kindCount returns the number of workers of a share.
func (c Config) kindCount(share float64) int { return int(math.Round(share * float64(c.Workers))) }

// oneClass is a latent.Generator that may give every label of an object
// the same latent class, its true class (latent.LA), so that what a
// consensus model should recover is that class rather than q_j.
type oneClass interface {
	OneClassPerObject() bool
}

// Simulate draws a data set and its ground truth as described by c.
func Simulate(c Config) (*data.Dataset, *Truth, error) {
	c = c.withDefaults()
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	if err := noise.CheckClasses(c.Noise, c.Classes); err != nil {
		return nil, nil, fmt.Errorf("sim: %w", err)
	}
	var sampler noise.Sampler = c.Params
	if c.Params == nil {
		var ok bool
		if sampler, ok = c.Noise.(noise.Sampler); !ok {
			return nil, nil, fmt.Errorf("sim: noise model %s cannot sample parameters", c.Noise.Name())
		}
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
		Object: mem.Make[float64](c.Tasks * c.Noise.ObjectDim(k)),
		Kind:   c.kinds(),
		cfg:    c,
		prior:  c.prior(),
	}
	sampler.SampleParams(rng, k, tr.Worker, tr.Object)
	ev := c.Noise.NewEvaluator(d)
	ev.SetParams(tr.Worker, tr.Object)

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
	perObject := ok && oc.OneClassPerObject()
	if perObject {
		tr.Class = make([]int, c.Tasks)
	}
	if group.Workers > 0 {
		tr.Subtype = make([]bool, c.Tasks)
	}
	for j := range c.Tasks {
		q := tr.Q[j*k : (j+1)*k]
		dir.Rand(q)
		workers, _ := d.TaskLabels(j)
		zj := z[:len(workers)]
		gen.Generate(rng, q, zj)
		target := tr.Target[j*k : (j+1)*k]
		if perObject {
			target[zj[0]] = 1
			tr.Class[j] = zj[0]
		} else {
			copy(target, q)
		}
		subtype := false
		if group.Workers > 0 {
			subtype = rng.Float64() < group.Subtype
			tr.Subtype[j] = subtype && (!perObject || zj[0] == group.From)
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
func (c Config) kinds() []Kind {
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
func (c Config) prior() []float64 {
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
