package unvoted

import "github.com/consensuslab/consensus/data"

// Class is a class that a consensus makes the label of many more tasks
// than the labels support, mostly on tasks where no worker gave it.
type Class struct {
	// Class indexes the class (data.Dataset.Classes).
	Class int
	// Tasks is the number of tasks whose consensus label (the largest
	// probability) is the class, and Share their share of the tasks.
	Tasks int
	Share float64
	// Unvoted is the share of those tasks on which no label is the class.
	Unvoted float64
	// Labels is the class's share of all the labels.
	Labels float64
}

// The bars of Classes: a class is reported when it is the consensus of at
// least MinShare of the tasks and more than Ratio times its share of the
// labels, and more than Most of those tasks have no label of the class.
const (
	MinShare = 0.01
	Ratio    = 3
	Most     = 0.5
)

// Classes returns the classes that the consensus probs (J×K, the largest
// of a row its label) of the tasks of d makes the label of a share of the
// tasks at least MinShare and more than Ratio times their share of the
// labels, on tasks more than Most of which have no label of the class, in
// the order of the classes; nil if probs is not J×K.
func Classes(d *data.Dataset, probs []float64) []Class {
	if d == nil || len(probs) != d.NumTasks()*d.NumClasses() {
		return nil
	}
	k := d.NumClasses()
	labels := make([]int, k)  // labels of each class
	tasks := make([]int, k)   // tasks whose consensus is the class
	unvoted := make([]int, k) // those without a label of the class
	for j := range d.NumTasks() {
		_, ls := d.TaskLabels(j)
		top := 0
		row := probs[j*k : (j+1)*k]
		for z, p := range row {
			if p > row[top] {
				top = z
			}
		}
		voted := false
		for _, y := range ls {
			labels[y]++
			voted = voted || int(y) == top
		}
		tasks[top]++
		if !voted {
			unvoted[top]++
		}
	}
	var out []Class
	nl, nt := float64(d.NumLabels()), float64(d.NumTasks())
	for z := range k {
		c := Class{Class: z, Tasks: tasks[z], Share: float64(tasks[z]) / nt, Labels: float64(labels[z]) / nl}
		if tasks[z] > 0 {
			c.Unvoted = float64(unvoted[z]) / float64(tasks[z])
		}
		if c.Share >= MinShare && c.Share > Ratio*c.Labels && c.Unvoted > Most {
			out = append(out, c)
		}
	}
	return out
}
