package dataio

import (
	"bytes"
	"io"

	"github.com/consensuslab/consensus/data"
	"github.com/parquet-go/parquet-go"
)

// valueReader is the reference of the Parquet differential tests: the
// wanted columns of a parquetReader read value by value, through
// parquet.ColumnChunkValueReader, each value through parquetText.cell
// and each row through checkRow, as labelsFrom's row-by-row loop reads
// them (valueReader is not a *parquetReader, so labelsFrom does not take
// the page path). The page path must give what it gives.
type valueReader struct {
	*parquetReader
	group int // next row group to open
	cols  []*valueColumn
}

// valueColumn buffers the values of one column chunk.
type valueColumn struct {
	r      parquet.ColumnChunkValueReader
	buf    []parquet.Value
	pos, n int
}

// readValueByValue reads in as ReadLabelsAs reads Parquet, value by value
// (see valueReader), and returns the Dataset or the error's text.
func readValueByValue(in []byte, name string, opt ReadSettings) (*data.Dataset, string) {
	file := displayName(name)
	classes, err := cleanClasses(opt.Classes)
	if err != nil {
		return nil, err.Error()
	}
	g := newGuard(ctx, opt, file)
	src, done, err := newParquetReader(bytes.NewReader(in), file, labelColumns(opt), g)
	if err != nil {
		return nil, err.Error()
	}
	defer done()
	d, err := labelsFrom(&valueReader{parquetReader: src.(*parquetReader)}, name, classes, g)
	if err != nil {
		return nil, err.Error()
	}
	return d, ""
}

// readPages reads in with ReadLabelsAs (the page path), and returns the
// Dataset or the error's text.
func readPages(in []byte, name string, opt ReadSettings) (*data.Dataset, string) {
	d, err := ReadLabelsAs(ctx, bytes.NewReader(in), name, "", opt)
	if err != nil {
		return nil, err.Error()
	}
	return d, ""
}

// openGroup opens the wanted column chunks of the next row group; it
// returns io.EOF after the last one.
func (v *valueReader) openGroup() error {
	for _, c := range v.cols {
		c.r.Close()
	}
	v.cols = v.cols[:0]
	if v.group >= len(v.groups) {
		return io.EOF
	}
	chunks := v.groups[v.group].ColumnChunks()
	v.group++
	for _, i := range v.index {
		v.cols = append(v.cols, &valueColumn{r: parquet.NewColumnChunkValueReader(chunks[i]), buf: make([]parquet.Value, 512)})
	}
	return nil
}

func (v *valueReader) next() (_ []string, _ int, err error) {
	p := v.parquetReader
	defer recoverParquet(p.file, &err)
	for {
		if len(v.cols) == 0 {
			if err := v.openGroup(); err != nil {
				return nil, 0, err
			}
		}
		row := p.row + 1
		ended := 0
		for i, c := range v.cols {
			if c.pos == c.n {
				n, err := c.r.ReadValues(c.buf)
				c.pos, c.n = 0, n
				if n == 0 {
					if err == io.EOF || err == nil {
						ended++
						continue
					}
					return nil, 0, p.fail(row, err, "cannot read the %s column: %v", p.roles[i], err)
				}
			}
			val := c.buf[c.pos]
			c.pos++
			s, err := p.texts[i].cell(val)
			if err != nil {
				return nil, 0, p.cellError(row, i, err)
			}
			p.cells[i] = s
		}
		if ended == len(v.cols) {
			if err := v.openGroup(); err != nil {
				return nil, 0, err
			}
			continue
		}
		if ended > 0 {
			return nil, 0, p.fail(row, nil, "columns of different lengths in row group %d", v.group)
		}
		if msg := checkRow(p.cells, p.header, p.roles); msg != "" {
			return nil, 0, p.fail(row, nil, "%s", msg)
		}
		p.row = row
		return p.cells, row, nil
	}
}
