package noise_test

import (
	"errors"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/noise"
)

// TestSetWorkerArguments checks that every WorkerSetter's SetWorker returns
// an error wrapping noise.ErrArgument on a nil data set or a parameter
// block of another length than WorkerDim, instead of panicking, and sets
// a block of the right length.
func TestSetWorkerArguments(t *testing.T) {
	d, err := data.FromIndices([]string{"t1", "t2"}, []string{"a", "b"}, []string{"x", "y"},
		[]int32{0, 0, 1, 1}, []int32{0, 1, 0, 1}, []uint16{0, 0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []noise.WorkerSetter{noise.DS{}, noise.GLAD{}, noise.MME{}, noise.RegMME{}, noise.OneCoin{}, noise.TwoCoin{}, noise.MACE{}} {
		t.Run(m.Name(), func(t *testing.T) {
			dim := m.WorkerDim(2)
			w := make([]float64, d.NumWorkers()*dim)
			o := make([]float64, d.NumTasks()*m.TaskDim(2))
			m.Init(d, d.FrequencyWeights(), w, o)
			ev := m.NewEvaluator(d)
			ev.SetParams(w, o)
			vals := ev.WorkerValues(0, nil)
			for _, c := range []struct {
				name string
				d    *data.Dataset
				w    []float64
				want error // nil: no error
			}{
				{"good", d, make([]float64, dim), nil},
				{"nil data", nil, make([]float64, dim), noise.ErrArgument},
				{"short block", d, make([]float64, dim-1), noise.ErrArgument},
				{"long block", d, make([]float64, dim+1), noise.ErrArgument},
			} {
				err := m.SetWorker(c.d, vals, c.w)
				if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
					t.Errorf("%s: error %v, want %v", c.name, err, c.want)
				}
			}
		})
	}
}
