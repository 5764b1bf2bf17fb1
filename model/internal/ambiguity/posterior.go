package ambiguity

import "math"

// Posterior writes into probs (J×K) the posterior of every task's true
// class under pr and the class prior prior, P(z_j = c | labels) ∝ π_c ML_c,
// mixed with floor of the uniform distribution, except on tasks of known
// class (gold[j] ≥ 0; gold may be nil) and tasks of more than MaxLabels
// labels, which it leaves as they are.
func Posterior(l *Labels, pr Prior, prior []float64, gold []int, floor float64, probs []float64) {
	d, k := l.d, l.k
	var lk, e []float64
	bbs := make([][]float64, MaxLabels+1)
	ml := make([]float64, k)
	u := floor / float64(k)
	for j := range d.NumTasks() {
		n := d.Offsets[j+1] - d.Offsets[j]
		if (gold != nil && gold[j] >= 0) || n > MaxLabels {
			continue
		}
		workers, labels := d.TaskLabels(j)
		lk, _ = l.like(j, workers, labels, lk)
		e = pairSums(lk, n, k, e)
		if bbs[n] == nil {
			bbs[n] = pr.weights(n, nil)
		}
		marginal(e, n, k, bbs[n], l.w, ml)
		row := probs[j*k : (j+1)*k]
		var s float64
		for c := range row {
			row[c] = prior[c] * ml[c]
			s += row[c]
		}
		for c := range row {
			if s > 0 {
				row[c] /= s
			} else {
				row[c] = prior[c]
			}
			row[c] = (1-floor)*row[c] + u
		}
	}
}

// heldOutLabels bounds the labels of the tasks HeldOut reads: holding out
// each label of a task of n labels costs O(n³) a pair of classes.
const heldOutLabels = 50

// HeldOut returns the held-out predictions of labels under pr and the
// class prior prior, the inputs of temper.Best: for every label i of
// every m-th task with two to heldOutLabels labels and no gold class
// (gold[j] ≥ 0; gold may be nil), m chosen so that about maxEntries/K
// labels are read, one K-long row of loo, the log posterior of every
// class without the label, log π_c ML_c(y_{−i}) up to a constant, and one
// of pc, the label's probability given the class and the task's other
// labels, ML_c(y) / ML_c(y_{−i}), up to a factor common to the classes.
// Under the model the labels of a task are dependent given its class
// (through λ and the distractor), so a label is predicted by the
// marginal likelihoods with and without it, not by its worker's
// conditional alone.
func HeldOut(l *Labels, pr Prior, prior []float64, gold []int, maxEntries int) (loo, pc []float64) {
	d, k := l.d, l.k
	var total int
	for j := range d.NumTasks() {
		if n := d.Offsets[j+1] - d.Offsets[j]; n >= 2 && n <= heldOutLabels {
			total += n * k
		}
	}
	stride := max(1, total/max(maxEntries, 1))
	var lk, rest, e []float64
	bbs := make([][]float64, heldOutLabels+1)
	weights := func(n int) []float64 {
		if bbs[n] == nil {
			bbs[n] = pr.weights(n, nil)
		}
		return bbs[n]
	}
	all, without := make([]float64, k), make([]float64, k)
	for j := 0; j < d.NumTasks(); j += stride {
		n := d.Offsets[j+1] - d.Offsets[j]
		if n < 2 || n > heldOutLabels || (gold != nil && gold[j] >= 0) {
			continue
		}
		workers, labels := d.TaskLabels(j)
		lk, _ = l.like(j, workers, labels, lk)
		e = pairSums(lk, n, k, e)
		marginal(e, n, k, weights(n), l.w, all)
		for i := range n {
			rest = append(append(rest[:0], lk[:i*k]...), lk[(i+1)*k:]...)
			e = pairSums(rest, n-1, k, e)
			marginal(e, n-1, k, weights(n-1), l.w, without)
			for c := range k {
				loo = append(loo, math.Log(max(prior[c]*without[c], 1e-300)))
				pc = append(pc, all[c]/max(without[c], 1e-300))
			}
		}
	}
	return loo, pc
}
