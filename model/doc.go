// Package model composes a noise model (package noise) with a latent
// assumption (package latent) into a consensus model, and fits it by
// maximising the exact log-likelihood.
//
// A Model is the pair; every noise model works under either assumption:
//
//	la := model.Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}} // LA-DS, paper eq. 1
//	da := model.Model{Noise: noise.DS{}, Latent: latent.DA{}}                 // DA-DS, paper eq. 3
//
// Fit starts from the paper's section 5 initialisation and maximises the
// log-likelihood with gonum's optimize package (L-BFGS by default,
// conjugate gradient as in the paper on request). One pass over the labels
// computes the value and the gradient together: for every object the noise
// model writes the log probabilities l_i(z) of its labels, the assumption
// turns them into its term of the log-likelihood and the weights
// g_i(z) = ∂L/∂l_i(z), and the noise model back-propagates the weights into
// its parameters. Objects are processed in fixed chunks on several
// goroutines and the chunks' sums are reduced in a fixed order, so results
// are identical for any number of goroutines.
//
// RFE, the relative frequency estimator, is the paper's baseline. Registry
// and ByName give the estimators by their command-line names: rfe, mv,
// la-ds, da-ds, la-glad, da-glad, la-mme and da-mme, the models beyond the
// paper, the Bayesian forms of Dawid-Skene fitted by variational Bayes
// (Bayes: vb-la-ds, vb-da-ds, the default model of the command, and
// vb-hda-ds), and the ports of Crowd-Kit's remaining categorical aggregators:
// wawa (Wawa), zbs (ZeroBasedSkill), gmv (GoldMajorityVote), kos (KOS) and
// mmsr (MMSR); docs/crowdkit.md compares them with Crowd-Kit.
package model
