package plan

import (
	"math"
	"strconv"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/output"
)

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
// the intervals qiv if not nil.
func TasksTable(d *data.Dataset, p *Posterior, all []Pick, iv *Intervals, q *model.Result, qiv *Intervals) *output.Table {
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
	return t
}

// PicksTable returns the planner's choices picks as the table consensus
// next writes: the task, the worker if pairs is true (picks of task and
// worker pairs), then the task's number of labels, most probable label,
// confidence, expected gain and probability of change.
func PicksTable(d *data.Dataset, p *Posterior, picks []Pick, pairs bool) *output.Table {
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
	return t
}

// WorkersTable returns the workers file of the fit res (the columns of fit
// --workers: worker, labels, skill and the model's worker values) with the
// worker flags as further columns.
func WorkersTable(res *model.Result, flags []WorkerFlag) *output.Table {
	num := output.FormatProb
	d := res.Data
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
	return t
}
