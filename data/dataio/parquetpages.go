package dataio

import (
	"encoding/binary"
	"errors"
	"io"
	"strings"

	"github.com/consensuslab/consensus/data/internal/ingest"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// readParquetPages adds the rows of p to b by reading the pages of the
// wanted columns: a dictionary-encoded page gives each row's index into
// the column chunk's dictionary, whose entries are turned into text and
// interned once, at their first use; a plain page of strings gives each
// row's bytes; any other page (numbers, booleans, a page with nulls)
// gives each row's value. Every cell is converted by parquetText.cell, or
// bytesCell for plain strings, and ids are numbered in order of first
// appearance. A row that the fast path cannot vouch for (a task equal to
// its column's name, a label that is NaN or infinite or that b does not
// admit) is checked whole, with its cells' text, as next checks a row
// (checkRow) and then as Builder.AddHinted adds it. Faults are reported at
// their row, with next's messages: a read error, a cell that
// parquetText.cell refuses, columns of different lengths. The guard g sees
// every row; readParquetPages returns its error, if it gives one. p must
// not have returned a row yet; after it, next returns io.EOF.
func readParquetPages(p *parquetReader, b *ingest.Builder, g *guard) (err error) {
	defer recoverParquet(p.file, &err)
	ins := [3]*ingest.Intern{&b.Tasks, &b.Workers, &b.Raw}
	var id [3]int32
	var slow bool
	for {
		if !p.open {
			if p.group >= len(p.groups) {
				return nil
			}
			p.openGroup()
		}
		row, ended := p.row+1, 0
		slow = false
		for i := range p.cols {
			c := &p.cols[i]
			if c.pos == c.n {
				ok, err := c.next()
				if err != nil {
					return p.fail(row, err, "cannot read the %s column: %v", p.roles[i], err)
				}
				if !ok {
					ended++
					continue
				}
			}
			v, refused, err := c.value(ins[i], b)
			if err != nil {
				return p.valueError(row, i, err)
			}
			id[i], slow = v, slow || refused
		}
		if ended == len(p.cols) {
			p.closeGroup()
			continue
		}
		if ended > 0 {
			return p.fail(row, nil, "columns of different lengths in row group %d", p.group+1)
		}
		if slow {
			// The row as next gives it, added as labelsFrom adds it.
			for i := range p.cols {
				p.cells[i] = p.cols[i].last()
			}
			if msg := checkRow(p.cells, p.header, p.roles); msg != "" {
				return p.fail(row, nil, "%s", msg)
			}
			if err := b.Add(p.cells[0], p.cells[1], p.cells[2]); err != nil {
				return labelError(p.file, row, err, b.Fixed)
			}
		} else {
			b.AddIndex(id[0], id[1], uint16(id[2]))
		}
		p.row = row
		if err := g.Row(row, b.Size()); err != nil {
			return err
		}
		if b.Len() == sizeAfter {
			_, total := p.progress()
			ingest.ReserveFor(b, total, row, g.maxLabels())
		}
	}
}

// next returns the cells of the next row of the wanted columns, read page
// by page as readParquetPages reads them, each through parquetText.cell
// (or bytesCell), cloned so that it outlives the page.
func (p *parquetReader) next() (_ []string, _ int, err error) {
	defer recoverParquet(p.file, &err)
	for {
		if !p.open {
			if p.group >= len(p.groups) {
				return nil, 0, io.EOF
			}
			p.openGroup()
		}
		row, ended := p.row+1, 0
		for i := range p.cols {
			c := &p.cols[i]
			if c.pos == c.n {
				ok, err := c.next()
				if err != nil {
					return nil, 0, p.fail(row, err, "cannot read the %s column: %v", p.roles[i], err)
				}
				if !ok {
					ended++
					continue
				}
			}
			s, err := c.cell()
			if err != nil {
				return nil, 0, p.valueError(row, i, err)
			}
			p.cells[i] = strings.Clone(s)
		}
		if ended == len(p.cols) {
			p.closeGroup()
			continue
		}
		if ended > 0 {
			return nil, 0, p.fail(row, nil, "columns of different lengths in row group %d", p.group+1)
		}
		if msg := checkRow(p.cells, p.header, p.roles); msg != "" {
			return nil, 0, p.fail(row, nil, "%s", msg)
		}
		p.row = row
		return p.cells, row, nil
	}
}

// openGroup opens the wanted column chunks of row group p.group.
func (p *parquetReader) openGroup() {
	chunks := p.groups[p.group].ColumnChunks()
	if len(p.cols) == 0 {
		p.cols = make([]pageColumn, len(p.index))
	}
	for i, at := range p.index {
		p.cols[i].open(chunks[at], p.texts[i])
		switch p.roles[i] {
		case "task":
			p.cols[i].header = p.header
		case "label":
			p.cols[i].label = true
		}
	}
	p.open = true
}

// closeGroup releases the pages of the open row group and moves to the
// next.
func (p *parquetReader) closeGroup() {
	for i := range p.cols {
		p.cols[i].close()
	}
	p.open = false
	p.group++
}

// readError is the error of reading a page (rather than of a cell).
type readError struct{ error }

// valueError returns the error of row's value of the wanted column i:
// a read error or the refusal of parquetText.cell (see cellError).
func (p *parquetReader) valueError(row, i int, err error) error {
	if e, ok := err.(readError); ok {
		return p.fail(row, e.error, "cannot read the %s column: %v", p.roles[i], e.error)
	}
	return p.cellError(row, i, err)
}

// pageColumn reads the pages of one column chunk.
type pageColumn struct {
	conv   parquetText       // how the column's values become text
	label  bool              // the label column, whose values go to b's classes
	header *ingest.HeaderSet // for the task column: the column names (see ingest.HeaderLike)
	pages  parquet.Pages
	page   parquet.Page
	pos, n int // the next value of page, and its values
	data   encoding.Values
	dict   parquet.Dictionary // of page, if it is dictionary-encoded
	// general is set for a page that is neither dictionary-encoded nor
	// of plain strings, or that has nulls: its values, read from valr
	// valueBatch at a time into values, become text by parquetText.cell.
	general bool
	valr    parquet.ValueReader
	values  []parquet.Value
	index   []int32  // the dictionary indices of page
	text    []byte   // the strings of a plain page, one after the other
	offset  []uint32 // where each string of text starts, and the end
	ids     []int32  // per dictionary entry: its index in the intern plus one, or 0
	ascii   bool     // text (of a plain page) is ASCII, so every value is UTF-8
	// The hashes of a batch of values of a plain page, from value pos
	// batch on (see prefetch); same marks a value equal to the one
	// before it, which is not hashed.
	batch int
	hash  [pageBatch]uint64
	same  [pageBatch]bool
	fresh []uint64 // the hashes not marked same
	homes []uint32 // and their home slots
}

// pageBatch is the number of values of a plain page whose hashes prefetch
// computes ahead.
const pageBatch = 256

// valueBatch is the number of values that a general page's values are
// read at a time (as parquet.ColumnChunkValueReader would be given them).
const valueBatch = 512

// open starts reading a column chunk whose values become text by conv.
func (c *pageColumn) open(ch parquet.ColumnChunk, conv parquetText) {
	ids, values := c.ids[:0], c.values
	*c = pageColumn{conv: conv, pages: ch.Pages(), ids: ids, values: values}
}

// close releases the pages.
func (c *pageColumn) close() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	c.pages.Close()
}

