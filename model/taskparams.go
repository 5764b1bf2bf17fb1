package model

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// TaskDifficulties returns the fitted difficulty d_j > 0 of every object of
// a GLAD model (noise.GLAD under any assumption), in object order, and nil
// for other models. In GLAD a worker of ability e_w labels object j
// correctly with probability σ(e_w d_j), so a larger d_j makes every
// worker's label more reliable (better workers more likely right,
// adversarial ones more likely wrong); log d_j is the parameter Crowd-Kit's
// GLAD reports as betas_.
func (r *Result) TaskDifficulties() []float64 {
	if r.obj == nil || r.Params == nil {
		return nil
	}
	if _, ok := r.model.Noise.(noise.GLAD); !ok {
		return nil
	}
	_, o, _, _ := r.obj.lay.Split(r.Params)
	d := make([]float64, len(o))
	for j, delta := range o {
		d[j] = math.Exp(delta)
	}
	return d
}

// ClassPrior returns the fitted class prior p, one probability per class,
// of a model whose prior is a parameter (latent.LA with LearnPrior, as in
// la-ds and la-onecoin), and nil for other models: those with a fixed
// uniform prior (la-glad, la-mace) and those without a class prior (the DA
// models, whose per-object q_j take its place).
func (r *Result) ClassPrior() []float64 {
	if r.obj == nil || r.Params == nil {
		return nil
	}
	a := r.model.Latent
	if wg, ok := a.(latent.WithGold); ok {
		a = wg.Base // training gold clamps some objects; the prior is Base's
	}
	la, ok := a.(latent.LA)
	if !ok || !la.LearnPrior {
		return nil
	}
	_, _, g, _ := r.obj.lay.Split(r.Params)
	p := make([]float64, len(g))
	num.SoftmaxFrom(p, g, num.LogSumExp(g))
	return p
}
