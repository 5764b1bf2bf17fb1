// Package plan turns a fitted Bayesian consensus into decisions: which
// workers to stop trusting (Flags), which tasks to label next (Next), and
// how sure each task's consensus is (Intervals); Replay measures what the
// planner saves against labelling every task in turn on recorded labels,
// and Simulation on a simulated crowd whose every worker can be asked
// (Oracle).
//
// The package reads a fit through two small interfaces, TaskPosterior (the
// posterior of every task's true class) and WorkerPosterior (the Dirichlet
// posterior of every worker's confusion rows), so that it does not depend
// on which model produced them. FromResult adapts the result of a
// variational Dawid-Skene fit (vb-la-ds, and for the workers alone vb-da-ds
// and vb-hda-ds); Fit fits vb-la-ds and adapts it.
//
// docs/planning.md is the reference page: the measures, the commands and
// the savings measured on the shipped data sets and in simulation.
package plan
