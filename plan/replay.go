package plan

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// The strategies Replay compares.
const (
	// Planned spends every batch on the tasks Next chooses.
	Planned = "planner"
	// Uniform spends every batch in turn: the tasks with the fewest
	// labels revealed first, in task order (round-robin).
	Uniform = "uniform"
)

// ReplaySettings are the settings of Replay. The zero value is the
// default of every field.
type ReplaySettings struct {
	// Reveal is the number of every task's first labels revealed before
	// any is spent; zero means 1.
	Reveal int
	// Batch is the number of labels revealed between two fits; zero means
	// a tenth of the tasks, at least 1.
	Batch int
	// Plan holds Next's settings (its Budget and Allowed are the
	// replay's).
	Plan Settings
	// Fit holds the fits' settings; nil means the defaults.
	Fit *model.Settings
}

// Curve is the accuracy of a replay or a simulation against the labels
// spent.
type Curve struct {
	// Strategy is Planned or Uniform.
	Strategy string
	// Spent holds the labels revealed beyond every task's first, at every
	// fit.
	Spent []int
	// Accuracy holds the accuracy of the consensus on the tasks of known
	// truth at every fit.
	Accuracy []float64
	// Stopped is the number of labels spent when the planner first chose
	// fewer tasks than a batch (its stopping rule), or -1; the rest of
	// such a batch is spent in turn, so that both curves end with every
	// label revealed. In a Simulation it is the number spent when the
	// planner chose none, where its curve ends.
	Stopped int
	// Labels holds, for a Simulation, the labels asked by its end, every
	// task's in the order asked; it is nil for a Replay.
	Labels *data.Dataset
}

// Replay replays the recorded labels of d: every task's first Reveal
// labels are revealed, then the rest are revealed in batches, to the tasks
// that strategy chooses, a task's labels only in their recorded order,
// and after every batch vb-la-ds is fitted to the labels revealed and its
// consensus scored against truth (one class index per task, -1 for
// unknown).
func Replay(ctx context.Context, d *data.Dataset, truth []int, strategy string, s *ReplaySettings) (*Curve, error) {
	if d == nil {
		return nil, errors.New("plan: no data set")
	}
	var set ReplaySettings
	if s != nil {
		set = *s
	}
	set.Reveal = cmp.Or(set.Reveal, 1)
	set.Batch = cmp.Or(set.Batch, max(d.NumTasks()/10, 1))
	if set.Reveal < 0 || set.Batch < 0 {
		return nil, fmt.Errorf("plan: replay with Reveal = %d and Batch = %d, want neither negative", set.Reveal, set.Batch)
	}
	if strategy != Planned && strategy != Uniform {
		return nil, fmt.Errorf("plan: unknown strategy %q (want %q or %q)", strategy, Planned, Uniform)
	}
	if len(truth) != d.NumTasks() {
		return nil, errors.New("plan: replay needs one truth entry per task")
	}
	nj := make([]int, d.NumTasks())
	shown := make([]int, d.NumTasks())
	first := 0
	for j := range nj {
		nj[j] = d.Offsets[j+1] - d.Offsets[j]
		shown[j] = min(set.Reveal, nj[j])
		first += min(1, nj[j])
	}
	c := &Curve{Strategy: strategy, Stopped: -1}
	for {
		sub, err := Prefix(d, shown)
		if err != nil {
			return nil, err
		}
		p, err := Fit(ctx, sub, set.Fit)
		if err != nil {
			return nil, err
		}
		c.Spent = append(c.Spent, sub.NumLabels()-first)
		c.Accuracy = append(c.Accuracy, accuracy(p.Probs, d.NumClasses(), truth))
		if sub.NumLabels() == d.NumLabels() {
			return c, nil
		}
		var chosen []int
		if strategy == Planned {
			ps := set.Plan
			ps.Budget = set.Batch
			ps.Pool = nil
			ps.Allowed = func(j int) bool { return shown[j] < nj[j] }
			picks, err := Next(p, &ps)
			if err != nil {
				return nil, err
			}
			for _, pk := range picks {
				chosen = append(chosen, pk.Task)
			}
			if len(chosen) < set.Batch && c.Stopped < 0 {
				c.Stopped = c.Spent[len(c.Spent)-1]
			}
		}
		chosen = roundRobin(chosen, shown, nj, set.Batch)
		for _, j := range chosen {
			shown[j]++
		}
	}
}

