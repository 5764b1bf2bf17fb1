package main

import (
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// gladPriorHelp is the help text of --glad-prior.
const gladPriorHelp = "fit GLAD with Gaussian priors N(1, VAR) on abilities and log difficulties " +
	"(noise.GLAD.PriorVar), so that the fit has a finite optimum; default 0: the paper's maximum likelihood, " +
	"whose optimum lies at infinity (see docs/models.md)"

// priorVarSetter is a noise model with Gaussian priors of a settable
// variance, such as noise.GLAD.
type priorVarSetter interface {
	WithPriorVar(v float64) noise.Model
}

// withGLADPrior returns est with the variance of its noise model's Gaussian
// priors set to v (--glad-prior). v = 0 returns est unchanged; otherwise
// est's noise model must have such priors (GLAD's la, da and hda forms)
// and v must be positive.
func withGLADPrior(est model.Estimator, v float64) (model.Estimator, error) {
	if v == 0 {
		return est, nil
	}
	if err := checkFinite("glad-prior", v); err != nil {
		return nil, err
	}
	c, ok := est.(model.Composite)
	var p priorVarSetter
	if ok {
		n, _ := c.Parts()
		p, ok = n.(priorVarSetter)
	}
	if !ok || v < 0 {
		return nil, usagef("--glad-prior needs a GLAD model (la-glad, da-glad, hda-glad) and a positive variance")
	}
	return c.WithNoise(p.WithPriorVar(v)), nil
}
