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

// bayesian lists the variational Bayes forms of Dawid-Skene (see Bayes):
// vb-la-ds (IBCC), vb-da-ds (the default model: workers from IBCC, then
// q_j ~ Dirichlet(1) under DA) and vb-hda-ds (mixed membership, q_j ~
// Dirichlet(α p) with α and p by empirical Bayes).
func bayesian() []Entry {
	return []Entry{
		{"vb-la-ds", "LA Dawid-Skene with Dirichlet priors (IBCC), variational Bayes, output the posterior of the true class", func() Estimator {
			return Bayes{Noise: noise.DS{}, Latent: latent.LA{}}
		}},
		{"vb-da-ds", "the default: Dawid-Skene workers from IBCC, then q_j ~ Dirichlet(1) under DA, variational Bayes, output the posterior mean of q_j", func() Estimator {
			return Bayes{Noise: noise.DS{}, Latent: latent.DA{}}
		}},
		{"vb-hda-ds", "hierarchical DA Dawid-Skene with Dirichlet priors (mixed membership), q_j ~ Dirichlet(alpha p) by empirical Bayes, variational Bayes, output the posterior mean of q_j", func() Estimator {
			return Bayes{Noise: noise.DS{}, Latent: latent.DA{}, Hierarchical: true}
		}},
	}
}
