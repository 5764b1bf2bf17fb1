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
// and ByName give the estimators by their command-line names, the cross
// product of the noise models (NoiseModels) and the assumptions: rfe and
// mv; la-X, da-X and hda-X (HDA, hierarchical DA) for every noise model X
// (the paper's ds, glad and mme, and onecoin, mace, rmme and twocoin), the
// LA form learning the class prior when X declares so (noise.Info); the
// Bayesian forms vb-la-X, vb-da-X and vb-hda-X of every conjugate noise
// model (Bayes), and vb-X, the default form with both answers (Bayes.Both;
// vb-ds is the default model of the command); and the
// ports of Crowd-Kit's remaining categorical aggregators: wawa (Wawa), zbs
// (ZeroBasedSkill), gmv (GoldMajorityVote), kos (KOS) and mmsr (MMSR);
// docs/crowdkit.md compares them with Crowd-Kit.
//
// Callers ask an Estimator for what it can do through small interfaces
// rather than its concrete type: Parametric (a number of parameters, the
// basis of memory estimates), Composite (its noise model and assumption,
// for simulation), WorkerStarter (a start from known worker parameters)
// and GoldTrainer (fitting with gold labels).
package model
