package vb

import (
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

func init() {
	model.Register(model.Family{Name: "vb", Section: model.SectionVariational, Forms: variational})
}

// variational returns the variational Bayes entries of the conjugate
// noise model n: vb-la-X (IBCC for Dawid-Skene), vb-X (the LA fit with
// both answers, Bayes.Both, the prior shared by the workers where n is a
// noise.SharedPriorer; vb-ds is the default model of the command line),
// vb-da-X (workers and q_j together under DA, q_j ~ Dirichlet(1/2)) and
// vb-hda-X (mixed membership, q_j ~ Dirichlet(α p) with α and p by
// empirical Bayes).
func variational(n noise.Describer) []model.Entry {
	_, conj := n.(noise.Conjugate)
	_, mapv := n.(noise.MAPVariational)
	if !conj && !mapv {
		return nil
	}
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
	// Only a model of confusion rows (vb-ds) challenges its answer with
	// EBCC's: see noise.Info.ConfusionRows.
	challenge := info.ConfusionRows
	both := workers + ", variational Bayes: the true class with its calibrated posterior (LA), and the label distribution q_j given the workers"
	return []model.Entry{
		{
			Name:    "vb-la-" + n.Name(),
			Summary: "LA " + s + ", variational Bayes, output the posterior of the true class",
			New:     func() model.Estimator { return Bayes{Noise: n, Latent: latent.LA{}} },
		},
		{
			Name:    "vb-" + n.Name(),
			Summary: both,
			New: func() model.Estimator {
				return Bayes{Noise: shared, Latent: latent.LA{}, Both: true, Challenge: challenge}
			},
		},
		{
			Name:    "vb-da-" + n.Name(),
			Summary: "DA " + s + " (mixed membership), q_j ~ Dirichlet(1/2) (Jeffreys), variational Bayes, output the posterior mean of q_j",
			New:     func() model.Estimator { return Bayes{Noise: n, Latent: latent.DA{}} },
		},
		{
			Name:    "vb-hda-" + n.Name(),
			Summary: "hierarchical DA " + s + " (mixed membership), q_j ~ Dirichlet(alpha p) by empirical Bayes, variational Bayes, output the posterior mean of q_j",
			New:     func() model.Estimator { return Bayes{Noise: n, Latent: latent.DA{}, Hierarchical: true} },
		},
	}
}
