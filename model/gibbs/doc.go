// Package gibbs fits consensus models by collapsed Gibbs sampling: Kinds
// (gibbs-kinds), Bayesian Dawid-Skene whose workers are of five kinds
// (full confusion, one accuracy, one accuracy a class, spammer and
// adversary), every worker's parameters integrated out and the kinds'
// priors learned from the crowd. Importing the package registers the
// model (package model/all imports it).
package gibbs