// next reads the next values, of the page or of the next page, and reports
// whether there are any; false at the end of the pages. Its error is the
// library's, of a page it cannot read. A page is read as dictionary
// indices, as plain strings or, any other page and one with nulls, value
// by value (general).
func (c *pageColumn) next() (bool, error) {
	if c.general {
		n, err := c.valr.ReadValues(c.values)
		if n > 0 {
			c.pos, c.n = 0, n
			return true, nil
		}
		if err == nil {
			return false, io.ErrNoProgress
		}
		if err != io.EOF {
			return false, err
		}
		c.general = false
	}
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	pg, err := c.pages.ReadPage()
	if err != nil {
		if err == io.EOF || errors.Is(err, io.EOF) && pg == nil {
			if pg != nil {
				parquet.Release(pg)
			}
			return false, nil
		}
		return false, err
	}
	c.page, c.pos, c.n = pg, 0, 0
	c.data = pg.Data()
	switch d := pg.Dictionary(); {
	case pg.NumNulls() != 0 || len(pg.RepetitionLevels()) != 0:
		c.toGeneral()
	case d != nil && c.data.Kind() == encoding.Int32:
		if d != c.dict {
			c.dict = d
			c.ids = append(c.ids[:0], make([]int32, d.Len())...)
		}
		c.index = c.data.Int32()
		c.n, c.general = len(c.index), false
	case d == nil && c.data.Kind() == encoding.ByteArray && c.conv.verbatim(parquet.ByteArray, 0):
		c.dict, c.general = nil, false
		c.text, c.offset = c.data.ByteArray()
		c.n = len(c.offset) - 1
		c.ascii, c.batch = asciiOnly(c.text), -pageBatch
	default:
		c.toGeneral()
	}
	if c.n > 0 {
		return true, nil
	}
	return c.next()
}

// toGeneral reads the rest of the page, from value pos on, value by
// value; the values before pos are read past.
func (c *pageColumn) toGeneral() {
	if c.values == nil {
		c.values = make([]parquet.Value, valueBatch)
	}
	skip := c.pos
	c.dict, c.general, c.valr, c.pos, c.n = nil, true, c.page.Values(), 0, 0
	for skip > 0 {
		n, err := c.valr.ReadValues(c.values[:min(skip, len(c.values))])
		skip -= n
		if n == 0 || err != nil && skip > 0 {
			break // the next read meets the same end or error
		}
	}
}

