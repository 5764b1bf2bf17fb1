package data

import (
	"slices"
)

// Stats summarises the size and shape of a Dataset, as in a table of data
// set statistics.
type Stats struct {
	// Classes, Tasks, Workers and Labels are the numbers of classes (K),
	// tasks (objects), workers and noisy labels.
	Classes, Tasks, Workers, Labels int

	// LabelsPerTask is the mean number of labels per task, and
	// MinLabelsPerTask and MaxLabelsPerTask are the smallest and largest
	// number of labels of any task.
	LabelsPerTask                      float64
	MinLabelsPerTask, MaxLabelsPerTask int

	// LabelsPerWorker and MedianLabelsPerWorker are the mean and the
	// median number of labels per worker. The median of an even number of
	// workers is the mean of the two middle values.
	LabelsPerWorker, MedianLabelsPerWorker float64

	// DuplicatePairs is the number of (task, worker) pairs that occur more
	// than once. DuplicateLabels is the number of labels beyond the first
	// of each such pair, and ConflictingPairs the number of such pairs
	// whose labels are not all the same.
	DuplicatePairs, DuplicateLabels, ConflictingPairs int
}

// Stats computes the statistics of d. The means and the median are 0 when
// there are no tasks or no workers.
func (d *Dataset) Stats() Stats {
	s := Stats{
		Classes: d.NumClasses(),
		Tasks:   d.NumTasks(),
		Workers: d.NumWorkers(),
		Labels:  d.NumLabels(),
	}
	if s.Tasks > 0 {
		s.LabelsPerTask = float64(s.Labels) / float64(s.Tasks)
		s.MinLabelsPerTask = s.Labels
	}
	if s.Workers > 0 {
		s.LabelsPerWorker = float64(s.Labels) / float64(s.Workers)
	}

	perWorker := make([]int, s.Workers)
	var pairs []uint64 // worker<<16 | label of one task, sorted
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		n := len(workers)
		s.MinLabelsPerTask = min(s.MinLabelsPerTask, n)
		s.MaxLabelsPerTask = max(s.MaxLabelsPerTask, n)
		pairs = pairs[:0]
		for i, w := range workers {
			perWorker[w]++
			pairs = append(pairs, uint64(w)<<16|uint64(labels[i]))
		}
		slices.Sort(pairs)
		for lo := 0; lo < len(pairs); {
			hi := lo + 1
			for hi < len(pairs) && pairs[hi]>>16 == pairs[lo]>>16 {
				hi++
			}
			if hi-lo > 1 {
				s.DuplicatePairs++
				s.DuplicateLabels += hi - lo - 1
				if pairs[hi-1] != pairs[lo] {
					s.ConflictingPairs++
				}
			}
			lo = hi
		}
	}
	if n := len(perWorker); n > 0 {
		slices.Sort(perWorker)
		if n%2 == 1 {
			s.MedianLabelsPerWorker = float64(perWorker[n/2])
		} else {
			s.MedianLabelsPerWorker = float64(perWorker[n/2-1]+perWorker[n/2]) / 2
		}
	}
	return s
}
