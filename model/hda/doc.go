// Package hda fits hierarchical DA (HDA): a noise model of package noise
// with every object's label distribution q_j ~ Dirichlet(α p), the prior
// (α, p) estimated by empirical Bayes, alternating maximum-likelihood fits
// of the composition (model.Model under latent.Dirichlet, with the
// label-switching guard model.Guard) with updates of the prior from the
// exact marginal likelihood of the objects' subjective classes.
//
// The package registers hda-X for every noise model X of
// model.NoiseModels with model.Register when imported; package all imports
// it with every other family.
package hda
