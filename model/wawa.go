package model

import (
	"context"
	"time"

	"github.com/consensuslab/consensus/data"
)

// Wawa is Worker Agreement With Aggregate, the heuristic of Crowd-Kit's
// Wawa aggregator (Ustalov et al., "Learning from Crowds with Crowd-Kit",
// 2021). It takes three steps:
//
//  1. the majority vote m_j of every object j, exact ties going to the
//     first class in the order of d.Classes, as in Crowd-Kit;
//  2. the skill of every worker, the fraction of its labels that agree
//     with the majority vote, s_w = |{i of w : y_i = m_j(i)}| / |{i of w}|;
//  3. the skill-weighted vote, P_j(z) = Σ_{i ∈ j} s_w(i) 1[y_i = z] /
//     Σ_{i ∈ j} s_w(i).
//
// The consensus distribution is the weighted vote of step 3, as Crowd-Kit's
// predict_proba; an object whose workers all have skill zero gets the
// uniform distribution. Every label counts, including repeated labels of
// one worker on one object (Crowd-Kit counts a repeated identical label
// once when computing skills).
//
// Wawa has no settings; its zero value is ready to use.
type Wawa struct{}

// Name returns "wawa".
func (Wawa) Name() string { return "wawa" }

// Fit returns the skill-weighted vote of d. It takes no settings.
func (e Wawa) Fit(ctx context.Context, d *data.Dataset, _ *Settings) (*Result, error) {
	if err := checkFit(ctx, d); err != nil {
		return nil, err
	}
	start := time.Now()
	mv := firstArgmaxRows(d.FrequencyWeights(), d.NumTasks(), d.NumClasses())
	skill, _ := workerAccuracy(d, mv)
	return withSkills(closedForm(e.Name(), d, weightedVote(d, skill), start), skill), nil
}

// NumParams returns the number of fitted parameters on d: one skill per
// worker (Parametric). Result.WorkerSkills reports them.
func (Wawa) NumParams(d *data.Dataset) int { return voteParams(d) }

// closedForm returns the Result of an estimator without iterations or
// parameters that took the time since start.
func closedForm(name string, d *data.Dataset, probs []float64, start time.Time) *Result {
	return &Result{
		Model:     name,
		Data:      d,
		Probs:     probs,
		Method:    "closed form",
		Status:    "closed form",
		Converged: true,
		Runtime:   time.Since(start),
	}
}

// workerAccuracy returns, for every worker w of d, the fraction of its
// labels on objects with a reference class (ref[j] ≥ 0) that equal that
// class, and the number n_w of such labels. A worker with n_w = 0 gets
// accuracy 0 (callers that need another default check n).
func workerAccuracy(d *data.Dataset, ref []int) (acc, n []float64) {
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

// weightedVote returns the J×K matrix of skill-weighted votes of d, row j
// being P_j(z) = Σ_{i ∈ j} s_w(i) 1[y_i = z] / Σ_{i ∈ j} s_w(i); a row whose
// weights sum to zero is uniform.
func weightedVote(d *data.Dataset, skill []float64) []float64 {
	k := d.NumClasses()
	p := make([]float64, d.NumTasks()*k)
	v := skillVotes{d, skill}
	for j := range d.Tasks {
		v.Row(j, p[j*k:(j+1)*k])
	}
	return p
}

// skillVotes is weightedVote's distributions as data.TaskWeights, one task
// at a time: for a loop that needs one row at a time (ZeroBasedSkill's
// argmax), without the J×K matrix.
type skillVotes struct {
	d     *data.Dataset
	skill []float64
}

// Row writes task j's weighted vote into buf (K values) and returns it.
func (v skillVotes) Row(j int, buf []float64) []float64 {
	k := len(buf)
	clear(buf)
	ws, ys := v.d.TaskLabels(j)
	var sum float64
	for i, w := range ws {
		buf[ys[i]] += v.skill[w]
		sum += v.skill[w]
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

// firstArgmax returns the index of the largest entry of every K-long row
// of p, the first one in case of exact ties: the choice of Crowd-Kit's
// votes (pandas idxmax over the sorted classes), which the estimators that
// reproduce Crowd-Kit use inside their iterations.
func firstArgmax(p []float64, k int) []int {
	return firstArgmaxRows(data.DenseWeights{K: k, W: p}, len(p)/k, k)
}

// firstArgmaxRows is firstArgmax on the n rows of w, read one at a time.
func firstArgmaxRows(w data.TaskWeights, n, k int) []int {
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
