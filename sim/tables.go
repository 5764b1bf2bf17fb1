package sim

import (
	"io"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
	"github.com/consensuslab/consensus/noise"
)

// WriteWorkers writes the simulated workers of d with their truth tr under
// the noise model m in format f, one row per worker: its name ("worker"),
// its kind ("kind"), its number of labels ("labels") and its true
// parameters as the noise model's evaluator reports them
// (Evaluator.WorkerColumns).
func (tr *Truth) WriteWorkers(w io.Writer, f dataio.Format, d *data.Dataset, m noise.Model) error {
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
