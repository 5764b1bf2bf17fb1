package main

import (
	"github.com/consensuslab/consensus/model"
)

// Help texts of --q-prior and --staged.
const (
	qPriorHelp = "with vb-da-* models: the pseudo-count a of every class in the Dirichlet(a, ..., a) prior of each task's " +
		"distribution q_j; smaller is sharper (default 0.5, Jeffreys' prior; 1 is uniform; see docs/choosing-a-model.md#how-sharp)"
	stagedHelp = "with vb-da-* models: take the workers from the LA fit and fit only the q_j given them, about five times " +
		"faster on large inputs but biased under DA (see docs/models.md)"
)

// withQPrior returns est with q_j's prior pseudo-count a (--q-prior; zero:
// the model's default) and the staged form (--staged). With a = 0 and
// staged false it returns est unchanged; otherwise est must be a vb-da-*
// model and a finite and not negative (checkFinite).
func withQPrior(est model.Estimator, a float64, staged bool) (model.Estimator, error) {
	if a == 0 && !staged {
		return est, nil
	}
	if err := checkFinite("q-prior", a); err != nil {
		return nil, err
	}
	if a > model.MaxQPrior {
		return nil, usagef("--q-prior %g: want at most %g; a larger pseudo-count holds every q_j at the prior regardless of its labels, and the evidence bound (the log-likelihood reported) loses its precision", a, model.MaxQPrior)
	}
	if e, _, ok := (model.Priors{QPrior: a, Staged: staged}).Apply(est); ok {
		return e, nil
	}
	return nil, usagef("--q-prior and --staged need a model with a prior on q_j (%s), not %s", model.NamesWith(model.HasPrior("q-prior")), est.Name())
}
