package main

import (
	"github.com/consensuslab/consensus/model"
)

// gladPriorHelp is the help text of --glad-prior.
const gladPriorHelp = "fit GLAD with Gaussian priors N(1, VAR) on abilities and log difficulties " +
	"(noise.GLAD.PriorVar), so that the fit has a finite optimum; default 0: the paper's maximum likelihood, " +
	"whose optimum lies at infinity (see docs/models.md)"

// withGLADPrior returns est with the variance of its noise model's Gaussian
// priors set to v (--glad-prior). v = 0 returns est unchanged; otherwise
// est's noise model must have such priors (model.PriorVarSetter: GLAD)
// and v must be positive.
func withGLADPrior(est model.Estimator, v float64) (model.Estimator, error) {
	if v == 0 {
		return est, nil
	}
	if err := checkFinite("glad-prior", v); err != nil {
		return nil, err
	}
	e, ok := model.WithPriorVar(est, v)
	if !ok || v < 0 {
		return nil, usagef("--glad-prior needs a GLAD model (%s) and a positive variance", model.NamesWith(model.HasPrior("glad-prior")))
	}
	return e, nil
}
