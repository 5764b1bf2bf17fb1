package plan

import (
	"context"
	"errors"
	"fmt"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
)

// LoadPool reads the "worker" column of the table at path (in any format
// dataio.LoadTable reads, by extension) into worker indices of d, each
// worker once in the order of its first row: the workers the planner may
// pick (Settings.Pool). A worker without labels in d is refused with the
// file and line, since the planner needs its fitted confusion matrix. A
// nil d is an error.
func LoadPool(ctx context.Context, path string, d *data.Dataset) ([]int, error) {
	if d == nil {
		return nil, errors.New("plan: no data set")
	}
	index := make(map[string]int, d.NumWorkers())
	for w, name := range d.Workers {
		index[name] = w
	}
	seen := map[int]bool{}
	var pool []int
	err := dataio.LoadTable(ctx, path, "", dataio.ReadSettings{}, dataio.Columns{Names: []string{"worker"}}, func(cells []string, line int) error {
		w, ok := index[cells[0]]
		if !ok {
			return &dataio.InputError{File: path, Line: line, Msg: fmt.Sprintf("worker %q has no labels in the data: the planner needs its fitted confusion matrix", cells[0])}
		}
		if !seen[w] {
			seen[w] = true
			pool = append(pool, w)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return pool, nil
}
