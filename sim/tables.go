package sim

import (
	"errors"
	"fmt"
	"io"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
	"github.com/consensuslab/consensus/noise"
)

// ErrArgument is wrapped by the error of Truth.WriteWorkers given a nil
// data set or noise model, or a truth whose parameters or kinds are not
// those of the data set's workers and tasks under the noise model.
// Callers test it with errors.Is.
var ErrArgument = errors.New("sim: invalid argument")

// WriteWorkers writes the simulated workers of d with their truth tr under
// the noise model m in format f, one row per worker: its name ("worker"),
// its kind ("kind"), its number of labels ("labels") and its true
// parameters as the noise model's evaluator reports them
// (Evaluator.WorkerColumns). It returns an error wrapping ErrArgument if d
// or m is nil or tr is not a truth of d's workers and tasks under m.
func (tr *Truth) WriteWorkers(w io.Writer, f dataio.Format, d *data.Dataset, m noise.Model) error {
	if d == nil || m == nil {
		return fmt.Errorf("%w: simulated workers without a data set or a noise model", ErrArgument)
	}
	k := d.NumClasses()
	if len(tr.Worker) != d.NumWorkers()*m.WorkerDim(k) || len(tr.Task) != d.NumTasks()*m.TaskDim(k) || len(tr.Kind) != d.NumWorkers() {
		return fmt.Errorf("%w: a truth of %d worker parameters, %d task parameters and %d kinds, not %s's on %d workers and %d tasks",
			ErrArgument, len(tr.Worker), len(tr.Task), len(tr.Kind), m.Name(), d.NumWorkers(), d.NumTasks())
	}
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
