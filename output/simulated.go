package output

import (
	"io"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// WriteSimWorkers writes the simulated workers of d with their truth tr
// under the noise model m, one row per worker: its name ("worker"), its
// kind ("kind"), its number of labels ("labels") and its true parameters
// as the noise model's evaluator reports them (Evaluator.WorkerColumns).
func WriteSimWorkers(w io.Writer, f dataio.Format, d *data.Dataset, tr *sim.Truth, m noise.Model) error {
	ev := m.NewEvaluator(d)
	ev.SetParams(tr.Worker, tr.Task)
	cols := []table.Column{{Name: "worker"}, {Name: "kind", Kind: table.Dict}, {Name: "labels", Kind: table.Int}}
	for _, c := range ev.WorkerColumns() {
		cols = append(cols, table.Column{Name: c, Kind: table.Float})
	}
	t, err := table.NewWriter(w, f, cols)
	if err != nil {
		return err
	}
	counts := make([]int, d.NumWorkers())
	for _, wk := range d.Worker {
		counts[wk]++
	}
	var vals []float64
	for i, name := range d.Workers {
		t.String(name)
		t.String(tr.Kind[i].String())
		t.Int(int64(counts[i]))
		vals = ev.WorkerValues(i, vals[:0])
		for _, v := range vals {
			t.Float(v)
		}
		if err := t.EndRow(); err != nil {
			return err
		}
	}
	return t.Close()
}

// WriteClassRows writes one row per object of d: its identifier ("task"),
// a class ("label": labels[j]) and K numbers per object from vals (one
// column per class, named prefix + class, numbers that read back bit for
// bit), then, if subtype is not nil, "subtype": 1 for an object of the
// correlated group's subtype, 0 otherwise.
func WriteClassRows(w io.Writer, f dataio.Format, d *data.Dataset, labels []int, vals []float64, prefix string, subtype []bool) error {
	cols := []table.Column{{Name: "task"}, {Name: "label", Kind: table.Dict}}
	for _, c := range d.Classes {
		cols = append(cols, table.Column{Name: prefix + c, Kind: table.Float})
	}
	if subtype != nil {
		cols = append(cols, table.Column{Name: "subtype", Kind: table.Int})
	}
	t, err := table.NewWriter(w, f, cols)
	if err != nil {
		return err
	}
	k := d.NumClasses()
	for j, task := range d.Tasks {
		t.String(task)
		t.String(d.Classes[labels[j]])
		for _, v := range vals[j*k : (j+1)*k] {
			t.Float(v)
		}
		if subtype != nil {
			var in int64
			if subtype[j] {
				in = 1
			}
			t.Int(in)
		}
		if err := t.EndRow(); err != nil {
			return err
		}
	}
	return t.Close()
}
