package vb

import (
	"fmt"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// The variational models start from known workers through the noise
// posterior's parameters (pseudo-counts, or GLAD's abilities and
// difficulties): Settings.Start and Settings.Fixed of a Bayes fit are laid
// out as noise.Variational.Params, beginning with W blocks of
// noise.WorkerPosteriorSetter.WorkerPosteriorDim values, which Init,
// SetWorker and WorkerParams make and name.

// posterior returns a new variational posterior of b's noise model on d,
// not yet started.
func (b Bayes) posterior(d *data.Dataset) (noise.Variational, error) {
	switch m := b.Noise.(type) {
	case noise.Conjugate:
		return m.NewVariational(d), nil
	case noise.MAPVariational:
		return m.NewMAP(d), nil
	}
	return nil, fmt.Errorf("model %s: noise model %s has neither a conjugate prior nor a point posterior", b.Name(), b.Noise.Name())
}

// Init returns the noise posterior's pseudo-counts at the start Fit makes
// without Settings.Start (the paper's: every label weighted by its
// object's label frequencies), laid out as noise.Variational.Params: the
// vector SetWorker writes into and Settings.Start takes. It returns nil if
// b's noise model has no variational posterior.
func (b Bayes) Init(d *data.Dataset) []float64 {
	nv, err := b.posterior(d)
	if err != nil {
		return nil
	}
	nv.Start(d.FrequencyWeights())
	return nv.Params(nil)
}

// WorkerColumns returns the names of the values the noise posterior reports
// per worker (Result.WorkerColumns after a fit): for Dawid-Skene the
// posterior means p[z,y] and the labels n[z] each row weighs.
func (b Bayes) WorkerColumns(d *data.Dataset) []string {
	nv, err := b.posterior(d)
	if err != nil {
		return nil
	}
	return nv.WorkerColumns()
}

// SetWorker sets worker w's pseudo-counts in x (as Init returns it) to
// those of the posterior whose values are vals, as
// noise.WorkerPosteriorSetter.SetWorkerPosterior does: the posterior of
// the same worker in an earlier fit of the same noise model and prior (for
// GLAD's point posterior, the ability itself). It returns an error if the
// noise model cannot set them (CanSetWorkers).
func (b Bayes) SetWorker(d *data.Dataset, x []float64, w int, vals []float64) error {
	ps, ok := b.Noise.(noise.WorkerPosteriorSetter)
	if !ok {
		return fmt.Errorf("model %s: noise model %s cannot set its workers' posteriors", b.Name(), b.Noise.Name())
	}
	lo, hi := b.WorkerParams(d, w)
	return ps.SetWorkerPosterior(d, vals, x[lo:hi])
}

// WorkerParams returns the range of worker w's pseudo-counts in the vector
// Init returns; an empty range if the noise model cannot set them.
func (b Bayes) WorkerParams(d *data.Dataset, w int) (lo, hi int) {
	ps, ok := b.Noise.(noise.WorkerPosteriorSetter)
	if !ok {
		return 0, 0
	}
	dim := ps.WorkerPosteriorDim(d.NumClasses())
	return w * dim, (w + 1) * dim
}

// CanSetWorkers reports whether b's noise model can set its workers'
// posteriors: a noise.WorkerPosteriorSetter (DS, OneCoin and GLAD, whose
// point posterior's worker parameter is the ability).
func (b Bayes) CanSetWorkers() bool {
	_, ok := b.Noise.(noise.WorkerPosteriorSetter)
	return ok
}

// loadStart sets the noise posterior nv of the model named name, just
// started, with n parameters, to set.Start and holds the pseudo-counts
// set.Fixed marks, when they are given.
func loadStart(name string, nv noise.Variational, set model.Settings, n int) error {
	if set.Start != nil {
		if len(set.Start) != n {
			return fmt.Errorf("model %s: start vector has %d values, want %d", name, len(set.Start), n)
		}
		noise.LoadStart(nv, set.Start)
	}
	if set.Fixed != nil {
		if len(set.Fixed) != n {
			return fmt.Errorf("model %s: fixed mask has %d values, want %d", name, len(set.Fixed), n)
		}
		h, ok := nv.(noise.Holder)
		if !ok {
			return fmt.Errorf("model %s: its noise posterior cannot hold parameters fixed", name)
		}
		h.Hold(set.Fixed)
	}
	return nil
}

var _ model.WorkerStarter = Bayes{}
