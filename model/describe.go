package model

import (
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/noise"
)

// Capabilities is what a registered estimator can do, as its capability
// interfaces answer: what the command line may ask of it (which flags it
// accepts) and what its fits report. It is the record "consensus models
// --format json" writes, one per model, for callers such as the Python
// package that must not keep lists of model names of their own.
type Capabilities struct {
	// Name, Summary and Solver are the registry entry's (Entry).
	Name    string `json:"name"`
	Summary string `json:"summary"`
	Solver  string `json:"solver,omitempty"`
	// Noise and Assumption are the parts of a Composite estimator: the
	// noise model's name (such as "ds") and the latent assumption's
	// ("la", "da" or "hda"); empty for the others.
	Noise      string `json:"noise,omitempty"`
	Assumption string `json:"assumption,omitempty"`
	// Answer says what a fit's Result.Probs holds: "posterior" (the
	// posterior of the true class, under LA), "distribution" (the label
	// distribution q_j, under DA) or "votes" (the normalised weighted
	// votes of an estimator without a generative model: rfe and the
	// Crowd-Kit heuristics).
	Answer string `json:"answer"`
	// Both is set for an estimator whose fits also hold the label
	// distribution q_j beside the posterior (Result.Distribution).
	Both bool `json:"both"`
	// SameAs names the registered estimator whose consensus distribution
	// this one's fits share (mv is rfe read through its argmax); a
	// comparison scores only one of them.
	SameAs string `json:"same_as,omitempty"`
	// WorkerParams is set for an estimator whose fits report worker
	// parameters (Parametric; Result.WorkerColumns).
	WorkerParams bool `json:"worker_params"`
	// TaskParams is set for an estimator whose fits report per-task
	// parameters (TaskParamReporter; Result.TaskColumns), such as
	// GLAD's difficulty.
	TaskParams bool `json:"task_params"`
	// TrainGold is set for an estimator that can fit with the classes of
	// some tasks known (GoldTrainer); NeedsGold for one that cannot fit
	// without them (GoldNeeder).
	TrainGold bool `json:"train_gold"`
	NeedsGold bool `json:"needs_gold"`
	// InitWorkers is set for an estimator whose fit can start from, and
	// hold, known worker parameters (WorkerStarter with CanSetWorkers).
	InitWorkers bool `json:"init_workers"`
	// Skills is set for an estimator that can weigh every worker's vote
	// by a given skill (SkillWeigher).
	Skills bool `json:"skills"`
	// Priors lists the prior settings the estimator accepts, by their
	// command-line names: "glad-prior" (a noise model with Gaussian
	// priors of a given variance, PriorVarSetter) and "q-prior" (the
	// Dirichlet prior of the q_j of a variational DA fit, QPriorSetter).
	Priors []string `json:"priors"`
	// Settings lists the fields of Settings a fit reads, by their
	// command-line names: "solver", "max-iter", "grad-tol", "func-tol",
	// "ridge" and "init-workers" (SettingsReader, and "max-iter" for an
	// IterationSetter).
	Settings []string `json:"settings"`
	// Generative is set for an estimator with a generative process labels
	// can be simulated from (Composite).
	Generative bool `json:"generative"`
	// Variational is set for a variational Bayes estimator, whose
	// objective (the evidence lower bound) improves at every iteration
	// (VariationalFitter).
	Variational bool `json:"variational"`
	// MinClasses and MaxClasses bound the numbers of classes a fit
	// supports (ClassLimiter, or the noise model's noise.Info).
	MinClasses int `json:"min_classes"`
	MaxClasses int `json:"max_classes"`
}

// TaskParamReporter is an Estimator that says whether its fits report
// per-task parameters (Result.TaskColumns): Model and HDA with a noise
// model that is a noise.TaskReporter (GLAD's difficulty). An estimator that
// is not one reports none.
type TaskParamReporter interface {
	Estimator
	// ReportsTaskParams reports whether a fit reports per-task
	// parameters.
	ReportsTaskParams() bool
}

// GoldNeeder is an Estimator that cannot fit without training gold
// (GoldMajorityVote, which measures its workers' skills on it).
type GoldNeeder interface {
	GoldTrainer
	// NeedsGold reports whether a fit needs training gold.
	NeedsGold() bool
}

// VariationalFitter is an Estimator fitted by variational Bayes (Bayes).
type VariationalFitter interface {
	Estimator
	// Variational reports whether the fit is variational.
	Variational() bool
}

// PosteriorAnswerer is an Estimator, other than the Composite forms under
// LA, whose fits' Result.Probs is the posterior of the true class
// (ebcc.EBCC); Describe reports its Answer as "posterior".
type PosteriorAnswerer interface {
	Estimator
	// Posterior reports whether a fit's Probs is the posterior of the
	// true class.
	Posterior() bool
}

// ClassLimiter is an Estimator that supports only some numbers of
// classes, other than those of its noise model (KOS: two).
type ClassLimiter interface {
	Estimator
	// Classes returns the least and the greatest number of classes a fit
	// supports.
	Classes() (lo, hi int)
}

