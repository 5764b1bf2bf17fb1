package crowdkit

import (
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// The capabilities (see package model) of the votes.
var (
	_ model.Parametric      = Wawa{}
	_ model.Parametric      = ZeroBasedSkill{}
	_ model.Parametric      = GoldMajorityVote{}
	_ model.Parametric      = MMSR{}
	_ model.GoldTrainer     = GoldMajorityVote{}
	_ model.IterationSetter = KOS{}
	_ model.IterationSetter = ZeroBasedSkill{}
	_ model.IterationSetter = MMSR{}
	_ model.MemoryEstimator = GoldMajorityVote{}
	_ model.MemoryEstimator = Wawa{}
	_ model.MemoryEstimator = ZeroBasedSkill{}
	_ model.MemoryEstimator = KOS{}
	_ model.MemoryEstimator = MMSR{}
	_ RandomStarter         = KOS{}
	_ RandomStarter         = MMSR{}
	_ Tolerancer            = MMSR{}
)

// MaxRandomState is the largest seed of numpy's legacy RandomState, and so
// of Crowd-Kit's random_state: 2³² − 1.
const MaxRandomState = 1<<32 - 1

// RandomStarter is an estimator whose start is random, drawn as Crowd-Kit
// draws it with numpy's legacy generator: KOS and MMSR.
type RandomStarter interface {
	model.Estimator
	// WithRandomState returns the estimator with its start drawn as
	// numpy's RandomState(seed) draws Crowd-Kit's, for a seed of at most
	// MaxRandomState.
	WithRandomState(seed uint32) model.Estimator
}

// WithRandomState returns e with Seed seed.
func (e KOS) WithRandomState(seed uint32) model.Estimator { e.Seed = uint64(seed); return e }

// WithRandomState returns e with Seed seed.
func (e MMSR) WithRandomState(seed uint32) model.Estimator { e.Seed = uint64(seed); return e }

// Tolerancer is an estimator with Crowd-Kit's stopping tolerance tol of
// its own: MMSR.
type Tolerancer interface {
	model.Estimator
	// WithTol returns the estimator with tolerance tol: it stops when an
	// iteration changes its estimate by less than tol, and with tol = 0
	// only after its iteration count, as Crowd-Kit's.
	WithTol(tol float64) model.Estimator
}

// WithTol returns e with Tol tol, or with a negative Tol (no early stop)
// for tol = 0.
func (e MMSR) WithTol(tol float64) model.Estimator {
	e.Tol = tol
	if tol == 0 {
		e.Tol = -1
	}
	return e
}

// WithGold returns g with its training gold set to class.
func (g GoldMajorityVote) WithGold(class []int) model.Estimator {
	g.Gold = class
	return g
}

// WithMaxIterations returns e with MaxIterations n.
func (e KOS) WithMaxIterations(n int) model.Estimator { e.MaxIterations = n; return e }

// WithMaxIterations returns e with MaxIterations n.
func (e ZeroBasedSkill) WithMaxIterations(n int) model.Estimator { e.MaxIterations = n; return e }

// WithMaxIterations returns e with MaxIterations n.
func (e MMSR) WithMaxIterations(n int) model.Estimator { e.MaxIterations = n; return e }

// voteBytesPerLabel is a vote's memory per label: the index of the
// labels (model.VoteMemory).
const voteBytesPerLabel = 4

// rfeMemory is the estimate of rfe's fit, which the votes that count
// labels with weights share.
func rfeMemory(d *data.Dataset) float64 { return model.RFE{}.FitMemory(d, nil) }

// FitMemory estimates the memory of GoldMajorityVote: rfe's and the
// workers' accuracies.
func (e GoldMajorityVote) FitMemory(d *data.Dataset, _ *model.Settings) float64 {
	return rfeMemory(d)
}

// FitMemory estimates the memory of Wawa: rfe's and the workers'
// agreement.
func (e Wawa) FitMemory(d *data.Dataset, _ *model.Settings) float64 { return rfeMemory(d) }

// FitMemory estimates the memory of ZeroBasedSkill: rfe's and the
// collector's headroom for the votes of its iterations (14 bytes per task
// and class).
func (e ZeroBasedSkill) FitMemory(d *data.Dataset, _ *model.Settings) float64 {
	return model.VoteMemory(d, 14, voteBytesPerLabel)
}

// FitMemory estimates the memory of KOS: its messages, two per label and
// direction, and the output.
func (e KOS) FitMemory(d *data.Dataset, _ *model.Settings) float64 { return model.VoteMemory(d, 8, 44) }

// FitMemory estimates the memory of MMSR: the workers' agreement and
// covariance matrices (W² each) and about 56 bytes per label of counts and
// scratch.
func (e MMSR) FitMemory(d *data.Dataset, _ *model.Settings) float64 {
	w := float64(d.NumWorkers())
	return model.VoteMemory(d, 8, 56) + 16*w*w
}
