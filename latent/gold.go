package latent

import (
	"github.com/consensuslab/consensus/data"
)

// WithGold wraps an assumption for semi-supervised fitting: the objects with
// a known class (gold labels used for training) have that class as the
// latent class of every one of their labels, and the other objects are
// left to Base. A gold object's term of the log-likelihood is
//
//	Σ_{i ∈ j} l_i(t_j) = Σ_{i ∈ j} log P(y_i | t_j),
//
// its weights are one-hot, g_i(z) = 1[z = t_j], and its consensus output is
// the one-hot vector of t_j. The term is the same under LA (the true class
// is known) and DA (every subjective class is known to be t_j: q_j is
// pinned to the one-hot vector), so the wrapper works for any base
// assumption and any noise model, which learns from the gold objects as
// from labelled training data. Base's parameters of a gold object get a
// zero gradient and keep their initial values; the gold objects do not
// enter Base's global parameters (LA's learned class prior is estimated
// from the other objects only).
type WithGold struct {
	// Base is the assumption for the objects without gold.
	Base Assumption
	// Class holds the gold class index of every object (len = number of
	// tasks of the data set), or -1 for an object without gold.
	Class []int
}

// GoldClasses returns the Class slice of WithGold for d: the class of
// every gold task, -1 elsewhere; nil for a nil d.
func GoldClasses(d *data.Dataset, g *data.Gold) []int {
	if d == nil {
		return nil
	}
	c := make([]int, d.NumTasks())
	for i := range c {
		c[i] = -1
	}
	if g != nil {
		for i, t := range g.Task {
			c[t] = int(g.Label[i])
		}
	}
	return c
}

// Name returns Base's name; "gold" without a Base (the zero WithGold,
// which Check refuses).
func (a WithGold) Name() string {
	if a.Base == nil {
		return "gold"
	}
	return a.Base.Name()
}

// GlobalDim returns Base's, 0 without a Base.
func (a WithGold) GlobalDim(k int) int {
	if a.Base == nil {
		return 0
	}
	return a.Base.GlobalDim(k)
}

// TaskDim returns Base's, 0 without a Base.
func (a WithGold) TaskDim(k int) int {
	if a.Base == nil {
		return 0
	}
	return a.Base.TaskDim(k)
}

// Init is Base's initialisation with the gold objects' frequencies
// replaced by their one-hot gold vectors, so that a DA base starts with
// q_j pinned near the gold class (the parameters of gold objects are not
// used by the likelihood).
func (a WithGold) Init(d *data.Dataset, freq data.TaskWeights, g, t []float64) {
	if a.Class != nil {
		freq = data.WithClasses(freq, a.Class)
	}
	a.Base.Init(d, freq, g, t)
}

// Check returns an error if Base is nil or refuses d (see Check, the
// function), if Class is neither nil nor one entry per task of d, each a
// class of d or -1, or if d is nil. The error wraps ErrUnsuited.
func (a WithGold) Check(d *data.Dataset) error {
	if err := checkData(d); err != nil {
		return err
	}
	if a.Base == nil {
		return unsuitedf("latent: WithGold has no Base assumption")
	}
	if a.Class != nil && len(a.Class) != d.NumTasks() {
		return unsuitedf("latent: WithGold.Class has %d entries for %d tasks", len(a.Class), d.NumTasks())
	}
	for j, c := range a.Class {
		if c < -1 || c >= d.NumClasses() {
			return unsuitedf("latent: WithGold.Class[%d] = %d is neither -1 nor a class in [0, %d)", j, c, d.NumClasses())
		}
	}
	return Check(a.Base, d)
}

// NewEvaluator returns an evaluator of the wrapped assumption on d, or
// Check's error, which wraps ErrUnsuited.
func (a WithGold) NewEvaluator(d *data.Dataset) (Evaluator, error) {
	if err := a.Check(d); err != nil {
		return nil, err
	}
	base, err := a.Base.NewEvaluator(d)
	if err != nil {
		return nil, err
	}
	e := &goldEval{base: base, class: a.Class, d: d, k: d.NumClasses()}
	switch m := base.(type) {
	case TaskMStepper:
		return goldTaskMStepEval{goldMStepEval{e, m}, m}, nil
	case MStepper:
		return goldMStepEval{e, m}, nil
	}
	return e, nil
}

// Unwrap returns Base.
func (a WithGold) Unwrap() Assumption { return a.Base }

var (
	_ ProbEvaluator = (*goldEval)(nil)
	_ MStepper      = goldMStepEval{}
	_ TaskMStepper  = goldTaskMStepEval{}
)

// goldEval holds the base evaluator in a named field so that the base's
// optional methods, which know nothing of the gold, are not promoted: its
// TaskProb passes the base's through for objects without gold, and
// goldMStepEval and goldTaskMStepEval pass the base's M-step through.
// The M-step is exact with gold objects: their Task writes nothing to
// gglob and gtask, so the base estimates its global parameters (LA's
// class prior) from the other objects, and a per-object M-step (DA's)
// keeps a gold object's parameters where they are.
type goldEval struct {
	base  Evaluator
	class []int
	d     *data.Dataset
	k     int
}

func (e *goldEval) gold(j int) int {
	if e.class == nil {
		return -1
	}
	return e.class[j]
}

func (e *goldEval) SetParams(g, t []float64) { e.base.SetParams(g, t) }

func (e *goldEval) Task(j int, l, g []float64, gglob, gtask []float64) float64 {
	c := e.gold(j)
	if c < 0 {
		return e.base.Task(j, l, g, gglob, gtask)
	}
	k := e.k
	n := e.d.Offsets[j+1] - e.d.Offsets[j]
	var v float64
	for i := 0; i < n; i++ {
		gi := g[i*k : (i+1)*k]
		clear(gi)
		gi[c] = 1
		v += l[i*k+c]
	}
	return v
}

// TaskProb passes the base's probability-space path (ProbEvaluator)
// through for the objects of [lo, hi) before the first gold object; the
// caller evaluates that object, and every object of a base without the
// path, by Task.
func (e *goldEval) TaskProb(lo, hi int, p, g []float64, gglob, gtask []float64) (float64, int, int) {
	pb, ok := e.base.(ProbEvaluator)
	end := lo
	for ok && end < hi && e.gold(end) < 0 {
		end++
	}
	if end == lo {
		return 1, 0, 0
	}
	return pb.TaskProb(lo, end, p, g, gglob, gtask)
}

func (e *goldEval) FinishGrad(gglob, gtask []float64) { e.base.FinishGrad(gglob, gtask) }

func (e *goldEval) Output(j int, l []float64, out []float64) {
	c := e.gold(j)
	if c < 0 {
		e.base.Output(j, l, out)
		return
	}
	clear(out[:e.k])
	out[c] = 1
}

// goldMStepEval is a goldEval whose base has a closed-form M-step.
type goldMStepEval struct {
	*goldEval
	m MStepper
}

func (e goldMStepEval) MStep(gglob, gtask []float64, g, t []float64) { e.m.MStep(gglob, gtask, g, t) }

// goldTaskMStepEval is a goldEval whose base has a per-object M-step.
type goldTaskMStepEval struct {
	goldMStepEval
	o TaskMStepper
}

func (e goldTaskMStepEval) MStepGlobal(gglob, g []float64) { e.o.MStepGlobal(gglob, g) }

func (e goldTaskMStepEval) MStepTasks(lo, hi int, gtask, t []float64) {
	e.o.MStepTasks(lo, hi, gtask, t)
}
