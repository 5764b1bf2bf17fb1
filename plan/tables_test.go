package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/model"
)

// TestTableArguments checks that the table builders return an error
// wrapping ErrArgument, naming the problem, on a nil or mismatched
// argument, and a table on good ones.
func TestTableArguments(t *testing.T) {
	d, _, err := datasets.Load("rte")
	if err != nil {
		t.Fatal(err)
	}
	jk := d.NumTasks() * d.NumClasses()
	p := &Posterior{Data: d, Probs: make([]float64, jk)}
	short := &Posterior{Data: d, Probs: make([]float64, jk-1)}
	good := []Pick{{Task: 0, Worker: 0}}
	res := &model.Result{Data: d}
	for _, c := range []struct {
		name string
		run  func() error
		want string // "" for no error
	}{
		{"tasks/good", func() error { return second(TasksTable(d, p, good, nil, nil, nil)) }, ""},
		{"tasks/nil data", func() error { return second(TasksTable(nil, p, good, nil, nil, nil)) }, "no data set"},
		{"tasks/nil posterior", func() error { return second(TasksTable(d, nil, good, nil, nil, nil)) }, "no posterior"},
		{"tasks/short posterior", func() error { return second(TasksTable(d, short, good, nil, nil, nil)) }, "posterior of 1599 values"},
		{"tasks/pick out of range", func() error {
			return second(TasksTable(d, p, []Pick{{Task: d.NumTasks()}}, nil, nil, nil))
		}, "a pick of task 800"},
		{"tasks/short intervals", func() error {
			return second(TasksTable(d, p, good, &Intervals{Lo: make([]float64, jk), Hi: make([]float64, 2)}, nil, nil))
		}, "class intervals' upper bounds of 2 values"},
		{"tasks/short label intervals", func() error {
			q := &model.Result{Probs: make([]float64, jk)}
			return second(TasksTable(d, p, good, nil, q, &Intervals{}))
		}, "label distribution intervals' lower bounds of 0 values"},
		{"tasks/short distribution", func() error {
			return second(TasksTable(d, p, good, nil, &model.Result{}, nil))
		}, "label distribution of 0 values"},
		{"picks/good", func() error { return second(PicksTable(d, p, good, true)) }, ""},
		{"picks/nil data", func() error { return second(PicksTable(nil, p, good, false)) }, "no data set"},
		{"picks/nil posterior", func() error { return second(PicksTable(d, nil, good, false)) }, "no posterior"},
		{"picks/short posterior", func() error { return second(PicksTable(d, short, good, false)) }, "posterior of 1599 values"},
		{"picks/negative task", func() error { return second(PicksTable(d, p, []Pick{{Task: -1}}, false)) }, "a pick of task -1"},
		{"picks/no worker", func() error { return second(PicksTable(d, p, []Pick{{Task: 0, Worker: -1}}, true)) }, "a pick of worker -1"},
		{"workers/nil fit", func() error { return second(WorkersTable(nil, nil)) }, "no fit"},
		{"workers/no data", func() error { return second(WorkersTable(&model.Result{}, nil)) }, "no fit"},
		{"workers/short flags", func() error { return second(WorkersTable(res, make([]WorkerFlag, 3))) }, "3 worker flags, want one per worker (164)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			if c.want == "" {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			if !errors.Is(err, ErrArgument) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one wrapping ErrArgument with %q", err, c.want)
			}
		})
	}
}
