package output

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"

	"github.com/consensuslab/consensus/data"
)

// writeStrings writes a table of string columns named by header in format
// f: CSV or TSV with a header line, JSON Lines with the header names as
// keys, or Parquet with one required string column per name (so that
// pandas keeps identifiers such as "0001" as text). rows calls emit once
// per row, in order, with one cell per column; emit may keep no reference
// to the cells.
func writeStrings(w io.Writer, f data.Format, header []string, rows func(emit func(cells []string) error) error) error {
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
		}
		pw, err := newParquetWriter(w, cols)
		if err != nil {
			return err
		}
		buf := make([]parquet.Row, 0, 1024)
		err = rows(func(cells []string) error {
			row := make(parquet.Row, len(cells))
			for i, c := range cells {
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
	return writeStrings(w, f, []string{"task", "label"}, func(emit func([]string) error) error {
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
