// Package heldout holds out labels and scores fits on them: the split of
// every task's labels into a training set and held-out labels, the
// held-out label likelihood of a fitted result (the criterion of
// compare.Auto and of compare's ranking without gold), a subsample of
// whole tasks that bounds its cost, and Gain, the contest of two fits on
// the same splits that the default model uses to choose between its own
// answer and a rival's.
package heldout
