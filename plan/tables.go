package plan

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
)

// ErrArgument is wrapped by the errors of the table builders (TasksTable,
// PicksTable, WorkersTable) given an invalid argument: a nil data set,
// posterior or fit, probabilities or intervals that are not one row of K
// per task, a pick that names no task or worker of the data set, or worker
// flags that are not one per worker. Callers test it with errors.Is.
var ErrArgument = errors.New("plan: invalid argument")

// argErrorf returns an error wrapping ErrArgument with the message format
// gives.
func argErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrArgument}, args...)...)
}

// checkTable returns an error wrapping ErrArgument unless d and p are not
// nil, p holds K probabilities per task of d, and every pick names a task
// of d (and, if pairs is true, a worker of d).
func checkTable(d *data.Dataset, p *Posterior, picks []Pick, pairs bool) error {
	if d == nil {
		return argErrorf("no data set")
	}
	if p == nil {
		return argErrorf("no posterior")
	}
	if err := checkRows("posterior", p.Probs, d); err != nil {
		return err
	}
	for _, pk := range picks {
		if pk.Task < 0 || pk.Task >= d.NumTasks() {
			return argErrorf("a pick of task %d, want 0 to %d", pk.Task, d.NumTasks()-1)
		}
		if pairs && (pk.Worker < 0 || pk.Worker >= d.NumWorkers()) {
			return argErrorf("a pick of worker %d, want 0 to %d", pk.Worker, d.NumWorkers()-1)
		}
	}
	return nil
}

// checkRows returns an error wrapping ErrArgument unless x, what the
// message calls what, has one row of K values per task of d.
func checkRows(what string, x []float64, d *data.Dataset) error {
	if want := d.NumTasks() * d.NumClasses(); len(x) != want {
		return argErrorf("%s of %d values, want %d tasks × %d classes", what, len(x), d.NumTasks(), d.NumClasses())
	}
	return nil
}

// planRow returns the cells labels, label, confidence, gain and p_change
// of a task.
func planRow(d *data.Dataset, p *Posterior, pk Pick) []string {
	num := output.FormatProb
	k := d.NumClasses()
	probs := p.Probs[pk.Task*k : (pk.Task+1)*k]
	best := 0
	for z, x := range probs {
		if x > probs[best] {
			best = z
		}
	}
	return []string{strconv.Itoa(d.Offsets[pk.Task+1] - d.Offsets[pk.Task]), d.Classes[best], num(pk.Confidence), num(pk.Gain), num(pk.Change)}
}

