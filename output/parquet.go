package output

import (
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// WriteConsensusParquet writes the consensus as a Parquet file with the
// columns of the CSV form, in order: "task" and "label" (strings) and
// "p_<class>" (doubles) for every class, one row per task, Snappy
// compressed. pandas reads it with read_parquet(path).
func WriteConsensusParquet(w io.Writer, r *model.Result, seed uint64) error {
	d := r.Data
	cols := []column{{"task", parquet.String()}, {"label", parquet.String()}}
	for _, c := range d.Classes {
		cols = append(cols, column{"p_" + c, parquet.Leaf(parquet.DoubleType)})
	}
	pw, err := newParquetWriter(w, cols)
	if err != nil {
		return err
	}
	labels := r.Labels(seed)
	k := d.NumClasses()
	rows := make([]parquet.Row, 0, 256)
	for j, task := range d.Tasks {
		row := make(parquet.Row, 0, 2+k)
		row = append(row,
			parquet.ByteArrayValue([]byte(task)).Level(0, 0, 0),
			parquet.ByteArrayValue([]byte(d.Classes[labels[j]])).Level(0, 0, 1))
		for z, p := range r.Dist(j) {
			row = append(row, parquet.DoubleValue(p).Level(0, 0, 2+z))
		}
		rows = append(rows, row)
		if len(rows) == cap(rows) {
			if _, err := pw.WriteRows(rows); err != nil {
				return err
			}
			rows = rows[:0]
		}
	}
	if _, err := pw.WriteRows(rows); err != nil {
		return err
	}
	return pw.Close()
}

// WriteWorkersParquet writes the worker table of WriteWorkersCSV as a
// Parquet file: "worker" (string), "labels" (int64) and one double column
// per entry of model.Result.WorkerColumns.
func WriteWorkersParquet(w io.Writer, r *model.Result) error {
	d := r.Data
	names := workerColumns(r)
	skills := r.WorkerSkills()
	cols := []column{{"worker", parquet.String()}, {"labels", parquet.Int(64)}}
	for _, c := range names {
		cols = append(cols, column{c, parquet.Leaf(parquet.DoubleType)})
	}
	pw, err := newParquetWriter(w, cols)
	if err != nil {
		return err
	}
	n := labelsPerWorker(d)
	var vals []float64
	rows := make([]parquet.Row, 0, 256)
	for wk, name := range d.Workers {
		vals = workerValues(r, skills, int32(wk), vals[:0])
		row := make(parquet.Row, 0, 2+len(vals))
		row = append(row,
			parquet.ByteArrayValue([]byte(name)).Level(0, 0, 0),
			parquet.Int64Value(int64(n[wk])).Level(0, 0, 1))
		for i, v := range vals {
			row = append(row, parquet.DoubleValue(v).Level(0, 0, 2+i))
		}
		rows = append(rows, row)
		if len(rows) == cap(rows) {
			if _, err := pw.WriteRows(rows); err != nil {
				return err
			}
			rows = rows[:0]
		}
	}
	if _, err := pw.WriteRows(rows); err != nil {
		return err
	}
	return pw.Close()
}

// column is a named column of a flat Parquet schema.
type column struct {
	name string
	node parquet.Node
}

// newParquetWriter returns a writer of a flat schema whose columns keep the
// given order (a parquet.Group would sort them by name).
func newParquetWriter(w io.Writer, cols []column) (*parquet.GenericWriter[any], error) {
	seen := make(map[string]bool, len(cols))
	g := make(orderedGroup, len(cols))
	for i, c := range cols {
		if seen[c.name] {
			return nil, fmt.Errorf("two columns are called %q", c.name)
		}
		seen[c.name] = true
		g[i] = &namedField{Node: parquet.Required(c.node), name: c.name}
	}
	schema := parquet.NewSchema("consensus", g)
	return parquet.NewGenericWriter[any](w, schema, parquet.Compression(&parquet.Snappy), parquet.CreatedBy("consensus", "", "")), nil
}

// orderedGroup is a Parquet group node whose fields keep their order.
type orderedGroup []parquet.Field

func (g orderedGroup) ID() int                            { return 0 }
func (g orderedGroup) String() string                     { return fmt.Sprintf("group(%d fields)", len(g)) }
func (g orderedGroup) Type() parquet.Type                 { return parquet.Group{}.Type() }
func (g orderedGroup) Optional() bool                     { return false }
func (g orderedGroup) Repeated() bool                     { return false }
func (g orderedGroup) Required() bool                     { return true }
func (g orderedGroup) Leaf() bool                         { return false }
func (g orderedGroup) Fields() []parquet.Field            { return g }
func (g orderedGroup) Encoding() encoding.Encoding        { return nil }
func (g orderedGroup) Compression() compress.Codec        { return nil }
func (g orderedGroup) GoType() reflect.Type               { return reflect.TypeFor[map[string]any]() }
func (f *namedField) Name() string                        { return f.name }
func (f *namedField) Value(v reflect.Value) reflect.Value { return v.MapIndex(reflect.ValueOf(f.name)) }

// namedField is a field of an orderedGroup.
type namedField struct {
	parquet.Node
	name string
}

// ReadConsensusParquet reads a consensus table in the form
// WriteConsensusParquet writes: a "task" column and at least two
// "p_<class>" columns of floating-point numbers (other columns are
// ignored). The checks are those of ReadConsensusCSV; errors name the file
// (name) and the 1-based row.
func ReadConsensusParquet(r io.ReaderAt, size int64, name string) (*Predictions, error) {
	fail := func(row int, format string, a ...any) error {
		return &data.InputError{File: name, Line: row, Msg: fmt.Sprintf(format, a...)}
	}
	pf, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, fail(0, "not a readable Parquet file: %v", err)
	}
	p := &Predictions{}
	taskCol := -1
	var probCols []int
	for _, f := range pf.Schema().Fields() {
		leaf, ok := pf.Schema().Lookup(f.Name())
		if !ok || !f.Leaf() {
			continue
		}
		switch c, isProb := strings.CutPrefix(f.Name(), "p_"); {
		case f.Name() == "task":
			taskCol = leaf.ColumnIndex
		case isProb:
			p.Classes = append(p.Classes, c)
			probCols = append(probCols, leaf.ColumnIndex)
		}
	}
	if taskCol < 0 || len(probCols) < 2 {
		return nil, fail(0, "want a task column and at least two p_<class> columns")
	}
	seen := make(map[string]bool)
	rows := make([]parquet.Row, 128)
	n := 0
	for _, rg := range pf.RowGroups() {
		rr := rg.Rows()
		for {
			m, err := rr.ReadRows(rows)
			for _, row := range rows[:m] {
				n++
				vals := make(map[int]parquet.Value, len(row))
				for _, v := range row {
					vals[v.Column()] = v
				}
				tv := vals[taskCol]
				task := strings.TrimSpace(tv.String())
				if tv.IsNull() || task == "" {
					rr.Close()
					return nil, fail(n, "empty task")
				}
				if seen[task] {
					rr.Close()
					return nil, fail(n, "task %q appears twice", task)
				}
				seen[task] = true
				p.Tasks = append(p.Tasks, task)
				var sum float64
				for z, c := range probCols {
					v := vals[c]
					var f float64
					switch v.Kind() {
					case parquet.Double:
						f = v.Double()
					case parquet.Float:
						f = float64(v.Float())
					default:
						rr.Close()
						return nil, fail(n, "p_%s is not a floating-point number", p.Classes[z])
					}
					if v.IsNull() || f < 0 || f > 1 || math.IsNaN(f) {
						rr.Close()
						return nil, fail(n, "p_%s = %v is not a probability", p.Classes[z], f)
					}
					sum += f
					p.Probs = append(p.Probs, f)
				}
				if math.Abs(sum-1) > 1e-6 {
					rr.Close()
					return nil, fail(n, "probabilities sum to %v, not 1", sum)
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				rr.Close()
				return nil, fail(n+1, "%v", err)
			}
		}
		rr.Close()
	}
	if len(p.Tasks) == 0 {
		return nil, fail(0, "no rows")
	}
	return p, nil
}

// readerAt returns r as an io.ReaderAt with its size, copying it to a
// temporary file if it is not a regular file. The returned function
// releases the copy.
func readerAt(r io.Reader) (io.ReaderAt, int64, func(), error) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return f, fi.Size(), func() {}, nil
		}
	}
	type sized interface {
		io.ReaderAt
		Size() int64
	}
	if s, ok := r.(sized); ok {
		return s, s.Size(), func() {}, nil
	}
	tmp, err := os.CreateTemp("", "consensus-*.parquet")
	if err != nil {
		return nil, 0, nil, err
	}
	done := func() { tmp.Close(); os.Remove(tmp.Name()) }
	n, err := io.Copy(tmp, r)
	if err != nil {
		done()
		return nil, 0, nil, err
	}
	return tmp, n, done, nil
}
