package output

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/metrics"
)

// AlphaUndefined says why Krippendorff's alpha of d is undefined (NaN):
// no task has two labels to compare, or the labels of those that have are
// all of one class, so that there is no disagreement to expect. Of a nil
// d it says that there is no data set.
func AlphaUndefined(d *data.Dataset) string {
	if d == nil {
		return "no data set"
	}
	for j := range d.Tasks {
		if _, ys := d.TaskLabels(j); len(ys) >= 2 {
			return "the labels of the tasks with two or more labels are all of one class"
		}
	}
	return "no task has two labels to compare"
}

// Agreement holds the statistics of consensus agreement.
type Agreement struct {
	// Alpha is Krippendorff's alpha of the labels (metrics.KrippendorffAlpha),
	// NaN where it is undefined (see AlphaUndefined).
	Alpha float64
	// MeanEntropy is the mean over the tasks of the entropy of their labels
	// (metrics.TaskEntropy).
	MeanEntropy float64
	// Agreement is the share of the labels equal to their task's consensus
	// class.
	Agreement float64
	// Consistency is the mean over the tasks of metrics.Consistency.
	Consistency float64
	// Tasks has a row per task: its number of labels, consensus class,
	// entropy, entropy over log K, share of labels equal to the consensus
	// and consistency. Workers has a row per worker: its number of labels,
	// agreement with the consensus and entropy (metrics.WorkerEntropy).
	Tasks, Workers *Table
}

// AgreementStats computes the agreement statistics of d against the
// consensus classes labels, with the per-task and per-worker tables. It
// returns an error wrapping metrics.ErrArgument if d is nil, and one
// wrapping metrics.ErrShape if labels does not have one class of d per
// task; a negative class (no consensus) is an error too, as the tables
// name every task's class.
func AgreementStats(d *data.Dataset, labels []int) (Agreement, error) {
	a, n, err := metrics.WorkerAgreement(d, labels)
	if err != nil {
		return Agreement{}, err
	}
	if j := slices.IndexFunc(labels, func(c int) bool { return c < 0 }); j >= 0 {
		return Agreement{}, fmt.Errorf("%w: task %d has no consensus class", metrics.ErrShape, j)
	}
	cons, err := metrics.Consistency(d, labels, a)
	if err != nil {
		return Agreement{}, err
	}
	num := FormatProb
	alpha, _ := metrics.KrippendorffAlpha(d)
	st := Agreement{Alpha: alpha}
	h, _ := metrics.TaskEntropy(d)
	lnK := math.Log(float64(d.NumClasses()))
	st.Tasks = &Table{
		Columns: []string{"task", "labels", "label", "entropy", "normalized_entropy", "agreement", "consistency"},
		Numeric: []bool{false, true, false, true, true, true, true},
	}
	var sumH, agreeing, sumC float64
	for j, task := range d.Tasks {
		_, ys := d.TaskLabels(j)
		same := 0
		for _, y := range ys {
			if int(y) == labels[j] {
				same++
			}
		}
		agreeing += float64(same)
		sumH += h[j]
		sumC += cons[j]
		st.Tasks.Rows = append(st.Tasks.Rows, []string{task, strconv.Itoa(len(ys)), d.Classes[labels[j]],
			num(h[j]), num(h[j] / lnK), num(float64(same) / float64(len(ys))), num(cons[j])})
	}
	st.MeanEntropy = sumH / float64(d.NumTasks())
	st.Agreement = agreeing / float64(d.NumLabels())
	st.Consistency = sumC / float64(d.NumTasks())
	hw, _ := metrics.WorkerEntropy(d)
	st.Workers = &Table{Columns: []string{"worker", "labels", "agreement", "entropy"}, Numeric: []bool{false, true, true, true}}
	for w, name := range d.Workers {
		st.Workers.Rows = append(st.Workers.Rows, []string{name, strconv.Itoa(n[w]), num(a[w]), num(hw[w])})
	}
	return st, nil
}
