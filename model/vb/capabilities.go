package vb

import (
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// The capabilities (see package model) of Bayes.
var (
	_ model.Parametric      = Bayes{}
	_ model.Composite       = Bayes{}
	_ model.GoldTrainer     = Bayes{}
	_ model.MemoryEstimator = Bayes{}
	_ model.SettingsReader  = Bayes{}
)

// Parts returns b's noise model and assumption: latent.Dirichlet (DA with
// an estimated Dirichlet prior) for the hierarchical form.
func (b Bayes) Parts() (noise.Model, latent.Assumption) {
	if b.Hierarchical {
		return b.Noise, latent.Dirichlet{}
	}
	return b.Noise, b.Latent
}

// WithNoise returns b with its noise model replaced by n, which must be
// conjugate (noise.Conjugate) for Fit to succeed.
func (b Bayes) WithNoise(n noise.Model) model.Estimator {
	b.Noise = n
	return b
}

// Reads reports whether Bayes's fits read s: MaxIterations, FunctionTol
// and ParamTol, the variational fit's iteration limit and stopping rule,
// and Start and Fixed when the noise model can set its workers' posteriors
// (CanSetWorkers).
func (b Bayes) Reads(s model.Setting) bool {
	return s == model.SetMaxIterations || s == model.SetFunctionTol || s == model.SetParamTol || s == model.SetStart && b.CanSetWorkers()
}

// The bytes a variational fit's memory estimate counts (see
// model.MemoryEstimator), measured with `consensus bench` as the
// estimates of package model.
const (
	// vbBytesPerValue is a variational fit's per value of its J×K
	// objects' factors (γ_j or ρ_j): the factors, the output and a third
	// vector's worth of scratch and headroom.
	vbBytesPerValue = 24
	// vbBytesPerWorkerParam is a variational fit's per worker parameter:
	// SQUAREM's states of the workers' posterior.
	vbBytesPerWorkerParam = 96
	// vbBytesPerTaskPoint is a variational fit's per task with a point
	// posterior of its own (GLAD's difficulty, noise.MAPVariational).
	vbBytesPerTaskPoint = 90
)

// FitMemory estimates the memory of a variational fit of b to d: the
// objects' factors, the output and scratch (24 bytes per task and class),
// SQUAREM's states of the workers' posterior, and for GLAD the tasks'
// point posteriors.
func (b Bayes) FitMemory(d *data.Dataset, _ *model.Settings) float64 {
	jk := float64(d.NumTasks() * d.NumClasses())
	need := vbBytesPerValue*jk + vbBytesPerWorkerParam*max(float64(b.NumParams(d))-jk, 0) + model.FitOverhead(d)
	if _, ok := b.Noise.(noise.MAPVariational); ok {
		need += vbBytesPerTaskPoint * float64(d.NumTasks())
	}
	return need
}
