// Package vote holds what the skill-weighted votes share: package model's
// WeightedVote and package crowdkit's Wawa, ZeroBasedSkill,
// GoldMajorityVote and MMSR.
package vote

import (
	"slices"

	"github.com/consensuslab/consensus/data"
)

// View is the worker side of a skill-weighted vote (Wawa,
// ZeroBasedSkill, GoldMajorityVote, MMSR): every worker's skill, the
// probability acc_w that the worker reports the class the vote takes as
// true, and optionally one more number per worker that the vote estimated
// (MMSR's signed skill). Result.WorkerSkills returns acc (as Crowd-Kit's
// skills_ for Wawa, ZeroBasedSkill and GoldMajorityVote), and the
// conditional distributions are those of the one-coin model with these
// accuracies, P(y = z | z) = acc_w and (1 − acc_w)/(K − 1) for each other
// class, which the votes' weights assume.
type View struct {
	// K is the number of classes.
	K int
	// Acc holds every worker's skill.
	Acc []float64
	// Col names Own, or is empty when the vote reports no number of
	// its own.
	Col string
	// Own holds the vote's own number of every worker, if Col is set.
	Own []float64
}

// Skills returns a copy of the vote's skills.
func (v *View) Skills() []float64 { return slices.Clone(v.Acc) }

// Conditional writes the one-coin distribution of worker w.
func (v *View) Conditional(w int32, _ int, z int, p []float64) {
	a := v.Acc[w]
	for y := range p[:v.K] {
		p[y] = (1 - a) / float64(v.K-1)
	}
	p[z] = a
}

// WorkerColumns names the vote's own worker numbers, if any.
func (v *View) WorkerColumns() []string {
	if v.Col == "" {
		return nil
	}
	return []string{v.Col}
}

// WorkerValues appends worker w's own number, if any.
func (v *View) WorkerValues(w int, dst []float64) []float64 {
	if v.Col == "" {
		return dst
	}
	return append(dst, v.Own[w])
}

// WorkerAccuracy returns, for every worker w of d, the fraction of its
// labels on objects with a reference class (ref[j] ≥ 0) that equal that
// class, and the number n_w of such labels. A worker with n_w = 0 gets
// accuracy 0 (callers that need another default check n).
func WorkerAccuracy(d *data.Dataset, ref []int) (acc, n []float64) {
	acc = make([]float64, d.NumWorkers())
	n = make([]float64, d.NumWorkers())
	for j := range d.Tasks {
		t := ref[j]
		if t < 0 {
			continue
		}
		ws, ys := d.TaskLabels(j)
		for i, w := range ws {
			n[w]++
			if int(ys[i]) == t {
				acc[w]++
			}
		}
	}
	for w := range acc {
		if n[w] > 0 {
			acc[w] /= n[w]
		}
	}
	return acc, n
}

// Weighted returns the J×K matrix of skill-weighted votes of d, row j
// being P_j(z) = Σ_{i ∈ j} s_w(i) 1[y_i = z] / Σ_{i ∈ j} s_w(i); a row whose
// weights sum to zero is uniform.
func Weighted(d *data.Dataset, skill []float64) []float64 {
	k := d.NumClasses()
	p := make([]float64, d.NumTasks()*k)
	v := Skills{d, skill}
	for j := range d.Tasks {
		v.Row(j, p[j*k:(j+1)*k])
	}
	return p
}

// Skills is Weighted's distributions as data.TaskWeights, one task
// at a time: for a loop that needs one row at a time (ZeroBasedSkill's
// argmax), without the J×K matrix.
type Skills struct {
	// D is the data set.
	D *data.Dataset
	// Skill holds every worker's skill.
	Skill []float64
}

// Row writes task j's weighted vote into buf (K values) and returns it.
func (v Skills) Row(j int, buf []float64) []float64 {
	k := len(buf)
	clear(buf)
	ws, ys := v.D.TaskLabels(j)
	var sum float64
	for i, w := range ws {
		buf[ys[i]] += v.Skill[w]
		sum += v.Skill[w]
	}
	for z := range buf {
		if sum > 0 {
			buf[z] /= sum
		} else {
			buf[z] = 1 / float64(k)
		}
	}
	return buf
}

// FirstArgmax returns the index of the largest entry of every K-long row
// of p, the first one in case of exact ties: the choice of Crowd-Kit's
// votes (pandas idxmax over the sorted classes), which the estimators that
// reproduce Crowd-Kit use inside their iterations.
func FirstArgmax(p []float64, k int) []int {
	return FirstArgmaxRows(data.DenseWeights{K: k, W: p}, len(p)/k, k)
}

// FirstArgmaxRows is FirstArgmax on the n rows of w, read one at a time.
func FirstArgmaxRows(w data.TaskWeights, n, k int) []int {
	out := make([]int, n)
	buf := make([]float64, k)
	for j := range out {
		row := w.Row(j, buf)
		for z, v := range row {
			if v > row[out[j]] {
				out[j] = z
			}
		}
	}
	return out
}
