package model

import (
	"context"
	"errors"
	"fmt"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/mem"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// Estimator produces a consensus distribution for every object of a data
// set. Model (a noise model under a latent assumption) and RFE implement it.
type Estimator interface {
	// Name returns the command-line name of the estimator, such as "da-glad".
	Name() string
	// Fit estimates the consensus of d with the settings s (nil means
	// the defaults). ctx must not be nil (pass context.Background() when
	// nothing cancels the fit): a nil ctx is an error. When ctx is
	// cancelled, the likelihood and variational fits (Model, hda.HDA, vb.Bayes)
	// stop at their next iteration and return no result and an error
	// wrapping ctx.Err(); the vote-based estimators (RFE and Crowd-Kit's
	// methods) take a few passes over the labels and do not look at ctx
	// once started.
	Fit(ctx context.Context, d *data.Dataset, s *Settings) (*Result, error)
}

// Model is a consensus model of the paper: a noise model combined with a
// latent assumption. Any noise model can be used under either assumption:
//
//	Model{Noise: noise.GLAD{}, Latent: latent.DA{}}            // DA-GLAD
//	Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}} // LA-DS
//
// The registry (ByName) gives the same models by name; its LA forms learn
// the class prior when the noise model declares so (noise.Info), and Name
// says when a Model differs from the registry's model of that name.
//
// Its parameters are the noise model's worker and object blocks followed by
// the assumption's global and per-object blocks; Fit maximises the exact
// log-likelihood over all of them.
type Model struct {
	Noise  noise.Model
	Latent latent.Assumption
}

// Name returns the assumption's name and the noise model's name joined by a
// hyphen, such as "la-ds": the registry's name of the same model (ByName).
// An LA model whose class prior is not the one the noise model declares
// for its LA form (noise.Info.LearnPrior: learned for Dawid-Skene, uniform
// for GLAD) says so, as in "la-ds (uniform class prior)", so that a name
// the registry knows always means the registry's model.
func (m Model) Name() string {
	if m.Noise == nil || m.Latent == nil {
		return IncompleteName
	}
	name := m.Latent.Name() + "-" + m.Noise.Name()
	learned, ok := learnsPrior(m.Latent)
	d, ok2 := m.Noise.(noise.Describer)
	if !ok || !ok2 || learned == d.Info().LearnPrior {
		return name
	}
	if learned {
		return name + " (learned class prior)"
	}
	return name + " (uniform class prior)"
}

// priorLearner is an assumption with a class prior that may be learned or
// uniform, such as latent.LA.
type priorLearner interface {
	LearnsPrior() bool
}

// learnsPrior reports whether assumption a, or the assumption it wraps
// (such as latent.WithGold's Base), has a class prior (ok) and whether it
// learns it.
func learnsPrior(a latent.Assumption) (learned, ok bool) {
	for u, wraps := a.(unwrapper); wraps; u, wraps = a.(unwrapper) {
		a = u.Unwrap()
	}
	p, ok := a.(priorLearner)
	return ok && p.LearnsPrior(), ok
}

// unwrapper is an assumption that wraps another, such as latent.WithGold.
type unwrapper interface {
	Unwrap() latent.Assumption
}

// IncompleteName is the name of an estimator that lacks a part it needs,
// such as the zero Model (no noise model, no assumption), whose Fit
// returns an error wrapping ErrIncomplete.
const IncompleteName = "incomplete"

// ErrIncomplete is returned, wrapped with what is missing, by the Fit of
// an estimator that lacks a part it needs, such as the zero Model.
var ErrIncomplete = errors.New("estimator lacks a part")

// ErrArgument is wrapped by the error of a function or method of this
// package, or of an estimator family, given an argument no caller should
// pass: a nil data set, a worker out of range, a parameter vector of
// another length. Callers test it with errors.Is.
var ErrArgument = errors.New("model: invalid argument")

// CheckWorkerArgs returns an error wrapping ErrArgument unless d is not
// nil, w is one of its workers and x has n parameters: the check of a
// WorkerStarter's SetWorker before it touches x.
func CheckWorkerArgs(d *data.Dataset, x []float64, w, n int) error {
	switch {
	case d == nil:
		return fmt.Errorf("%w: no data set", ErrArgument)
	case w < 0 || w >= d.NumWorkers():
		return fmt.Errorf("%w: worker %d of %d", ErrArgument, w, d.NumWorkers())
	case len(x) != n:
		return fmt.Errorf("%w: %d parameters, want %d", ErrArgument, len(x), n)
	}
	return nil
}

// CheckParts returns an error wrapping ErrIncomplete, naming the missing
// part, if n or a is nil (a is not checked when checkLatent is false): the
// check of a composite estimator's Fit before anything else.
func CheckParts(n noise.Model, a latent.Assumption, checkLatent bool) error {
	switch {
	case n == nil:
		return fmt.Errorf("%w: no noise model", ErrIncomplete)
	case checkLatent && a == nil:
		return fmt.Errorf("%w: no latent assumption", ErrIncomplete)
	}
	return nil
}

// Init returns the initial parameter vector of the paper's section 5 for d.
func (m Model) Init(d *data.Dataset) []float64 { return m.initWith(d, nil) }

// initWith is Init with the noise model started from the label weights
// weight (J×K, as the frequencies; nil: the frequencies). The frequencies
// are computed a row at a time (data.Dataset.FrequencyWeights), so that
// no J×K matrix is made beside the parameters.
func (m Model) initWith(d *data.Dataset, weight data.TaskWeights) []float64 {
	lay := newLayout(m, d)
	x := mem.Make[float64](lay.Dim())
	w, o, g, t := lay.Split(x)
	freq := d.FrequencyWeights()
	if weight == nil {
		weight = freq
	}
	m.Noise.Init(d, weight, w, o)
	m.Latent.Init(d, freq, g, t)
	return x
}

// Layout returns where the blocks of m's parameters lie in a parameter
// vector for d.
func (m Model) Layout(d *data.Dataset) Layout { return newLayout(m, d) }

// NumParams returns the number of parameters of m on d, Layout(d).Dim().
func (m Model) NumParams(d *data.Dataset) int { return newLayout(m, d).Dim() }

// LogLikelihood returns the log-likelihood of d under m at the parameters x
// and writes its gradient into grad, which must have len(x) elements.
// It is the function Fit maximises, exposed for checks and experiments.
// LogLikelihood panics if m lacks a part or its assumption does not suit d
// (latent.Check), or if x or grad has not Layout(d).Dim() elements: Fit
// checks them and returns an error instead.
func (m Model) LogLikelihood(d *data.Dataset, x, grad []float64, threads int) float64 {
	return newObjective(m, d, threads).eval(x, grad)
}
