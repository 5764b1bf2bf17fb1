package model

import (
	"fmt"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// The optional capabilities of an Estimator. A caller asks for one with a
// type assertion, as io.Copy asks a Reader for io.WriterTo, and never for
// a concrete estimator or noise model:
//
//	if c, ok := est.(model.Composite); ok {
//		n, a := c.Parts() // what to simulate from
//	}

// Parametric is an Estimator with fitted parameters, such as worker
// parameters to report: Model, hda.HDA, vb.Bayes and the skill-weighted votes
// (crowdkit.Wawa, crowdkit.ZeroBasedSkill, crowdkit.GoldMajorityVote, crowdkit.MMSR), not RFE or crowdkit.KOS. Its number of
// parameters is what a memory estimate of a fit is based on.
type Parametric interface {
	Estimator
	// NumParams returns the number of parameters a fit to d has.
	NumParams(d *data.Dataset) int
}

// Composite is an Estimator made of a noise model and a latent
// assumption: Model, hda.HDA and vb.Bayes. Parts returns them, for example to
// simulate labels from the estimator's generative process (package sim).
type Composite interface {
	Estimator
	// Parts returns the noise model and the assumption.
	Parts() (noise.Model, latent.Assumption)
	// WithNoise returns the estimator with its noise model replaced by
	// n, for example by the same model with other settings.
	WithNoise(n noise.Model) Estimator
}

// WorkerStarter is an Estimator whose fit can start from known worker
// parameters, such as those of an earlier fit's workers file, and hold
// them: Model, hda.HDA and vb.Bayes (whose vector is its noise posterior's
// pseudo-counts). The start vector goes into Settings.Start, and
// Settings.Fixed marks the blocks (WorkerParams) of the workers to hold.
type WorkerStarter interface {
	Parametric
	// CanSetWorkers reports whether the noise model can set its workers'
	// parameters: always for Model and hda.HDA, and for vb.Bayes when the noise
	// model is a noise.WorkerPosteriorSetter (every registered one).
	CanSetWorkers() bool
	// Init returns the initial parameter vector on d.
	Init(d *data.Dataset) []float64
	// WorkerColumns returns the names of the worker parameters on d, the
	// columns Result.WorkerColumns names after a fit.
	WorkerColumns(d *data.Dataset) []string
	// SetWorker sets worker w's parameters in the parameter vector x (as
	// Init returns it) to those at which Result.WorkerValues would report
	// vals. It returns an error naming the problem if vals are not such
	// values, or if the noise model cannot set its workers
	// (noise.WorkerSetter).
	SetWorker(d *data.Dataset, x []float64, w int, vals []float64) error
	// WorkerParams returns the range [lo, hi) of worker w's parameters in
	// the parameter vector on d, the block SetWorker sets: marked in
	// Settings.Fixed, they keep the start's values during the fit.
	WorkerParams(d *data.Dataset, w int) (lo, hi int)
}

// FixedWorkers returns the Settings.Fixed of a fit of ws on d from the
// parameter vector x (as Init returns it, with the workers set by
// SetWorker) that holds the given workers: their blocks (WorkerParams)
// marked, everything else free.
func FixedWorkers(ws WorkerStarter, d *data.Dataset, x []float64, workers []int) []bool {
	fixed := make([]bool, len(x))
	for _, w := range workers {
		lo, hi := ws.WorkerParams(d, w)
		for i := lo; i < hi; i++ {
			fixed[i] = true
		}
	}
	return fixed
}

// GoldTrainer is an Estimator that can fit with the classes of some tasks
// known (semi-supervised fitting): Model (latent.WithGold), vb.Bayes (the
// variational fits, the default included) and crowdkit.GoldMajorityVote.
type GoldTrainer interface {
	Estimator
	// WithGold returns the estimator with the gold class of every task
	// of the data set to fit given in class, -1 for a task without gold
	// (latent.GoldClasses).
	WithGold(class []int) Estimator
}

var (
	_ Parametric    = Model{}
	_ Composite     = Model{}
	_ WorkerStarter = Model{}
	_ GoldTrainer   = Model{}
)

// Parts returns m's noise model and assumption.
func (m Model) Parts() (noise.Model, latent.Assumption) { return m.Noise, m.Latent }

// WithNoise returns m with its noise model replaced by n.
func (m Model) WithNoise(n noise.Model) Estimator {
	m.Noise = n
	return m
}

// WithGold returns m with its assumption wrapped in latent.WithGold.
func (m Model) WithGold(class []int) Estimator {
	m.Latent = latent.WithGold{Base: m.Latent, Class: class}
	return m
}

// WorkerColumns returns the names of the noise model's worker parameters
// on d.
func (m Model) WorkerColumns(d *data.Dataset) []string {
	return m.Noise.NewEvaluator(d).WorkerColumns()
}

// SetWorker sets worker w's block of x to the parameters the noise model
// (a noise.WorkerSetter) derives from vals. It returns an error wrapping
// ErrIncomplete if m lacks a part, and one wrapping ErrArgument if d is
// nil, w is not a worker of d or x has not NumParams(d) elements.
func (m Model) SetWorker(d *data.Dataset, x []float64, w int, vals []float64) error {
	if err := CheckParts(m.Noise, m.Latent, true); err != nil {
		return err
	}
	n := 0
	if d != nil {
		n = m.NumParams(d)
	}
	if err := CheckWorkerArgs(d, x, w, n); err != nil {
		return err
	}
	ws, ok := m.Noise.(noise.WorkerSetter)
	if !ok {
		return fmt.Errorf("model %s: noise model %s cannot set worker parameters", m.Name(), m.Noise.Name())
	}
	// The noise model checks the number of values: asking for its
	// columns here would build an evaluator (W·K² numbers for DS) for
	// every worker set.
	lo, hi := m.WorkerParams(d, w)
	return ws.SetWorker(d, vals, x[lo:hi])
}

// CanSetWorkers reports true: every registered noise model is a
// noise.WorkerSetter, and SetWorker says so for one that is not.
func (m Model) CanSetWorkers() bool { return true }

// WorkerParams returns the range of worker w's block in the worker block
// of the parameter vector on d (Layout.W): WorkerDim(K) values from
// W[0] + w·WorkerDim(K).
func (m Model) WorkerParams(d *data.Dataset, w int) (lo, hi int) {
	dim := m.Noise.WorkerDim(d.NumClasses())
	lo = m.Layout(d).W[0] + w*dim
	return lo, lo + dim
}
