// Package vb fits the variational Bayes forms of the composition: a
// conjugate noise model of package noise (noise.Conjugate), or one with a
// point posterior (noise.MAPVariational, GLAD), under LA, DA or
// hierarchical DA, by coordinate ascent on the evidence lower bound
// accelerated by SQUAREM (Bayes). Its registry forms are vb-la-X (IBCC for
// Dawid-Skene), vb-X (the LA fit with both answers; vb-ds is
// model.DefaultModel), vb-da-X and vb-hda-X.
//
// The package registers them with model.Register when imported; package
// all imports it with every other family.
package vb