// TasksTable returns the tasks file of consensus next: every task's
// assessment (the picks all), class posterior and, if iv is
// not nil, intervals; then, if q is not nil, its label distribution, with
// the intervals qiv if not nil. It returns an error wrapping ErrArgument if
// d or p is nil, if p, iv, q or qiv is not one row of K values per task of
// d, or if a pick names no task of d.
func TasksTable(d *data.Dataset, p *Posterior, all []Pick, iv *Intervals, q *model.Result, qiv *Intervals) (*output.Table, error) {
	if err := checkTable(d, p, all, false); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		what string
		iv   *Intervals
	}{{"class intervals", iv}, {"label distribution intervals", qiv}} {
		if c.iv == nil {
			continue
		}
		if err := checkRows(c.what+"' lower bounds", c.iv.Lo, d); err != nil {
			return nil, err
		}
		if err := checkRows(c.what+"' upper bounds", c.iv.Hi, d); err != nil {
			return nil, err
		}
	}
	if q != nil {
		if err := checkRows("label distribution", q.Probs, d); err != nil {
			return nil, err
		}
	}
	num := output.FormatProb
	t := &output.Table{Columns: []string{"task", "labels", "label", "confidence", "gain", "p_change"}, Numeric: []bool{false, true, false, true, true, true}}
	for _, c := range d.Classes {
		t.Columns = append(t.Columns, "p_"+c)
		if iv != nil {
			t.Columns = append(t.Columns, "p_"+c+"_lo", "p_"+c+"_hi")
		}
	}
	for _, c := range d.Classes {
		if q != nil {
			t.Columns = append(t.Columns, "q_"+c)
		}
		if qiv != nil {
			t.Columns = append(t.Columns, "q_"+c+"_lo", "q_"+c+"_hi")
		}
	}
	for len(t.Numeric) < len(t.Columns) {
		t.Numeric = append(t.Numeric, true)
	}
	k := d.NumClasses()
	for _, pk := range all {
		row := append([]string{d.Tasks[pk.Task]}, planRow(d, p, pk)...)
		for z := range k {
			c := pk.Task*k + z
			row = append(row, num(p.Probs[c]))
			if iv != nil {
				row = append(row, num(iv.Lo[c]), num(iv.Hi[c]))
			}
		}
		for z := range k {
			c := pk.Task*k + z
			if q != nil {
				row = append(row, num(q.Probs[c]))
			}
			if qiv != nil {
				row = append(row, num(qiv.Lo[c]), num(qiv.Hi[c]))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// PicksTable returns the planner's choices picks as the table consensus
// next writes: the task, the worker if pairs is true (picks of task and
// worker pairs), then the task's number of labels, most probable label,
// confidence, expected gain and probability of change. It returns an error
// wrapping ErrArgument if d or p is nil, if p is not one row of K
// probabilities per task of d, or if a pick names no task (or, with pairs,
// no worker) of d.
func PicksTable(d *data.Dataset, p *Posterior, picks []Pick, pairs bool) (*output.Table, error) {
	if err := checkTable(d, p, picks, pairs); err != nil {
		return nil, err
	}
	t := &output.Table{Columns: []string{"task"}, Numeric: []bool{false}}
	if pairs {
		t.Columns = append(t.Columns, "worker")
		t.Numeric = append(t.Numeric, false)
	}
	t.Columns = append(t.Columns, "labels", "label", "confidence", "gain", "p_change")
	t.Numeric = append(t.Numeric, true, false, true, true, true)
	for _, pk := range picks {
		row := []string{d.Tasks[pk.Task]}
		if pairs {
			row = append(row, d.Workers[pk.Worker])
		}
		t.Rows = append(t.Rows, append(row, planRow(d, p, pk)...))
	}
	return t, nil
}

// WorkersTable returns the workers file of the fit res (the columns of fit
// --workers: worker, labels, skill and the model's worker values) with the
// worker flags as further columns, one per worker of the fit's data set.
// It returns an error wrapping ErrArgument if res or its data set is nil or
// flags is not one per worker.
func WorkersTable(res *model.Result, flags []WorkerFlag) (*output.Table, error) {
	if res == nil || res.Data == nil {
		return nil, argErrorf("no fit")
	}
	d := res.Data
	if len(flags) != d.NumWorkers() {
		return nil, argErrorf("%d worker flags, want one per worker (%d)", len(flags), d.NumWorkers())
	}
	num := output.FormatProb
	t := &output.Table{Columns: []string{"worker", "labels", "skill"}, Numeric: []bool{false, true, true}}
	for _, c := range res.WorkerColumns() {
		t.Columns = append(t.Columns, c)
		t.Numeric = append(t.Numeric, true)
	}
	t.Columns = append(t.Columns, "agreement", "accuracy", "accuracy_lo", "accuracy_hi", "p_spammer", "p_adversarial", "flag")
	t.Numeric = append(t.Numeric, true, true, true, true, true, true, false)
	skills := res.WorkerSkills()
	var vals []float64
	for w, f := range flags {
		flag := f.Flag
		if flag == "" {
			flag = "none"
		}
		agree := num(f.Agreement)
		if math.IsNaN(f.Agreement) {
			agree = "NaN"
		}
		row := []string{d.Workers[w], strconv.Itoa(f.Labels), num(skills[w])}
		vals = res.WorkerValues(w, vals[:0])
		for _, v := range vals {
			row = append(row, num(v))
		}
		t.Rows = append(t.Rows, append(row, agree, num(f.Accuracy), num(f.Lo), num(f.Hi), num(f.Spammer), num(f.Adversarial), flag))
	}
	return t, nil
}
