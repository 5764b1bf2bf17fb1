// Package unvoted finds the classes that a consensus gives to many tasks on
// which no worker gave them (Classes): the sign of a latent class model
// that has used a class workers seldom give for a group of tasks they
// label otherwise. Package compare reports them after a fit
// (compare.UnvotedClasses), and the default model of package vb refits
// with its confusion pattern fixed when its first fit shows one. Dropped
// finds the opposite: a class the labels give as often as the others that
// the consensus all but drops.
package unvoted
