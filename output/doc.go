// Package output writes consensus results: the per-object distributions in
// the tabular form Crowd-Kit users know (task, label, then one probability
// column per class), the fitted worker parameters, and files that appear
// atomically, complete or not at all.
package output
