package model

import (
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/noise"
)

// TaskColumns names the per-object values TaskValues reports: those of a
// noise model with interpretable per-object parameters (noise.TaskReporter,
// such as GLAD's "difficulty", under any assumption), nil for other
// models.
func (r *Result) TaskColumns() []string {
	if tr := r.taskReporter(); tr != nil {
		return tr.TaskColumns()
	}
	return nil
}

// TaskValues appends the fitted values of object j, one per TaskColumns
// entry, to dst and returns the result.
func (r *Result) TaskValues(j int, dst []float64) []float64 {
	tr := r.taskReporter()
	if tr == nil {
		return dst
	}
	_, o, _, _ := r.obj.lay.Split(r.Params)
	return tr.TaskValues(o, r.K(), j, dst)
}

// taskReporter returns the fitted noise model as a noise.TaskReporter, or
// nil when it is not one or the result has no parameters.
func (r *Result) taskReporter() noise.TaskReporter {
	if r.obj == nil || !r.Solved() {
		return nil
	}
	tr, _ := r.model.Noise.(noise.TaskReporter)
	return tr
}

// ClassPrior returns the fitted class prior p, one probability per class,
// of a model whose prior is a parameter (latent.LA with LearnPrior, as in
// la-ds and la-onecoin), and nil for other models: those with a fixed
// uniform prior (la-glad, la-mace) and those without a class prior (the DA
// models, whose per-object q_j take its place).
func (r *Result) ClassPrior() []float64 {
	if r.obj == nil || !r.Solved() {
		return nil
	}
	// Training gold (latent.WithGold) clamps some objects; the prior is
	// that of the assumption it wraps.
	if learned, _ := learnsPrior(r.model.Latent); !learned {
		return nil
	}
	_, _, g, _ := r.obj.lay.Split(r.Params)
	p := make([]float64, len(g))
	num.SoftmaxFrom(p, g, num.LogSumExp(g))
	return p
}
