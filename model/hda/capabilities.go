package hda

import (
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// The capabilities (see package model) of HDA.
var (
	_ model.Parametric      = HDA{}
	_ model.Composite       = HDA{}
	_ model.WorkerStarter   = HDA{}
	_ model.MemoryEstimator = HDA{}
	_ model.SettingsReader  = HDA{}
)

// inner returns the model HDA fits, with the prior pinned to Alpha and P
// (zero and nil: estimated).
func (h HDA) inner() model.Model {
	return model.Model{Noise: h.Noise, Latent: latent.Dirichlet{Alpha: h.Alpha, P: h.P}}
}

// Parts returns h's noise model and its assumption, latent.Dirichlet with
// h's Alpha and P.
func (h HDA) Parts() (noise.Model, latent.Assumption) { return h.inner().Parts() }

// WithNoise returns h with its noise model replaced by n.
func (h HDA) WithNoise(n noise.Model) model.Estimator {
	h.Noise = n
	return h
}

// NumParams returns the number of parameters of the model each fit of the
// empirical Bayes loop fits.
func (h HDA) NumParams(d *data.Dataset) int { return h.inner().NumParams(d) }

// Init returns the initial parameter vector of the first fit without
// Settings.Start: the model's initialisation under the prior estimated
// from the raw label counts (FitDirichletMultinomial), or the fixed one.
func (h HDA) Init(d *data.Dataset) []float64 {
	m := h.inner()
	if h.Alpha <= 0 || h.P == nil {
		a, p := FitDirichletMultinomial(d.Counts(), d.NumClasses(), h.Alpha, h.P)
		m.Latent = latent.Dirichlet{Alpha: a, P: p}
	}
	return m.Init(d)
}

// WorkerColumns returns the names of the noise model's worker parameters
// on d.
func (h HDA) WorkerColumns(d *data.Dataset) []string { return h.inner().WorkerColumns(d) }

// SetWorker sets worker w's block of x as Model.SetWorker does.
func (h HDA) SetWorker(d *data.Dataset, x []float64, w int, vals []float64) error {
	return h.inner().SetWorker(d, x, w, vals)
}

// CanSetWorkers reports true, as Model's does.
func (h HDA) CanSetWorkers() bool { return true }

// WorkerParams returns the range of worker w's block as Model.WorkerParams
// does.
func (h HDA) WorkerParams(d *data.Dataset, w int) (lo, hi int) { return h.inner().WorkerParams(d, w) }

// Reads reports whether HDA's fits read s: as Model's.
func (h HDA) Reads(s model.Setting) bool { return s != model.SetParamTol }

// hdaBytesPerCoefficient is empirical Bayes' per coefficient of its
// objects' polynomials (polySet): the coefficients, their weights in the
// E-step over them and the histograms.
const hdaBytesPerCoefficient = 36

// FitMemory estimates the memory of empirical Bayes on d: the fit of the
// inner model (HDA collects the last gradient fit's optimiser state before
// the next fit) and the polynomials of the marginal likelihood.
func (h HDA) FitMemory(d *data.Dataset, s *model.Settings) float64 {
	_, coefficients := polyLimit(d)
	return h.inner().FitMemory(d, s) + hdaBytesPerCoefficient*float64(coefficients) + 8*float64(d.NumTasks())
}
