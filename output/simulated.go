package output

import (
	"io"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
)

// WriteClassRows writes one row per object of d: its identifier ("task"),
// a class ("label": labels[j]) and K numbers per object from vals (one
// column per class, named prefix + class, numbers that read back bit for
// bit), then, if subtype is not nil, "subtype": 1 for an object of the
// correlated group's subtype, 0 otherwise. It returns an error wrapping
// ErrArgument if d is nil, labels or subtype (if not nil) is not one per
// object, a label is not a class of d, or vals is not K per object.
func WriteClassRows(w io.Writer, f dataio.Format, d *data.Dataset, labels []int, vals []float64, prefix string, subtype []bool) error {
	if d == nil {
		return argErrorf("no data set")
	}
	j, k := d.NumTasks(), d.NumClasses()
	if len(labels) != j || len(vals) != j*k || subtype != nil && len(subtype) != j {
		return argErrorf("%d labels, %d values and %d subtypes for %d tasks of %d classes", len(labels), len(vals), len(subtype), j, k)
	}
	for _, z := range labels {
		if z < 0 || z >= k {
			return argErrorf("label %d of %d classes", z, k)
		}
	}
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

// ClassRowsFile returns a File for WriteFiles that writes the rows of
// WriteClassRows to path, in the format of its extension (".gz"
// compresses).
func ClassRowsFile(path string, d *data.Dataset, labels []int, vals []float64, prefix string, subtype []bool) File {
	return formatted(path, "", func(w io.Writer, f dataio.Format) error {
		return WriteClassRows(w, f, d, labels, vals, prefix, subtype)
	})
}
