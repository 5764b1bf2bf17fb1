// Package temper chooses the temperature τ that calibrates mean-field
// posteriors without gold labels: every held-out label i of a task is
// predicted from the task's posterior without it, raised to the power τ,
// and τ maximises the sum of the logarithms of these predictions (Best),
// held at 1 unless it gains more than the Bayesian information criterion's
// price of one parameter; Rows applies it. Truth builds the held-out rows
// of an LA fit and calibrates it; ambiguity.HeldOut builds them under the
// ambiguity model. Package calibrate calls Best with gold classes, one-hot,
// in place of the held-out labels' predictions.
package temper
