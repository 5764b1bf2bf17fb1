package data

import (
	"errors"
	"fmt"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// MaxClasses is the largest number of classes a Dataset can hold: class
// indices are stored as uint16.
const MaxClasses = ingest.MaxClasses

// Dataset is a set of noisy labels in index form, grouped by task.
//
// The labels of task j are Worker[Offsets[j]:Offsets[j+1]] (who gave them) and
// Label[Offsets[j]:Offsets[j+1]] (the class index each of them chose).
type Dataset struct {
	// Name is a short name for reports; it may be empty.
	Name string

	// Tasks, Workers and Classes map dense indices to the identifiers
	// found in the input.
	Tasks   []string
	Workers []string
	Classes []string

	// Offsets has len(Tasks)+1 entries; Offsets[0] = 0 and
	// Offsets[len(Tasks)] = len(Label).
	Offsets []int
	// Worker holds the worker index of each label.
	Worker []int32
	// Label holds the class index of each label.
	Label []uint16
}

// NumTasks returns the number of tasks (objects), J.
func (d *Dataset) NumTasks() int { return len(d.Tasks) }

// NumWorkers returns the number of workers, W.
func (d *Dataset) NumWorkers() int { return len(d.Workers) }

// NumClasses returns the number of classes, K.
func (d *Dataset) NumClasses() int { return len(d.Classes) }

// NumLabels returns the number of noisy labels.
func (d *Dataset) NumLabels() int { return len(d.Label) }

// TaskLabels returns the workers and class indices of the labels of task j.
// The returned slices alias the Dataset and must not be modified.
func (d *Dataset) TaskLabels(j int) (workers []int32, labels []uint16) {
	lo, hi := d.Offsets[j], d.Offsets[j+1]
	return d.Worker[lo:hi], d.Label[lo:hi]
}

// LabelsByWorker returns the indices into Worker and Label of every
// worker's labels, in the order of the labels.
func (d *Dataset) LabelsByWorker() [][]int32 {
	n := make([]int, d.NumWorkers())
	for _, w := range d.Worker {
		n[w]++
	}
	out := make([][]int32, d.NumWorkers())
	for w := range out {
		out[w] = make([]int32, 0, n[w])
	}
	for i, w := range d.Worker {
		out[w] = append(out[w], int32(i))
	}
	return out
}

// Counts returns the J×K matrix of label counts, row-major: Counts()[j*K+k]
// is the number of labels of class k given to task j.
func (d *Dataset) Counts() []float64 {
	k := d.NumClasses()
	c := make([]float64, d.NumTasks()*k)
	for j := range d.Tasks {
		d.TaskCounts(j, c[j*k:(j+1)*k])
	}
	return c
}

// TaskCounts writes the label counts of task j into row, which must have
// length K: row[k] is the number of labels of class k given to task j.
func (d *Dataset) TaskCounts(j int, row []float64) {
	clear(row)
	for _, y := range d.Label[d.Offsets[j]:d.Offsets[j+1]] {
		row[y]++
	}
}

// Frequencies returns the J×K matrix of relative label frequencies, the
// relative frequency estimate (RFE) of the paper's section 6:
//
//	q_j(k) = |{labels of task j equal to k}| / |labels of task j|.
//
// A task without labels gets the uniform distribution 1/K.
func (d *Dataset) Frequencies() []float64 {
	k := d.NumClasses()
	f := make([]float64, d.NumTasks()*k)
	for j := range d.Tasks {
		d.frequencyRow(j, f[j*k:(j+1)*k])
	}
	return f
}

// ClassIndex returns the index of the class with the given name, or -1.
func (d *Dataset) ClassIndex(name string) int {
	for i, c := range d.Classes {
		if c == name {
			return i
		}
	}
	return -1
}

// Validate checks the internal consistency of d: offsets, index ranges and
// the number of classes. It returns a descriptive error for the first
// problem found.
func (d *Dataset) Validate() error {
	if len(d.Classes) == 0 {
		return errors.New("data: no classes")
	}
	if len(d.Classes) > MaxClasses {
		return fmt.Errorf("data: %d classes, at most %d supported", len(d.Classes), MaxClasses)
	}
	if len(d.Offsets) != len(d.Tasks)+1 || d.Offsets[0] != 0 || d.Offsets[len(d.Tasks)] != len(d.Label) {
		return errors.New("data: offsets do not match tasks and labels")
	}
	if len(d.Worker) != len(d.Label) {
		return errors.New("data: worker and label slices differ in length")
	}
	for j := 0; j < len(d.Tasks); j++ {
		if d.Offsets[j+1] < d.Offsets[j] {
			return fmt.Errorf("data: offsets decrease at task %d", j)
		}
	}
	w := int32(len(d.Workers))
	k := uint16(len(d.Classes) - 1)
	for i := range d.Label {
		if d.Worker[i] < 0 || d.Worker[i] >= w {
			return fmt.Errorf("data: label %d has worker index %d out of range", i, d.Worker[i])
		}
		if d.Label[i] > k {
			return fmt.Errorf("data: label %d has class index %d out of range", i, d.Label[i])
		}
	}
	return nil
}

// FromIndices builds a Dataset from parallel slices of task, worker and class
// indices, in any order; labels are grouped by task, keeping their relative
// order. The identifier slices give the names of the indices. It is the
// constructor for simulated data.
func FromIndices(tasks, workers, classes []string, task, worker []int32, label []uint16) (*Dataset, error) {
	if len(task) != len(worker) || len(task) != len(label) {
		return nil, errors.New("data: task, worker and label slices differ in length")
	}
	return fromLabels(ingest.FromChunks(tasks, workers, classes, [][]int32{task}, [][]int32{worker}, [][]uint16{label}, nil))
}

// Gold holds known true classes for a subset of the tasks of a Dataset.
type Gold struct {
	// Task and Label are parallel: task index Task[i] has true class Label[i].
	Task  []int32
	Label []uint16
	// Unmatched counts gold rows whose task has no noisy labels in the
	// Dataset; they are left out of Task and Label.
	Unmatched int
	// UnmatchedTasks lists the first few unmatched task identifiers, for
	// messages.
	UnmatchedTasks []string
}

// Len returns the number of gold tasks that occur in the Dataset.
func (g *Gold) Len() int { return len(g.Task) }