// value returns the intern index of the next value, adding it to in, and
// whether the row must be checked whole (see readParquetPages): for a task
// equal to its column's name, or a label that is NaN or infinite or that
// b does not admit (Builder.Admit). A label goes to b's classes. Its
// error is the cell's (see parquetText.cell), or a readError.
func (c *pageColumn) value(in *ingest.Intern, b *ingest.Builder) (int32, bool, error) {
	pos := c.pos
	if c.dict != nil {
		k := c.index[pos]
		if k < 0 || int(k) >= len(c.ids) {
			if err := c.fallBack(); err != errRetry {
				return 0, false, err
			}
			return c.value(in, b)
		}
		c.pos++
		if id := c.ids[k]; id > 0 {
			return id - 1, false, nil
		}
		s, err := c.conv.cell(c.dict.Index(k))
		if err != nil {
			return 0, false, err
		}
		id, ok := c.intern(s, in, b)
		if ok {
			c.ids[k] = id + 1
		}
		return id, !ok, nil
	}
	c.pos++
	if c.general {
		s, err := c.conv.cell(c.values[pos])
		if err != nil {
			return 0, false, err
		}
		id, ok := c.intern(s, in, b)
		return id, !ok, nil
	}
	s, err := bytesCell(c.text[c.offset[pos]:c.offset[pos+1]], c.ascii)
	if err != nil {
		return 0, false, err
	}
	if c.label {
		id, ok := c.intern(s, in, b)
		return id, !ok, nil
	}
	if pos >= c.batch+pageBatch {
		c.prefetch(in, pos)
	}
	if c.same[pos-c.batch] {
		id, ok := c.intern(s, in, b) // get recognises the string of the previous call
		return id, !ok, nil
	}
	if ingest.HeaderLike(s, c.header) {
		return 0, true, nil
	}
	return in.GetHashed(s, c.hash[pos-c.batch]), false, nil
}

// fallBack reads a dictionary-encoded page whose index at pos is not one
// of the dictionary's value by value from pos on, as the library gives
// its values, and returns the error of the value at pos, if any (the
// caller reads the value again).
func (c *pageColumn) fallBack() error {
	c.toGeneral()
	ok, err := c.next()
	if err != nil {
		return readError{err}
	}
	if !ok {
		return readError{io.ErrUnexpectedEOF}
	}
	return errRetry
}

// errRetry is fallBack's sign that the value must be read again.
var errRetry = errors.New("read the value again")

// cell returns the text of the next value, as value would intern it, and
// its error (see value).
func (c *pageColumn) cell() (string, error) {
	pos := c.pos
	if c.dict != nil {
		k := c.index[pos]
		if k < 0 || int(k) >= len(c.ids) {
			if err := c.fallBack(); err != errRetry {
				return "", err
			}
			return c.cell()
		}
		c.pos++
		return c.conv.cell(c.dict.Index(k))
	}
	c.pos++
	if c.general {
		return c.conv.cell(c.values[pos])
	}
	return bytesCell(c.text[c.offset[pos]:c.offset[pos+1]], c.ascii)
}

// last returns the text of the value that value or cell read last, which
// had none of cell's faults.
func (c *pageColumn) last() string {
	pos := c.pos - 1
	var s string
	switch {
	case c.dict != nil:
		s, _ = c.conv.cell(c.dict.Index(c.index[pos]))
	case c.general:
		s, _ = c.conv.cell(c.values[pos])
	default:
		s, _ = bytesCell(c.text[c.offset[pos]:c.offset[pos+1]], c.ascii)
	}
	return s
}

// prefetch hashes the trimmed values of the plain page from value pos on,
// up to pageBatch of them, except those equal to the value before them,
// and prefetches their home slots in in's table, so that the cache misses
// of new ids overlap instead of coming one after the other (as direct
// does for CSV).
func (c *pageColumn) prefetch(in *ingest.Intern, pos int) {
	c.batch = pos
	end := min(pos+pageBatch, c.n)
	prev := ""
	if pos > 0 {
		prev = strings.TrimSpace(ingest.BytesString(c.text[c.offset[pos-1]:c.offset[pos]]))
	}
	for q := pos; q < end; q++ {
		s := strings.TrimSpace(ingest.BytesString(c.text[c.offset[q]:c.offset[q+1]]))
		c.same[q-pos] = q > 0 && s == prev
		if !c.same[q-pos] {
			c.hash[q-pos] = in.Hash(s)
		}
		prev = s
	}
	c.fresh = c.fresh[:0]
	for q := pos; q < end; q++ {
		if !c.same[q-pos] {
			c.fresh = append(c.fresh, c.hash[q-pos])
		}
	}
	c.homes = in.PrefetchHomes(c.fresh, c.homes)
}

// asciiOnly reports whether b has only ASCII bytes.
func asciiOnly(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// intern returns the index of the cell s (from parquetText.cell or
// bytesCell) in in, or false if it is refused as value says.
func (c *pageColumn) intern(s string, in *ingest.Intern, b *ingest.Builder) (int32, bool) {
	if ingest.HeaderLike(s, c.header) {
		return 0, false
	}
	if !c.label {
		return in.Get(s), true
	}
	if ingest.NonFiniteText(s) {
		return 0, false
	}
	k, err := b.Admit(s)
	if err != nil {
		return 0, false
	}
	if k < 0 {
		k = b.Raw.Get(s)
	}
	return k, true
}
