package metrics

import (
	"math"

	"github.com/consensuslab/consensus/data"
)

// KrippendorffAlpha returns Krippendorff's alpha for nominal data, the
// chance-corrected agreement of the labels of d: tasks are the units,
// workers the coders and labels the values. Every label is one value (two
// labels of one worker on one task are two values of the unit).
//
// Units with fewer than two labels are not pairable and are left out.
// With n_uc the number of labels of class c on unit u, m_u = Σ_c n_uc
// its number of labels, n_c = Σ_u n_uc over the pairable units and
// n = Σ_c n_c, the observed and expected disagreements are
//
//	D_o = (1/n) Σ_u Σ_{c≠k} n_uc n_uk / (m_u − 1)
//	D_e = (1/(n(n−1))) Σ_{c≠k} n_c n_k
//
// and alpha = 1 − D_o/D_e: 1 for perfect agreement, 0 for agreement at
// chance level, negative below it. It is NaN when there are no pairable
// units or all their labels are of one class (D_e = 0).
//
// Reference: K. Krippendorff, Computing Krippendorff's Alpha-Reliability,
// 2011, section C (nominal data, any number of coders, missing values).
//
// KrippendorffAlpha returns an error wrapping ErrArgument if d is nil.
func KrippendorffAlpha(d *data.Dataset) (float64, error) {
	if d == nil {
		return 0, errNilData
	}
	return krippendorffAlpha(d), nil
}

// krippendorffAlpha is KrippendorffAlpha of a data set.
func krippendorffAlpha(d *data.Dataset) float64 {
	k := d.NumClasses()
	nc := make([]float64, k)
	cnt := make([]float64, k)
	var do float64 // n · D_o
	for j := range d.Tasks {
		_, labels := d.TaskLabels(j)
		m := float64(len(labels))
		if m < 2 {
			continue
		}
		clear(cnt)
		for _, y := range labels {
			cnt[y]++
		}
		// Σ_{c≠k} n_uc n_uk = m_u² − Σ_c n_uc².
		same := 0.0
		for c, v := range cnt {
			same += v * v
			nc[c] += v
		}
		do += (m*m - same) / (m - 1)
	}
	var n, same float64
	for _, v := range nc {
		n += v
		same += v * v
	}
	de := (n*n - same) / (n - 1) // n · D_e
	if n < 2 || de == 0 {
		return math.NaN()
	}
	return 1 - do/de
}

// TaskEntropy returns, for every task j of d, the entropy of its label
// frequencies f_j(z) = n_j(z)/n_j in nats,
//
//	H_j = −Σ_z f_j(z) ln f_j(z),
//
// with 0 ln 0 = 0: 0 when all labels agree, ln K when they are spread
// evenly over the K classes, NaN for a task without labels. It is
// Crowd-Kit's uncertainty (crowdkit.metrics.data.uncertainty) of the
// frequencies. TaskEntropy returns an error wrapping ErrArgument if d is
// nil.
func TaskEntropy(d *data.Dataset) ([]float64, error) {
	if d == nil {
		return nil, errNilData
	}
	return taskEntropy(d), nil
}

// taskEntropy is TaskEntropy of a data set.
func taskEntropy(d *data.Dataset) []float64 {
	k := d.NumClasses()
	h := make([]float64, d.NumTasks())
	cnt := make([]float64, k)
	for j := range d.Tasks {
		_, labels := d.TaskLabels(j)
		if len(labels) == 0 {
			h[j] = math.NaN()
			continue
		}
		clear(cnt)
		for _, y := range labels {
			cnt[y]++
		}
		n := float64(len(labels))
		for _, v := range cnt {
			if v > 0 {
				f := v / n
				h[j] -= f * math.Log(f)
			}
		}
	}
	return h
}

// WorkerEntropy returns, for every worker w of d, the entropy of the
// frequencies of the classes in the worker's labels in nats, as TaskEntropy
// does for a task: 0 for a worker who always gives one class, ln K for one
// who spreads its labels evenly, NaN for a worker without labels. It is
// Crowd-Kit's uncertainty with compute_by="worker" and equal skills.
// WorkerEntropy returns an error wrapping ErrArgument if d is nil.
func WorkerEntropy(d *data.Dataset) ([]float64, error) {
	if d == nil {
		return nil, errNilData
	}
	return workerEntropy(d), nil
}

// workerEntropy is WorkerEntropy of a data set.
func workerEntropy(d *data.Dataset) []float64 {
	k := d.NumClasses()
	cnt := make([]float64, d.NumWorkers()*k)
	n := make([]float64, d.NumWorkers())
	for i, w := range d.Worker {
		cnt[int(w)*k+int(d.Label[i])]++
		n[w]++
	}
	h := make([]float64, d.NumWorkers())
	for w := range h {
		if n[w] == 0 {
			h[w] = math.NaN()
			continue
		}
		for _, v := range cnt[w*k : (w+1)*k] {
			if v > 0 {
				f := v / n[w]
				h[w] -= f * math.Log(f)
			}
		}
	}
	return h
}

