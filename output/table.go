package output

import (
	"io"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/internal/table"
)

// WriteGold writes the gold labels g of d in format f with the columns
// task and label, one gold task a row in the order of g. dataio.ReadGoldAs
// reads the result back against d into an equal Gold.
func WriteGold(w io.Writer, d *data.Dataset, g *data.Gold, f dataio.Format) error {
	if d == nil || g == nil {
		return argErrorf("gold labels without a data set or gold")
	}
	t, err := table.NewWriter(w, f, []table.Column{{Name: "task"}, {Name: "label"}})
	if err != nil {
		return err
	}
	for i, j := range g.Task {
		t.String(d.Tasks[j])
		t.String(d.Classes[g.Label[i]])
		if err := t.EndRow(); err != nil {
			return err
		}
	}
	return t.Close()
}

// GoldFile returns a File for WriteFiles that writes the gold labels g of
// d to path in format f (empty: by the extension; ".gz" compresses), with
// WriteGold.
func GoldFile(path string, f dataio.Format, d *data.Dataset, g *data.Gold) File {
	return formatted(path, f, func(w io.Writer, f dataio.Format) error { return WriteGold(w, d, g, f) })
}

// Table is a small table for WriteTable: named columns of text, some of
// them numbers.
type Table struct {
	// Columns names the columns.
	Columns []string
	// Numeric marks the columns whose cells are numbers, written with
	// FormatProb or strconv (NaN and ±Inf allowed); it may be nil.
	Numeric []bool
	// Rows holds one cell per column in each row.
	Rows [][]string
}

// WriteTable writes t in format f: CSV or TSV with a header line, JSON
// Lines with the column names as keys (numeric columns as numbers, null if
// not finite), or Parquet with string columns and double columns for the
// numeric ones.
func WriteTable(w io.Writer, t *Table, f dataio.Format) error {
	if t == nil {
		return argErrorf("no table")
	}
	cols := make([]table.Column, len(t.Columns))
	for i, c := range t.Columns {
		cols[i].Name = c
		if i < len(t.Numeric) && t.Numeric[i] {
			cols[i].Kind = table.Float
		}
	}
	tw, err := table.NewWriter(w, f, cols)
	if err != nil {
		return err
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if cols[i].Kind != table.Float {
				tw.String(c)
			} else if err := tw.FloatText(c); err != nil {
				return err
			}
		}
		if err := tw.EndRow(); err != nil {
			return err
		}
	}
	return tw.Close()
}

// TableFile returns a File for WriteFiles that writes t to path in format
// f (empty: by the extension; ".gz" compresses), with WriteTable.
func TableFile(path string, f dataio.Format, t *Table) File {
	return formatted(path, f, func(w io.Writer, f dataio.Format) error { return WriteTable(w, t, f) })
}
