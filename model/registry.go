package model

import (
	"errors"
	"fmt"
	"strings"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// DefaultModel is the name of the estimator a user gets without naming
// one: Bayesian Dawid-Skene under DA, workers and q_j fitted together with
// q_j ~ Dirichlet(1/2, …, 1/2) (see Bayes and docs/choosing-a-model.md).
const DefaultModel = "vb-ds"

// NoiseModels returns the noise models of the registry, in the order
// Registry lists them. Each declares its summary, LA prior policy,
// supported numbers of classes and default solver (noise.Info); adding a
// noise model to the registry is adding it here.
func NoiseModels() []noise.Describer {
	return []noise.Describer{
		noise.DS{}, noise.GLAD{}, noise.MME{}, // the paper's
		noise.OneCoin{}, noise.MACE{}, noise.RegMME{},
		noise.TwoCoin{},
	}
}

// NoiseByName returns the registry's noise model of that name, such as
// "ds".
func NoiseByName(name string) (noise.Describer, error) {
	var names []string
	for _, n := range NoiseModels() {
		if n.Name() == name {
			return n, nil
		}
		names = append(names, n.Name())
	}
	return nil, fmt.Errorf("unknown noise model %q (valid: %s)", name, strings.Join(names, ", "))
}

// Entry describes one estimator known by name.
type Entry struct {
	// Name is the command-line name.
	Name string
	// Summary is a one-line description.
	Summary string
	// Solver is the default solver of the maximum-likelihood fits, as
	// Settings.Method's command-line spelling ("em" or "lbfgs"); empty
	// for an estimator without that choice (rfe, the variational fits,
	// the Crowd-Kit methods).
	Solver string
	// New returns the estimator.
	New func() Estimator
}

// Registry lists the estimators by name: rfe and its alias mv; for every
// noise model of NoiseModels its LA form la-X (the class prior learned or
// uniform as the model declares), its DA form da-X and its hierarchical DA
// form hda-X (HDA); the variational Bayes forms (Bayes) vb-la-X, vb-da-X
// and vb-hda-X of every conjugate noise model (noise.Conjugate) and of
// every one with a point posterior (noise.MAPVariational: GLAD); and
// Crowd-Kit's other categorical aggregators (see crowdKit).
func Registry() []Entry {
	r := []Entry{
		{"rfe", "relative frequencies of the labels of each object (the baseline)", "", func() Estimator { return RFE{} }},
		{"mv", "majority vote: rfe read through its argmax", "", func() Estimator { return RFE{Alias: "mv"} }},
	}
	for _, n := range NoiseModels() {
		r = append(r, forms(n)...)
	}
	for _, n := range NoiseModels() {
		if _, ok := n.(noise.Conjugate); ok {
			r = append(r, variational(n)...)
		} else if _, ok := n.(noise.MAPVariational); ok {
			r = append(r, variational(n)...)
		}
	}
	return append(r, crowdKit()...)
}

// forms returns the LA, DA and hierarchical DA entries of n.
func forms(n noise.Describer) []Entry {
	info := n.Info()
	prior := "uniform class prior"
	if info.LearnPrior {
		prior = "learned class prior"
	}
	return []Entry{
		{"la-" + n.Name(), "LA " + info.Summary + ", " + prior + ", output the posterior of the true class", info.Solver, func() Estimator {
			return Model{Noise: n, Latent: latent.LA{LearnPrior: info.LearnPrior}}
		}},
		{"da-" + n.Name(), "DA " + info.Summary + ", output the label distribution q_j", info.Solver, func() Estimator {
			return Model{Noise: n, Latent: latent.DA{}}
		}},
		{"hda-" + n.Name(), "hierarchical DA " + info.Summary + ", q_j ~ Dirichlet(alpha p) with alpha, p by empirical Bayes", info.Solver, func() Estimator {
			return HDA{Noise: n}
		}},
	}
}

// variational returns the variational Bayes entries of the conjugate
// noise model n: vb-la-X (IBCC for Dawid-Skene), vb-X (the LA fit with
// both answers, Bayes.Both, the prior shared by the workers where n is a
// noise.SharedPriorer; vb-ds is the default model of the command line),
// vb-da-X (workers and q_j together under DA, q_j ~ Dirichlet(1/2)) and
// vb-hda-X (mixed membership, q_j ~ Dirichlet(α p) with α and p by
// empirical Bayes).
func variational(n noise.Describer) []Entry {
	info := n.Info()
	prior := info.ConjugatePrior
	if m, ok := n.(noise.MAPVariational); ok {
		prior = m.MAPPrior()
	}
	s := info.Summary + " with " + prior
	var shared noise.Model = n
	workers := s // the worker prior of vb-X: the fixed one, or shared by the workers
	if sp, ok := n.(noise.SharedPriorer); ok {
		shared = sp.WithSharedPrior()
		workers = info.Summary + " with a Dirichlet prior shared by the workers, by empirical Bayes"
	}
	both := workers + ", variational Bayes: the true class with its calibrated posterior (LA), and the label distribution q_j given the workers"
	r := []Entry{
		{"vb-la-" + n.Name(), "LA " + s + ", variational Bayes, output the posterior of the true class", "", func() Estimator {
			return Bayes{Noise: n, Latent: latent.LA{}}
		}},
		{"vb-" + n.Name(), both, "", func() Estimator {
			return Bayes{Noise: shared, Latent: latent.LA{}, Both: true}
		}},
		{"vb-da-" + n.Name(), "DA " + s + " (mixed membership), q_j ~ Dirichlet(1/2) (Jeffreys), variational Bayes, output the posterior mean of q_j", "", func() Estimator {
			return Bayes{Noise: n, Latent: latent.DA{}}
		}},
		{"vb-hda-" + n.Name(), "hierarchical DA " + s + " (mixed membership), q_j ~ Dirichlet(alpha p) by empirical Bayes, variational Bayes, output the posterior mean of q_j", "", func() Estimator {
			return Bayes{Noise: n, Latent: latent.DA{}, Hierarchical: true}
		}},
	}
	for i := range r {
		if r[i].Name == DefaultModel {
			r[i].Summary = "the default: " + r[i].Summary
		}
	}
	return r
}

// Names returns the names of all registered estimators.
func Names() []string {
	var names []string
	for _, e := range Registry() {
		names = append(names, e.Name)
	}
	return names
}

// ErrUnknownModel is returned, wrapped with the name and the valid names,
// by ByName for a name that is not registered.
var ErrUnknownModel = errors.New("unknown model")

// ByName returns the estimator registered under name. For a name not
// registered, the error wraps ErrUnknownModel.
func ByName(name string) (Estimator, error) {
	for _, e := range Registry() {
		if e.Name == name {
			return e.New(), nil
		}
	}
	return nil, fmt.Errorf("%w %q (valid: %s)", ErrUnknownModel, name, strings.Join(Names(), ", "))
}
