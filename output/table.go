package output

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/consensuslab/consensus/data"
)

// writeStrings writes a table of string columns named by header in format
// f: CSV or TSV with a header line, JSON Lines with the header names as
// keys, or Parquet with one required string column per name (so that
// pandas keeps identifiers such as "0001" as text). The columns i with
// numeric[i] true (numeric may be nil) hold numbers as text that
// strconv.ParseFloat reads: they are JSON numbers (null if not finite)
// and Parquet doubles. rows calls emit once per row, in order, with one
// cell per column; emit may keep no reference to the cells.
func writeStrings(w io.Writer, f data.Format, header []string, numeric []bool, rows func(emit func(cells []string) error) error) error {
	isNum := func(i int) bool { return i < len(numeric) && numeric[i] }
	switch f {
	case data.CSV, data.TSV, "":
		bw := bufio.NewWriterSize(w, 1<<16)
		cw := csv.NewWriter(bw)
		if f == data.TSV {
			cw.Comma = '\t'
		}
		if err := cw.Write(header); err != nil {
			return err
		}
		if err := rows(cw.Write); err != nil {
			return err
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return bw.Flush()
	case data.JSONL:
		bw := bufio.NewWriterSize(w, 1<<16)
		keys := make([][]byte, len(header))
		for i, h := range header {
			keys[i] = append(appendJSONString(nil, h), ':')
		}
		var b []byte
		err := rows(func(cells []string) error {
			b = append(b[:0], '{')
			for i, c := range cells {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, keys[i]...)
				if isNum(i) {
					v, err := strconv.ParseFloat(c, 64)
					if err != nil {
						return fmt.Errorf("column %s: %w", header[i], err)
					}
					b = appendJSONNumber(b, v)
					continue
				}
				b = appendJSONString(b, c)
			}
			b = append(b, "}\n"...)
			_, err := bw.Write(b)
			return err
		})
		if err != nil {
			return err
		}
		return bw.Flush()
	case data.Parquet:
		cols := make([]column, len(header))
		for i, h := range header {
			cols[i] = column{h, parquet.String()}
			if isNum(i) {
				cols[i].node = parquet.Leaf(parquet.DoubleType)
			}
		}
		pw, err := newParquetWriter(w, cols)
		if err != nil {
			return err
		}
		buf := make([]parquet.Row, 0, 1024)
		err = rows(func(cells []string) error {
			row := make(parquet.Row, len(cells))
			for i, c := range cells {
				if isNum(i) {
					v, err := strconv.ParseFloat(c, 64)
					if err != nil {
						return fmt.Errorf("column %s: %w", header[i], err)
					}
					row[i] = parquet.DoubleValue(v).Level(0, 0, i)
					continue
				}
				row[i] = parquet.ByteArrayValue([]byte(c)).Level(0, 0, i)
			}
			buf = append(buf, row)
			if len(buf) == cap(buf) {
				if _, err := pw.WriteRows(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
			return nil
		})
		if err != nil {
			return err
		}
		if _, err := pw.WriteRows(buf); err != nil {
			return err
		}
		return pw.Close()
	}
	return fmt.Errorf("unknown output format %q (valid: csv, tsv, jsonl, parquet)", string(f))
}

// WriteGold writes the gold labels g of d in format f with the columns
// task and label, one gold task a row in the order of g. data.ReadGoldAs
// reads the result back against d into an equal Gold.
func WriteGold(w io.Writer, d *data.Dataset, g *data.Gold, f data.Format) error {
	return writeStrings(w, f, []string{"task", "label"}, nil, func(emit func([]string) error) error {
		row := make([]string, 2)
		for i, j := range g.Task {
			row[0], row[1] = d.Tasks[j], d.Classes[g.Label[i]]
			if err := emit(row); err != nil {
				return err
			}
		}
		return nil
	})
}

// GoldFile returns a File for WriteFiles that writes the gold labels g of
// d to path in format f (empty: by the extension; ".gz" compresses), with
// WriteGold.
func GoldFile(path string, f data.Format, d *data.Dataset, g *data.Gold) File {
	return formatted(path, f, func(w io.Writer, f data.Format) error { return WriteGold(w, d, g, f) })
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
func WriteTable(w io.Writer, t *Table, f data.Format) error {
	return writeStrings(w, f, t.Columns, t.Numeric, func(emit func([]string) error) error {
		for _, r := range t.Rows {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	})
}

// TableFile returns a File for WriteFiles that writes t to path in format
// f (empty: by the extension; ".gz" compresses), with WriteTable.
func TableFile(path string, f data.Format, t *Table) File {
	return formatted(path, f, func(w io.Writer, f data.Format) error { return WriteTable(w, t, f) })
}
