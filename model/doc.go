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
// and ByName give the estimators by their command-line names: rfe and mv,
// and la-X and da-X for every noise model X of NoiseModels (the paper's
// ds, glad and mme, and onecoin, mace, rmme and twocoin), the LA form
// learning the class prior when X declares so (noise.Info). The other
// families live in packages of their own and register with Register:
// hierarchical DA, hda-X (package hda); variational Bayes, vb-la-X, vb-X
// (vb-ds is DefaultModel), vb-da-X and vb-hda-X (package vb); and the ports
// of Crowd-Kit's remaining categorical aggregators, wawa, zbs, gmv, kos and
// mmsr (package crowdkit). A program imports package all, which imports
// every family, to know them all.
//
// Callers ask an Estimator for what it can do through small interfaces
// rather than its concrete type: Parametric (a number of parameters, the
// basis of memory estimates), Composite (its noise model and assumption,
// for simulation), WorkerStarter (a start from known worker parameters)
// and GoldTrainer (fitting with gold labels). A family outside this
// package builds its results with ClosedForm, Result.SetNoise and
// Result.SetBaseline, or through Model's fit (Model.FitOnce, Guard,
// Result.FittedModel, Result.FittedNoise).
package model