// QPriorSetter is an Estimator whose label distributions q_j have a
// Dirichlet(a, …, a) prior that can be set (the variational DA fits,
// Bayes under DA), or that can be fitted staged, the workers taken from the
// LA fit.
type QPriorSetter interface {
	Estimator
	// WithQPrior returns the estimator with pseudo-count a (0: the
	// default) and staged as given, and false if it has no such prior.
	WithQPrior(a float64, staged bool) (Estimator, bool)
}

// PriorVarSetter is a noise model whose parameters can take Gaussian
// priors of a given variance (noise.GLAD).
type PriorVarSetter interface {
	// WithPriorVar returns the noise model with priors of variance v.
	WithPriorVar(v float64) noise.Model
}

// BothAnswerer is an Estimator that says whether its fits hold the label
// distribution q_j beside the posterior of the true class
// (Result.Distribution): Bayes with Both under LA (vb-ds).
type BothAnswerer interface {
	Estimator
	// BothAnswers reports whether a fit holds both answers.
	BothAnswers() bool
}

// Alias is an Estimator that may be another's consensus under another
// name: RFE with an Alias (mv, rfe read through its argmax).
type Alias interface {
	Estimator
	// SameAs returns the name of the estimator whose consensus
	// distribution this one's fits share, or "" for none.
	SameAs() string
}

// ReportsTaskParams reports whether m's noise model reports per-task
// parameters (noise.TaskReporter).
func (m Model) ReportsTaskParams() bool {
	_, ok := m.Noise.(noise.TaskReporter)
	return ok
}

// settingNames are the command-line names of the Settings a
// SettingsReader reads, in the order Capabilities.Settings lists them.
var settingNames = []struct {
	s    Setting
	name string
}{
	{SetMethod, "solver"}, {SetMaxIterations, "max-iter"}, {SetGradientTol, "grad-tol"},
	{SetFunctionTol, "func-tol"}, {SetRidge, "ridge"}, {SetStart, "init-workers"},
}

// Describe returns the capabilities of the estimator of registry entry e.
func Describe(e Entry) Capabilities {
	est := e.New()
	c := Capabilities{
		Name: e.Name, Summary: e.Summary, Solver: e.Solver, Answer: "votes",
		MinClasses: 2, MaxClasses: data.MaxClasses, Priors: []string{}, Settings: []string{},
	}
	if comp, ok := est.(Composite); ok {
		n, a := comp.Parts()
		c.Generative = true
		c.Noise, c.Assumption = n.Name(), a.Name()
		c.Answer = "distribution"
		if g, ok := a.(interface{ OneClassPerTask() bool }); ok && g.OneClassPerTask() {
			c.Answer = "posterior"
		}
		if d, ok := n.(noise.Describer); ok {
			info := d.Info()
			c.MinClasses, c.MaxClasses = max(info.MinK, 2), info.MaxK
			if c.MaxClasses == 0 {
				c.MaxClasses = data.MaxClasses
			}
		}
		if _, ok := n.(PriorVarSetter); ok {
			c.Priors = append(c.Priors, "glad-prior")
		}
	}
	if p, ok := est.(PosteriorAnswerer); ok && p.Posterior() {
		c.Answer = "posterior"
	}
	if l, ok := est.(ClassLimiter); ok {
		c.MinClasses, c.MaxClasses = l.Classes()
	}
	if b, ok := est.(BothAnswerer); ok {
		c.Both = b.BothAnswers()
	}
	if a, ok := est.(Alias); ok {
		c.SameAs = a.SameAs()
	}
	_, c.WorkerParams = est.(Parametric)
	if t, ok := est.(TaskParamReporter); ok {
		c.TaskParams = t.ReportsTaskParams()
	}
	_, c.TrainGold = est.(GoldTrainer)
	if g, ok := est.(GoldNeeder); ok {
		c.NeedsGold = g.NeedsGold()
	}
	if w, ok := est.(WorkerStarter); ok {
		c.InitWorkers = w.CanSetWorkers()
	}
	_, c.Skills = est.(SkillWeigher)
	if q, ok := est.(QPriorSetter); ok {
		// Any positive pseudo-count probes whether the prior can be set.
		if _, ok := q.WithQPrior(0.5, false); ok {
			c.Priors = append(c.Priors, "q-prior")
		}
	}
	if v, ok := est.(VariationalFitter); ok {
		c.Variational = v.Variational()
	}
	r, reads := est.(SettingsReader)
	_, iterates := est.(IterationSetter)
	for _, s := range settingNames {
		if reads && r.Reads(s.s) || iterates && s.s == SetMaxIterations {
			c.Settings = append(c.Settings, s.name)
		}
	}
	return c
}

// DescribeAll returns the capabilities of every registered estimator, in
// registry order.
func DescribeAll() []Capabilities {
	var out []Capabilities
	for _, e := range Registry() {
		out = append(out, Describe(e))
	}
	return out
}

// DescribeName returns the capabilities of the estimator registered under
// name, and false for a name not registered.
func DescribeName(name string) (Capabilities, bool) {
	for _, e := range Registry() {
		if e.Name == name {
			return Describe(e), true
		}
	}
	return Capabilities{}, false
}