// WorkerAgreement returns, for every worker w of d, the fraction of the
// worker's labels that equal the consensus class of their task,
//
//	a_w = |{labels (j, y) of w : y = consensus[j]}| / n_w,
//
// and the worker's number of labels n_w; a_w is NaN for a worker without
// labels. consensus[j] is the consensus class index of task j, such as the
// argmax of a model's output (model.Result.Labels); a negative entry marks
// a task without consensus, whose labels count in neither the numerator
// nor n_w. It is Crowd-Kit's accuracy_on_aggregates for one worker.
//
// WorkerAgreement returns an error wrapping ErrArgument if d is nil, and
// one wrapping ErrShape if consensus does not have one class per task of
// d, each below d's number of classes.
func WorkerAgreement(d *data.Dataset, consensus []int) (agree []float64, n []int, err error) {
	if err := checkConsensus(d, consensus); err != nil {
		return nil, nil, err
	}
	agree, n = workerAgreement(d, consensus)
	return agree, n, nil
}

// errNilData is the error of a nil data set.
var errNilData = errorf(ErrArgument, "nil data set")

// checkConsensus returns an error wrapping ErrArgument if d is nil, and
// one wrapping ErrShape if consensus does not have one entry per task of
// d, each below d's number of classes (a negative entry: no consensus).
func checkConsensus(d *data.Dataset, consensus []int) error {
	if d == nil {
		return errNilData
	}
	if len(consensus) != d.NumTasks() {
		return errorf(ErrShape, "%d consensus classes for %d tasks", len(consensus), d.NumTasks())
	}
	for j, c := range consensus {
		if c >= d.NumClasses() {
			return errorf(ErrShape, "task %d: consensus class %d out of range [0, %d)", j, c, d.NumClasses())
		}
	}
	return nil
}

// workerAgreement is WorkerAgreement of checked arguments.
func workerAgreement(d *data.Dataset, consensus []int) (agree []float64, n []int) {
	agree = make([]float64, d.NumWorkers())
	n = make([]int, d.NumWorkers())
	for j := range d.Tasks {
		c := consensus[j]
		if c < 0 {
			continue
		}
		workers, labels := d.TaskLabels(j)
		for i, w := range workers {
			n[w]++
			if int(labels[i]) == c {
				agree[w]++
			}
		}
	}
	for w := range agree {
		agree[w] /= float64(n[w]) // 0/0 is NaN
	}
	return agree, n
}

// Consistency returns, for every task j of d, the posterior probability of
// its consensus class under the one-coin model with the worker skills s_w
// (the probability that worker w reports the true class, its errors spread
// evenly over the other classes) and a uniform prior over the L classes
// that occur among d's labels:
//
//	P_j(ℓ) ∝ Π_{i ∈ j} (s_w(i) if y_i = ℓ, else (1 − s_w(i))/(L − 1)),   c_j = P_j(consensus[j]).
//
// It is Crowd-Kit's consistency (crowdkit.metrics.data.consistency) per
// task, whose mean it reports, with the products taken in log space: where
// every product is 0 (a skill of 1 on every side) c_j is 0, as there, but
// a task with so many labels that Crowd-Kit's products underflow gets its
// posterior here. A task without labels, or a negative consensus, gives NaN;
// L = 1 gives 1.
//
// Consistency returns an error wrapping ErrArgument if d is nil, and one
// wrapping ErrShape if consensus does not have one class per task of d,
// each below d's number of classes, or skills one skill per worker.
func Consistency(d *data.Dataset, consensus []int, skills []float64) ([]float64, error) {
	if err := checkConsensus(d, consensus); err != nil {
		return nil, err
	}
	if len(skills) != d.NumWorkers() {
		return nil, errorf(ErrShape, "%d skills for %d workers", len(skills), d.NumWorkers())
	}
	return consistency(d, consensus, skills), nil
}

// consistency is Consistency of checked arguments.
func consistency(d *data.Dataset, consensus []int, skills []float64) []float64 {
	k := d.NumClasses()
	seen := make([]bool, k)
	for _, y := range d.Label {
		seen[y] = true
	}
	var classes []int
	for z, ok := range seen {
		if ok {
			classes = append(classes, z)
		}
	}
	l := float64(len(classes))
	c := make([]float64, d.NumTasks())
	logp := make([]float64, k)
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		if len(labels) == 0 || consensus[j] < 0 {
			c[j] = math.NaN()
			continue
		}
		if len(classes) == 1 {
			c[j] = 1
			if consensus[j] != classes[0] {
				c[j] = 0
			}
			continue
		}
		clear(logp)
		for i, w := range workers {
			s := skills[w]
			right, wrong := math.Log(s), math.Log((1-s)/(l-1))
			for _, z := range classes {
				if int(labels[i]) == z {
					logp[z] += right
				} else {
					logp[z] += wrong
				}
			}
		}
		top := math.Inf(-1)
		for _, z := range classes {
			top = max(top, logp[z])
		}
		if math.IsInf(top, -1) || !seen[consensus[j]] {
			continue // every product 0, or a class no label names: 0
		}
		var sum float64
		for _, z := range classes {
			sum += math.Exp(logp[z] - top)
		}
		c[j] = math.Exp(logp[consensus[j]]-top) / sum
	}
	return c
}