// roundRobin adds to chosen, up to n tasks in all, the tasks not in it with
// labels left, fewest revealed first, in task order.
func roundRobin(chosen, shown, nj []int, n int) []int {
	if len(chosen) >= n {
		return chosen
	}
	in := make(map[int]bool, len(chosen))
	for _, j := range chosen {
		in[j] = true
	}
	var rest []int
	for j := range shown {
		if !in[j] && shown[j] < nj[j] {
			rest = append(rest, j)
		}
	}
	slices.SortStableFunc(rest, func(a, b int) int { return cmp.Compare(shown[a], shown[b]) })
	return append(chosen, rest[:min(len(rest), n-len(chosen))]...)
}

// Prefix returns the data set of every task's first shown[j] labels of d,
// in their recorded order, with d's tasks, workers and classes. A nil data
// set, a shown of another length than d's tasks, or a task shown more
// labels than it has or fewer than none is an error.
func Prefix(d *data.Dataset, shown []int) (*data.Dataset, error) {
	if d == nil {
		return nil, errors.New("plan: no data set")
	}
	if len(shown) != d.NumTasks() {
		return nil, fmt.Errorf("plan: a prefix of %d tasks' labels from a data set of %d tasks", len(shown), d.NumTasks())
	}
	n := 0
	for j, s := range shown {
		if s < 0 || s > d.Offsets[j+1]-d.Offsets[j] {
			return nil, fmt.Errorf("plan: a prefix of %d labels of task %q, which has %d", s, d.Tasks[j], d.Offsets[j+1]-d.Offsets[j])
		}
		n += s
	}
	out := &data.Dataset{Name: d.Name, Tasks: d.Tasks, Workers: d.Workers, Classes: d.Classes,
		Offsets: make([]int, d.NumTasks()+1), Worker: make([]int32, 0, n), Label: make([]uint16, 0, n)}
	for j := range d.Tasks {
		lo := d.Offsets[j]
		out.Worker = append(out.Worker, d.Worker[lo:lo+shown[j]]...)
		out.Label = append(out.Label, d.Label[lo:lo+shown[j]]...)
		out.Offsets[j+1] = len(out.Label)
	}
	return out, nil
}

// accuracy returns the fraction of the tasks of known truth whose argmax
// of probs (the first of equal maxima) is the truth.
func accuracy(probs []float64, k int, truth []int) float64 {
	labels := consensusLabels(probs, k)
	var n, right int
	for j, t := range truth {
		if t < 0 {
			continue
		}
		n++
		if labels[j] == t {
			right++
		}
	}
	return float64(right) / float64(max(n, 1))
}

// Savings returns the labels the planner spent (beyond every task's first)
// before its accuracy first reached target, and their fraction of all
// such labels; -1 and 1 if it never did. A nil or empty curve, or one
// whose Spent and Accuracy differ in length, is an error.
func Savings(planner *Curve, target float64) (spent int, fraction float64, err error) {
	if planner == nil || len(planner.Spent) == 0 || len(planner.Spent) != len(planner.Accuracy) {
		return 0, 0, errors.New("plan: savings of no curve, or of one with unequal Spent and Accuracy")
	}
	total := planner.Spent[len(planner.Spent)-1]
	for i, a := range planner.Accuracy {
		if a >= target {
			return planner.Spent[i], float64(planner.Spent[i]) / float64(max(total, 1)), nil
		}
	}
	return -1, 1, nil
}

// GoldTruth returns the truth Replay takes from gold labels: the gold
// class of every task of d, -1 for the others. A nil d has no tasks: the
// truth is empty.
func GoldTruth(d *data.Dataset, g *data.Gold) []int {
	if d == nil {
		return []int{}
	}
	t := make([]int, d.NumTasks())
	for j := range t {
		t[j] = -1
	}
	if g != nil {
		for i, j := range g.Task {
			t[j] = int(g.Label[i])
		}
	}
	return t
}
