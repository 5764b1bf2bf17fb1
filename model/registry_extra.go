package model

import (
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// beyondPaper lists the estimators that extend the paper: hierarchical DA
// (hda-*, latent.Dirichlet with empirical Bayes, see HDA) for every noise
// model, and three more noise models in LA, DA and HDA form: one-coin
// Dawid-Skene (onecoin, learned class prior under LA like DS), the
// spammer-aware MACE-style model (mace, uniform prior under LA as in
// MACE) and regularised minimax entropy (rmme, uniform prior under LA).
func beyondPaper() []Entry {
	hda := func(n noise.Model, summary string) Entry {
		return Entry{"hda-" + n.Name(), "hierarchical DA " + summary + ", q_j ~ Dirichlet(alpha p) with alpha, p by empirical Bayes", func() Estimator {
			return HDA{Noise: n}
		}}
	}
	r := []Entry{
		hda(noise.DS{}, "Dawid-Skene"),
		hda(noise.GLAD{}, "GLAD"),
		hda(noise.MME{}, "minimax entropy"),
		{"la-onecoin", "LA one-coin Dawid-Skene (one accuracy per worker, learned class prior), output the posterior", func() Estimator {
			return Model{Noise: noise.OneCoin{}, Latent: latent.LA{LearnPrior: true}}
		}},
		{"da-onecoin", "DA one-coin Dawid-Skene, output q_j", func() Estimator {
			return Model{Noise: noise.OneCoin{}, Latent: latent.DA{}}
		}},
		hda(noise.OneCoin{}, "one-coin Dawid-Skene"),
		{"la-mace", "LA MACE-style spammer model (truthful with prob. theta_w, else own distribution xi_w; uniform prior), output the posterior", func() Estimator {
			return Model{Noise: noise.MACE{}, Latent: latent.LA{}}
		}},
		{"da-mace", "DA MACE-style spammer model, output q_j", func() Estimator {
			return Model{Noise: noise.MACE{}, Latent: latent.DA{}}
		}},
		hda(noise.MACE{}, "MACE-style spammer model"),
		{"la-rmme", "LA minimax entropy with L2 penalties scaled to the data (Zhou et al.), uniform prior, output the posterior", func() Estimator {
			return Model{Noise: noise.RegMME{}, Latent: latent.LA{}}
		}},
		{"da-rmme", "DA regularised minimax entropy, output q_j", func() Estimator {
			return Model{Noise: noise.RegMME{}, Latent: latent.DA{}}
		}},
		hda(noise.RegMME{}, "regularised minimax entropy"),
	}
	return r
}

// bayesian lists the variational Bayes forms (see Bayes) of every
// conjugate noise model, the cross product of {ds, onecoin} and {la, da,
// hda}: vb-la-X (IBCC for Dawid-Skene), vb-da-X (workers from the LA fit,
// then q_j ~ Dirichlet(1) under DA; vb-da-ds is the default model of the
// command line) and vb-hda-X (mixed membership, q_j ~ Dirichlet(α p) with
// α and p by empirical Bayes).
func bayesian() []Entry {
	var r []Entry
	for _, n := range []struct {
		m       noise.Model
		summary string
	}{
		{noise.DS{}, "Dawid-Skene with Dirichlet priors on the confusion rows"},
		{noise.OneCoin{}, "one-coin Dawid-Skene with a Beta prior on the accuracy"},
	} {
		r = append(r,
			Entry{"vb-la-" + n.m.Name(), "LA " + n.summary + " (IBCC), variational Bayes, output the posterior of the true class", func() Estimator {
				return Bayes{Noise: n.m, Latent: latent.LA{}}
			}},
			Entry{"vb-da-" + n.m.Name(), "DA " + n.summary + ": workers from the LA fit, then q_j ~ Dirichlet(1), variational Bayes, output the posterior mean of q_j", func() Estimator {
				return Bayes{Noise: n.m, Latent: latent.DA{}}
			}},
			Entry{"vb-hda-" + n.m.Name(), "hierarchical DA " + n.summary + " (mixed membership), q_j ~ Dirichlet(alpha p) by empirical Bayes, variational Bayes, output the posterior mean of q_j", func() Estimator {
				return Bayes{Noise: n.m, Latent: latent.DA{}, Hierarchical: true}
			}},
		)
	}
	for i := range r {
		if r[i].Name == DefaultModel {
			r[i].Summary = "the default: " + r[i].Summary
		}
	}
	return r
}
