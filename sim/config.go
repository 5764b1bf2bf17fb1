package sim

import (
	"fmt"
	"math"
	"strconv"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// Settings describes a simulation. The zero value is the paper's synthetic
// experiment: 2000 objects, 20 workers who all label every object, two
// classes, q_j ~ U[0, 1], GLAD noise under the DA assumption, seed 0.
// The zero value of each field from ClassPrior on leaves the data set
// drawn by the other fields unchanged, bit for bit.
type Settings struct {
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

	// Ambiguity makes every object's label distribution concentrate near
	// its true class with a spread of its own (under LA only); its zero
	// value means none.
	Ambiguity Ambiguity

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

// Ambiguity describes objects that are ambiguous around their true
// class: the true class z_j is drawn from the class prior, the object's
// label distribution from q_j ~ Dirichlet(Vertex·e_{z_j} + Base·1), and
// every label's subjective class from q_j, which its worker's noise then
// corrupts. An object whose q_j stays near the vertex e_{z_j} is clear; one
// whose q_j wandered off is split, and may even have most of its labellers'
// subjective classes on another class than its true one. Truth.Class holds
// z_j and Truth.Q holds q_j. The true class's share of q_j is distributed
// as Beta(Vertex + Base, (K − 1)·Base): for example Vertex 3 and Base 0.5
// at K = 3 give it a mean of 0.78, above 0.9 on 31% of the objects and
// below 0.5 on 9%.
type Ambiguity struct {
	// Vertex is the pseudo-count of the true class, above 0; zero with
	// Base means no ambiguity.
	Vertex float64
	// Base is the pseudo-count of every class, above 0.
	Base float64
}

// Kind is the kind of a simulated worker.
type Kind uint8

// The kinds of worker of Settings.
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

func (c Settings) withDefaults() Settings {
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

// CheckParams returns an error if c's worker parameters (Params) are
// drawn for another noise model than c's Noise, or nil when they match
// or c draws them from its noise model. The error names both models, as
// "the parameters draw ds workers, not glad ones".
func (c Settings) CheckParams() error {
	if c.Params == nil || c.Noise == nil {
		return nil
	}
	if p, n := c.Params.Model().Name(), c.Noise.Name(); p != n {
		return fmt.Errorf("the parameters draw %s workers, not %s ones", p, n)
	}
	return nil
}

// check returns an error if c, with defaults, is not a valid simulation.
// sampler returns what draws the true noise parameters: Params where it
// is set, the noise model's own noise.Sampler otherwise.
func (c Settings) sampler() (noise.Sampler, error) {
	if c.Params != nil {
		return c.Params, nil
	}
	s, ok := c.Noise.(noise.Sampler)
	if !ok {
		return nil, fmt.Errorf("sim: noise model %s cannot sample parameters", c.Noise.Name())
	}
	return s, nil
}

func (c Settings) check() error {
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
	if a := c.Ambiguity; a != (Ambiguity{}) {
		if !(a.Vertex > 0) || math.IsInf(a.Vertex, 0) || !(a.Base > 0) || math.IsInf(a.Base, 0) {
			return fmt.Errorf("sim: ambiguity vertex %v and base %v: want two positive numbers", a.Vertex, a.Base)
		}
		if err := c.CheckAmbiguity(); err != nil {
			return fmt.Errorf("sim: ambiguous objects: %w", err)
		}
	}
	if n := c.kindCount(c.Spammers) + c.kindCount(c.Adversaries); n > c.Workers-c.Correlated.Workers {
		return fmt.Errorf("sim: %d spammers and adversaries, more than the %d workers outside the correlated group", n, c.Workers-c.Correlated.Workers)
	}
	if err := c.CheckParams(); err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	if c.Params != nil {
		if err := c.Params.Validate(c.Classes); err != nil {
			return fmt.Errorf("sim: %w", err)
		}
	}
	return nil
}

// kindCount returns the number of workers of a share.
func (c Settings) kindCount(share float64) int { return int(math.Round(share * float64(c.Workers))) }
