// Package ebcc registers enhanced Bayesian classifier combination (EBCC),
// a consensus model whose true classes have latent subtypes, so that
// workers who share a mistake on some objects of a class are not read as
// independent witnesses of it.
package ebcc
