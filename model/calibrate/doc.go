// Package calibrate tempers a model's true-class posteriors on the tasks of
// known class that a user gives it (Gold): where gold is the truth that
// matters and the labels cannot show how often a confident consensus
// misses it, the gold tasks can. The temperature τ is chosen by
// cross-fitting, each gold task predicted by a fit that did not see its
// class, and applied to every task without gold.
package calibrate
