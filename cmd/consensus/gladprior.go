package main

import (
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// gladPriorHelp is the help text of --glad-prior.
const gladPriorHelp = "fit GLAD with Gaussian priors N(1, VAR) on abilities and log difficulties " +
	"(noise.GLAD.PriorVar), so that the fit has a finite optimum; default 0: the paper's maximum likelihood, " +
	"whose optimum lies at infinity (see docs/models.md)"

// withGLADPrior returns est with the variance of GLAD's Gaussian priors
// set to v (--glad-prior). v = 0 returns est unchanged; otherwise est must
// be the LA or DA form of GLAD and v positive.
func withGLADPrior(est model.Estimator, v float64) (model.Estimator, error) {
	if v == 0 {
		return est, nil
	}
	if err := checkFinite("glad-prior", v); err != nil {
		return nil, err
	}
	m, ok := est.(model.Model)
	var g noise.GLAD
	if ok {
		g, ok = m.Noise.(noise.GLAD)
	}
	if !ok || v < 0 {
		return nil, usagef("--glad-prior needs a GLAD model (la-glad, da-glad) and a positive variance")
	}
	g.PriorVar = v
	m.Noise = g
	return m, nil
}
