package compare

import (
	"fmt"
	"io"

	"github.com/consensuslab/consensus/model"
)

// UnvotedClass is a class that a fit makes the consensus label of many
// more tasks than the labels support, mostly on tasks where no worker gave
// it (UnvotedClasses).
type UnvotedClass struct {
	// Class indexes the class (data.Dataset.Classes).
	Class int
	// Tasks is the number of tasks whose consensus label (the largest
	// output probability) is the class, and Share their share of the
	// tasks.
	Tasks int
	Share float64
	// Unvoted is the share of those tasks on which no label is the class.
	Unvoted float64
	// Labels is the class's share of all the labels.
	Labels float64
}

// The bars of UnvotedClasses: a class is reported when it is the consensus
// of at least unvotedMinShare of the tasks and more than unvotedRatio
// times its share of the labels, and more than unvotedMost of those tasks
// have no label of the class.
const (
	unvotedMinShare = 0.01
	unvotedRatio    = 3
	unvotedMost     = 0.5
)

// UnvotedClasses returns the classes that the fit r makes the consensus of
// a share of the tasks at least 1% and more than 3 times their share of
// the labels, on tasks most of which have no label of the class. A latent
// class model may use a class that workers seldom give for a group of
// tasks they label otherwise: a subtype of another class that some workers
// call one thing and others another, or the tasks the crowd disputes. On
// a public set of 216,725 labels of 3 classes (fact evaluation, not
// shipped), 0.14% of the labels are class 2, but the default makes it the
// consensus of 12.4% of the tasks, with every busy worker's P(2 | 2)
// below 10⁻⁴; majority vote scores 0.902 on its gold tasks and the
// default 0.847. On a simulated crowd whose third class is seldom given
// and whose subtype of class 1 three workers of every task call class 0
// (TestUnvotedClasses), the default makes class 2 the consensus of 38% of
// the tasks and scores 0.431, majority vote 0.780. Nothing is reported for
// a result without probabilities; on the shipped data sets, the simulated
// regimes and 14 other public sets, nothing is reported for the default.
func UnvotedClasses(r *model.Result) []UnvotedClass {
	if r == nil || r.Data == nil || len(r.Probs) != r.Data.NumTasks()*r.Data.NumClasses() {
		return nil
	}
	d := r.Data
	k := d.NumClasses()
	labels := make([]int, k)  // labels of each class
	tasks := make([]int, k)   // tasks whose consensus is the class
	unvoted := make([]int, k) // those without a label of the class
	for j := range d.NumTasks() {
		_, ls := d.TaskLabels(j)
		top := 0
		row := r.Probs[j*k : (j+1)*k]
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
	var out []UnvotedClass
	nl, nt := float64(d.NumLabels()), float64(d.NumTasks())
	for z := range k {
		c := UnvotedClass{Class: z, Tasks: tasks[z], Share: float64(tasks[z]) / nt, Labels: float64(labels[z]) / nl}
		if tasks[z] > 0 {
			c.Unvoted = float64(unvoted[z]) / float64(tasks[z])
		}
		if c.Share >= unvotedMinShare && c.Share > unvotedRatio*c.Labels && c.Unvoted > unvotedMost {
			out = append(out, c)
		}
	}
	return out
}

// WriteUnvotedClasses writes to w a line for each class UnvotedClasses
// reports for the fit r, and returns w's first write error.
func WriteUnvotedClasses(w io.Writer, r *model.Result) error {
	for _, c := range UnvotedClasses(r) {
		if _, err := fmt.Fprintf(w, "unvoted class: class %s is the consensus of %.1f%% of the tasks (%d), %.0f%% of them without a label %s, where %.2f%% of the labels are %s: the fit may use it for tasks that workers label otherwise; compare --model mv or gold labels\n",
			r.Data.Classes[c.Class], 100*c.Share, c.Tasks, 100*c.Unvoted, r.Data.Classes[c.Class], 100*c.Labels, r.Data.Classes[c.Class]); err != nil {
			return err
		}
	}
	return nil
}
