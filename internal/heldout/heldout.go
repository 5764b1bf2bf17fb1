package heldout

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// Label is a label left out of a training split: worker Worker gave task
// Task the class Label.
type Label struct {
	Task   int
	Worker int32
	Label  uint16
}

// Split returns a training data set with a fraction frac (in [0, 1]) of
// every task's labels held out, and the held-out labels. A task with
// n ≥ 2 labels loses min(n − 1, h) of them, h = ⌊frac·n⌋ or that plus one
// with probability frac·n − ⌊frac·n⌋ (on average frac·n), chosen uniformly
// at random by a PCG generator seeded with (seed, split); a task with one
// label keeps it. The training set has the same tasks, workers and classes
// (and indices) as d; a worker may have no training labels left.
func Split(d *data.Dataset, frac float64, seed uint64, split int) (*data.Dataset, []Label) {
	rng := rand.New(rand.NewPCG(seed, 0x5911+uint64(split)))
	tr := &data.Dataset{Name: d.Name, Tasks: d.Tasks, Workers: d.Workers, Classes: d.Classes, Offsets: make([]int, d.NumTasks()+1)}
	var held []Label
	var idx []int
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		n := len(labels)
		h := 0
		if n >= 2 {
			// frac·n rounded up with probability its fractional part.
			f := frac * float64(n)
			h = int(f)
			if rng.Float64() < f-float64(h) {
				h++
			}
			h = min(n-1, h)
		}
		idx = idx[:0]
		for i := range n {
			idx = append(idx, i)
		}
		rng.Shuffle(n, func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		out := make(map[int]bool, h)
		for _, i := range idx[:h] {
			out[i] = true
		}
		for i := range n {
			if out[i] {
				held = append(held, Label{Task: j, Worker: workers[i], Label: labels[i]})
			} else {
				tr.Worker = append(tr.Worker, workers[i])
				tr.Label = append(tr.Label, labels[i])
			}
		}
		tr.Offsets[j+1] = len(tr.Label)
	}
	return tr, held
}

// LogLik returns, for every task, the sum over its held-out labels of
// log_K P(y) under the result r fitted to train, and the number of
// held-out labels per task. A held-out label y of worker w on task j is
// predicted by r's predictive distribution of a new label,
//
//	P(y | rest) = Σ_z out_j(z) P(y | z; w, j),
//
// with out_j the result's consensus (r.Dist) and P(y | z) its fitted
// workers (r.Conditional); a worker with no training labels is replaced
// by the mean conditional of the task's training workers. A baseline
// consensus (the add-one smoothed frequencies) predicts y by out_j(y).
// The caller checks that r was fitted to train and that held names its
// tasks, workers and classes.
func LogLik(r *model.Result, train *data.Dataset, held []Label) (sum []float64, n []float64) {
	k := train.NumClasses()
	logK := math.Log(float64(k))
	sum = make([]float64, train.NumTasks())
	n = make([]float64, train.NumTasks())
	cond := r.Conditional
	if c := r.Consensus(); c.Baseline() { // the add-one smoothed frequencies
		p := c.Scored()
		for _, h := range held {
			sum[h.Task] += math.Log(p[h.Task*k+int(h.Label)]) / logK
			n[h.Task]++
		}
		return sum, n
	}
	seen := make([]bool, train.NumWorkers())
	for _, w := range train.Worker {
		seen[w] = true
	}
	p := make([]float64, k)
	acc := make([]float64, k)
	for _, h := range held {
		out := r.Dist(h.Task)
		var pr float64
		for z, oz := range out {
			if oz == 0 {
				continue
			}
			if seen[h.Worker] {
				cond(h.Worker, h.Task, z, p)
				pr += oz * p[h.Label]
				continue
			}
			// Unseen worker: the mean conditional of the task's
			// training workers.
			workers, _ := train.TaskLabels(h.Task)
			clear(acc)
			for _, w := range workers {
				cond(w, h.Task, z, p)
				acc[h.Label] += p[h.Label]
			}
			pr += oz * acc[h.Label] / float64(len(workers))
		}
		sum[h.Task] += math.Log(pr) / logK
		n[h.Task]++
	}
	return sum, n
}

// Subsample returns a data set with the labels of a random subset of d's
// tasks, drawn with seed, about maxLabels labels in all (Picked): the tasks
// are taken in a random order until their labels reach maxLabels, and kept
// in their order in d. Workers and classes are d's (with their indices);
// some workers may have no labels.
func Subsample(d *data.Dataset, maxLabels int, seed uint64) *data.Dataset {
	return Tasks(d, Picked(d, maxLabels, seed))
}

// Tasks returns a data set with the labels of d's tasks picked (indices in
// increasing order), with d's workers and classes.
func Tasks(d *data.Dataset, picked []int) *data.Dataset {
	n := 0
	for _, j := range picked {
		n += d.Offsets[j+1] - d.Offsets[j]
	}
	sub := &data.Dataset{Name: d.Name, Workers: d.Workers, Classes: d.Classes, Offsets: make([]int, 1, len(picked)+1)}
	sub.Tasks = make([]string, 0, len(picked))
	sub.Worker = make([]int32, 0, n)
	sub.Label = make([]uint16, 0, n)
	for _, j := range picked {
		w, l := d.TaskLabels(j)
		sub.Tasks = append(sub.Tasks, d.Tasks[j])
		sub.Worker = append(sub.Worker, w...)
		sub.Label = append(sub.Label, l...)
		sub.Offsets = append(sub.Offsets, len(sub.Label))
	}
	return sub
}

// Picked returns the indices in d, in increasing order, of the tasks of
// Subsample(d, maxLabels, seed).
func Picked(d *data.Dataset, maxLabels int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0xa070))
	perm := rng.Perm(d.NumTasks())
	var picked []int
	n := 0
	for _, j := range perm {
		if n >= maxLabels {
			break
		}
		picked = append(picked, j)
		n += d.Offsets[j+1] - d.Offsets[j]
	}
	slices.Sort(picked)
	return picked
}
