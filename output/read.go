package output

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
)

// Predictions is a consensus table read back from a file.
type Predictions struct {
	// Tasks and Classes name the rows and the probability columns.
	Tasks, Classes []string
	// Probs holds the distributions, len(Tasks)×len(Classes), row-major.
	Probs []float64
}

// ReadConsensus reads a consensus table in format f (empty: by the name's
// extension, see dataio.FormatOf), gzip-compressed or not, in any form
// WriteConsensus and WriteConsensusCrowdKit write: a "task" column and at
// least two "p_<class>" columns (others, such as "label", are ignored), or
// in the CrowdKit layout "task", "agg_label" (ignored) and a column per
// class, one row per task. Each
// row's probabilities must be numbers in [0, 1] summing to 1 within 1e-6,
// and no task may appear twice. The table is read by dataio.ReadTable, with
// its rules and messages: every problem is a *dataio.InputError naming the
// file (name) and the line, or for Parquet the row.
func ReadConsensus(r io.Reader, name string, f dataio.Format) (*Predictions, error) {
	var t consensusTable
	err := dataio.ReadTable(context.Background(), r, name, f, dataio.ReadSettings{}, t.spec(), t.row)
	return t.p, err
}

// LoadConsensus reads a consensus table from the named file, or from
// standard input if path is "-", as ReadConsensus does. ctx, opt.Sep and
// opt.MaxMemory apply as in dataio.ReadTable.
func LoadConsensus(ctx context.Context, path string, f dataio.Format, opt dataio.ReadSettings) (*Predictions, error) {
	var t consensusTable
	err := dataio.LoadTable(ctx, path, f, opt, t.spec(), t.row)
	return t.p, err
}

// errNotConsensus is the problem of a table without the columns of a
// consensus.
var errNotConsensus = errors.New("want a task column and at least two p_<class> columns, or task, agg_label and a column per class (--layout crowdkit)")

// consensusTable reads a consensus table into p.
type consensusTable struct {
	p       *Predictions
	columns []string // the probability columns' names, for messages
	seen    map[string]struct{}
}

// spec returns the columns of a consensus table: "task" and every
// "p_<class>" column of the header; or in the CrowdKit layout (a header
// with an "agg_label" column), every column but "task" and "agg_label",
// named by its class.
func (t *consensusTable) spec() dataio.Columns {
	return dataio.Columns{
		Names: []string{"task"},
		More: func(header []string) (names, roles []string, err error) {
			t.p, t.columns, t.seen = &Predictions{}, nil, make(map[string]struct{})
			crowdKit := slices.Contains(header, "agg_label")
			for _, h := range header {
				c, ok := strings.CutPrefix(h, "p_")
				if crowdKit {
					c, ok = h, h != "task" && h != "agg_label"
				}
				if ok {
					t.p.Classes = append(t.p.Classes, c)
					names = append(names, h)
					roles = append(roles, "probability")
				}
			}
			if len(names) < 2 {
				return nil, nil, errNotConsensus
			}
			t.columns = names
			return names, roles, nil
		},
	}
}

// roundingSlack is how far outside [0, 1] a probability read back may be
// and still be taken (as 0 or 1): a sum of exponentials written by another
// program, or by an older version of this one, can pass 1 by a rounding
// error, such as 1.0000000000000002.
const roundingSlack = 1e-9

// row adds a row of a consensus table, the cells of spec, to t.p.
func (t *consensusTable) row(cells []string, _ int) error {
	task := strings.Clone(cells[0])
	if !added(t.seen, task) {
		return fmt.Errorf("task %q appears twice", task)
	}
	t.p.Tasks = append(t.p.Tasks, task)
	var sum float64
	for z, c := range cells[1:] {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil || v < -roundingSlack || v > 1+roundingSlack || math.IsNaN(v) {
			return fmt.Errorf("%s = %q is not a probability", t.columns[z], c)
		}
		v = min(max(v, 0), 1)
		sum += v
		t.p.Probs = append(t.p.Probs, v)
	}
	if math.Abs(sum-1) > 1e-6 {
		return fmt.Errorf("probabilities sum to %v, not 1", sum)
	}
	return nil
}

// WorkerTable is a table of numbers per worker read back from a file, such
// as the worker parameters WriteWorkers writes.
type WorkerTable struct {
	// Workers names the rows, in the order of the file.
	Workers []string
	// Columns names the columns of Values.
	Columns []string
	// Values holds the numbers, len(Workers)×len(Columns), row-major.
	Values []float64
	// Lines holds the line of each worker's row in the file (for
	// Parquet, its row), for messages.
	Lines []int
}

// check returns an error wrapping ErrArgument unless t has one value per
// worker and column and one line per worker.
func (t *WorkerTable) check() error {
	if len(t.Values) != len(t.Workers)*len(t.Columns) || len(t.Lines) != len(t.Workers) {
		return argErrorf("a worker table of %d values and %d lines for %d workers and %d columns", len(t.Values), len(t.Lines), len(t.Workers), len(t.Columns))
	}
	return nil
}

