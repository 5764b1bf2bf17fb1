package data

import "slices"

// Crossed reports whether some task of d has labels of two workers: only
// then can labels tell a worker's accuracy from the prior's.
func (d *Dataset) Crossed() bool {
	for j := range d.NumTasks() {
		workers, _ := d.TaskLabels(j)
		for _, w := range workers[min(1, len(workers)):] {
			if w != workers[0] {
				return true
			}
		}
	}
	return false
}

// Tripled reports whether at least half of d's labels are on tasks with
// labels of three or more workers. Tasks of one or two workers give only
// the frequencies of label pairs, which do not identify a crowd's pattern
// of confusion at K = 2.
func (d *Dataset) Tripled() bool {
	var on int
	for j := range d.NumTasks() {
		workers, _ := d.TaskLabels(j)
		if distinct3(workers) {
			on += len(workers)
		}
	}
	return 2*on >= d.NumLabels()
}

// distinct3 reports whether workers holds at least three different
// workers.
func distinct3(workers []int32) bool {
	var seen [2]int32
	n := 0
	for _, w := range workers {
		if !slices.Contains(seen[:n], w) {
			if n == 2 {
				return true
			}
			seen[n] = w
			n++
		}
	}
	return false
}

// UpperMedianWorkerLabels returns the median number of labels of d's
// workers with any, the upper of the two middle values for an even count
// (Stats.MedianLabelsPerWorker takes their mean), or 0 for none.
func (d *Dataset) UpperMedianWorkerLabels() int {
	n := make([]int, d.NumWorkers())
	for _, w := range d.Worker {
		n[w]++
	}
	return upperMedian(slices.DeleteFunc(n, func(c int) bool { return c == 0 }))
}

// UpperMedianTaskLabels returns the median number of labels of d's tasks,
// the upper of the two middle values for an even count, or 0 for none.
func (d *Dataset) UpperMedianTaskLabels() int {
	n := make([]int, d.NumTasks())
	for j := range n {
		n[j] = d.Offsets[j+1] - d.Offsets[j]
	}
	return upperMedian(n)
}

// upperMedian sorts n and returns its middle value (the upper of the two
// middle ones of an even count), or 0 for none.
func upperMedian(n []int) int {
	if len(n) == 0 {
		return 0
	}
	slices.Sort(n)
	return n[len(n)/2]
}