// WorkerIndices returns, for every row of t, the index of its worker in
// d, or -1 for a worker that d does not have.
func (t *WorkerTable) WorkerIndices(d *data.Dataset) []int {
	index := map[string]int{}
	if d != nil {
		for w, name := range d.Workers {
			index[name] = w
		}
	}
	out := make([]int, len(t.Workers))
	for i, name := range t.Workers {
		w, ok := index[name]
		if !ok {
			w = -1
		}
		out[i] = w
	}
	return out
}

// Start returns the initial parameter vector of m on d (m.Init) with the
// parameters of the workers of t, whose columns are m.WorkerColumns(d),
// set by m.SetWorker, and the indices of the workers it set; a worker that
// d does not have is skipped. A row that SetWorker refuses gives a
// dataio.InputError naming file, the row's line and the problem; a nil m
// or d, or a table whose Values are not one per worker and column, an
// error wrapping ErrArgument.
func (t *WorkerTable) Start(m model.WorkerStarter, d *data.Dataset, file string) ([]float64, []int, error) {
	if m == nil || d == nil {
		return nil, nil, argErrorf("worker parameters without an estimator or a data set")
	}
	if err := t.check(); err != nil {
		return nil, nil, err
	}
	x := m.Init(d)
	nc := len(t.Columns)
	var set []int
	for i, w := range t.WorkerIndices(d) {
		if w < 0 {
			continue // a worker with no labels here: nothing to start
		}
		if err := m.SetWorker(d, x, w, t.Values[i*nc:(i+1)*nc]); err != nil {
			return nil, nil, &dataio.InputError{File: file, Line: t.Lines[i], Msg: err.Error()}
		}
		set = append(set, w)
	}
	return x, set, nil
}

// Skills returns every worker's skill in d from the first column of t (a
// table of the "skill" column, such as LoadWorkers reads for a vote
// weighted by given skills), NaN for a worker of d that t does not list,
// and the number of workers of d that have one; workers of t that d does
// not have are left aside. A skill must be a finite number, at least 0:
// another value gives a dataio.InputError naming file, the row's line and
// the worker. A nil d, a table without columns or whose Values are not
// one per worker and column, is an error wrapping ErrArgument.
func (t *WorkerTable) Skills(d *data.Dataset, file string) (skills []float64, given int, err error) {
	if d == nil {
		return nil, 0, argErrorf("skills without a data set")
	}
	if err := t.check(); err != nil {
		return nil, 0, err
	}
	if len(t.Columns) == 0 {
		return nil, 0, argErrorf("skills from a table without columns")
	}
	index := t.WorkerIndices(d)
	skills = make([]float64, d.NumWorkers())
	for w := range skills {
		skills[w] = math.NaN()
	}
	nc := len(t.Columns)
	for i, name := range t.Workers {
		s := t.Values[i*nc]
		if !(s >= 0) || math.IsInf(s, 1) {
			return nil, 0, &dataio.InputError{File: file, Line: t.Lines[i], Msg: fmt.Sprintf("worker %q has skill %v: want a finite number, at least 0", name, s)}
		}
		if w := index[i]; w >= 0 {
			skills[w] = s
			given++
		}
	}
	return skills, given, nil
}

// ReadWorkers reads the "worker" column and the numeric columns named by
// columns from a table in format f (empty: by the name's extension),
// gzip-compressed or not, such as the workers table WriteWorkers writes in
// any format. Other columns are ignored. Every value must be a number, and
// no worker may appear twice. Problems are reported as by ReadConsensus.
func ReadWorkers(r io.Reader, name string, f dataio.Format, columns []string) (*WorkerTable, error) {
	t := &WorkerTable{Columns: columns}
	return t, dataio.ReadTable(context.Background(), r, name, f, dataio.ReadSettings{}, workerTableColumns(columns), t.add())
}

// LoadWorkers reads a workers table from the named file, or from standard
// input if path is "-", as ReadWorkers does. ctx, opt.Sep and
// opt.MaxMemory apply as in dataio.ReadTable.
func LoadWorkers(ctx context.Context, path string, f dataio.Format, opt dataio.ReadSettings, columns []string) (*WorkerTable, error) {
	t := &WorkerTable{Columns: columns}
	return t, dataio.LoadTable(ctx, path, f, opt, workerTableColumns(columns), t.add())
}

// workerTableColumns returns the columns of a workers table to read.
func workerTableColumns(columns []string) dataio.Columns {
	return dataio.Columns{
		Names: append([]string{"worker"}, columns...),
		Roles: append([]string{"worker"}, columns...),
	}
}

// add returns the function that adds a row of a workers table to t.
func (t *WorkerTable) add() func(cells []string, line int) error {
	seen := make(map[string]struct{})
	return func(cells []string, line int) error {
		w := strings.Clone(cells[0])
		if !added(seen, w) {
			return fmt.Errorf("worker %q appears twice", w)
		}
		t.Workers = append(t.Workers, w)
		t.Lines = append(t.Lines, line)
		for i, c := range cells[1:] {
			v, err := strconv.ParseFloat(c, 64)
			if err != nil {
				return fmt.Errorf("%s = %q is not a number", t.Columns[i], c)
			}
			t.Values = append(t.Values, v)
		}
		return nil
	}
}

// added adds s to the set seen and reports whether it was not in it, with
// one map operation.
func added(seen map[string]struct{}, s string) bool {
	n := len(seen)
	seen[s] = struct{}{}
	return len(seen) > n
}
