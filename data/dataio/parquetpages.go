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

// useParquetPages selects readParquetPages; the differential tests turn it
// off to compare it with the value-by-value path alone.
var useParquetPages = true

// readParquetPages adds the rows of p to b by reading the pages of the
// wanted columns directly, rather than value by value: a
// dictionary-encoded page gives each row's index into the column chunk's
// dictionary, whose entries are turned into text and interned once, at
// their first use; a plain page of strings gives each row's bytes; a page
// of other values (numbers, booleans) gives each row's value. Every cell
// is converted by parquetText.cell, or bytesCell for plain strings. Ids
// are still numbered in order of first appearance. At the first row it
// cannot vouch for (a page with nulls, a cell that cell refuses, a label
// b refuses, a read error, columns of different lengths), it leaves p at
// that row, so that reading the rest value by
// value gives the same rows or the same error as reading all of them that
// way. p must not have returned a row yet. The guard g sees every row, as
// in the value-by-value path; readParquetPages returns its error, if it
// gives one.
func readParquetPages(p *parquetReader, b *ingest.Builder, g *guard) (err error) {
	defer recoverParquet(p.file, &err)
	if len(p.cols) > 0 || p.row != 0 {
		return nil
	}
	cols := make([]pageColumn, len(p.index))
	for p.group < len(p.groups) {
		chunks := p.groups[p.group].ColumnChunks()
		for i, at := range p.index {
			cols[i].open(chunks[at], p.texts[i])
			switch p.roles[i] {
			case "task":
				cols[i].header = p.header
			case "label":
				cols[i].label = true
			}
		}
		rows, ok, err := readGroupPages(p, cols, b, g, p.row)
		for i := range cols {
			cols[i].close()
		}
		if err != nil {
			return err
		}
		p.row += rows
		if !ok {
			p.resume(rows)
			return nil
		}
		p.group++
	}
	return nil
}

// readGroupPages adds the rows of one row group, whose column chunks cols
// has open, to b, and sizes b from p (see sizer) after the first sizeAfter
// labels. It returns the number of rows added and whether they are
// all the rows of the group, or the error of the guard g, which sees each
// row's number (after the before rows of earlier groups).
func readGroupPages(p *parquetReader, cols []pageColumn, b *ingest.Builder, g *guard, before int) (int, bool, error) {
	ins := [3]*ingest.Intern{&b.Tasks, &b.Workers, &b.Raw}
	var id [3]int32
	for rows := 0; ; rows++ {
		ended := 0
		for i := range cols {
			c := &cols[i]
			if c.pos == c.n && !c.next() {
				if c.end {
					ended++
					continue
				}
				return rows, false, nil
			}
			v, ok := c.value(ins[i], b)
			if !ok {
				return rows, false, nil
			}
			id[i] = v
		}
		if ended == len(cols) {
			return rows, true, nil
		}
		if ended > 0 {
			return rows, false, nil
		}
		b.AddIndex(id[0], id[1], uint16(id[2]))
		if err := g.Row(before+rows+1, b.Size()); err != nil {
			return rows + 1, false, err
		}
		if b.Len() == sizeAfter {
			_, total := p.progress()
			ingest.ReserveFor(b, total, before+rows+1, g.maxLabels())
		}
	}
}

// pageColumn reads the pages of one column chunk.
type pageColumn struct {
	conv   parquetText       // how the column's values become text
	label  bool              // the label column, whose values go to b's classes
	header *ingest.HeaderSet // for the task column: the column names (see ingest.HeaderLike)
	pages  parquet.Pages
	page   parquet.Page
	end    bool // the pages have ended
	pos, n int  // the next value of page, and its values
	data   encoding.Values
	dict   parquet.Dictionary // of page, if it is dictionary-encoded
	// general is set for a page that is neither dictionary-encoded nor
	// of plain strings: its values, read from valr pageBatch at a time
	// into values, become text by parquetText.cell.
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

// open starts reading a column chunk whose values become text by conv.
func (c *pageColumn) open(ch parquet.ColumnChunk, conv parquetText) {
	ids, values := c.ids[:0], c.values
	*c = pageColumn{conv: conv, pages: ch.Pages(), ids: ids, values: values}
}

// close releases the pages.
func (c *pageColumn) close() {
	if c.page != nil {
		parquet.Release(c.page)
	}
	c.pages.Close()
}

// next reads the next page and reports whether value can read it: a page
// without nulls, dictionary-encoded, of plain strings, or of any other
// values (as general); at the end of the pages it sets end.
func (c *pageColumn) next() bool {
	if c.general {
		n, err := c.valr.ReadValues(c.values)
		if n > 0 {
			c.pos, c.n = 0, n
			return true
		}
		if err != io.EOF {
			return false
		}
		c.general = false
	}
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	pg, err := c.pages.ReadPage()
	if err != nil {
		c.end = errors.Is(err, io.EOF) && pg == nil
		return false
	}
	c.page, c.pos = pg, 0
	if pg.NumNulls() != 0 || len(pg.RepetitionLevels()) != 0 {
		return false
	}
	c.data = pg.Data()
	switch d := pg.Dictionary(); {
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
	case d == nil:
		if c.values == nil {
			c.values = make([]parquet.Value, pageBatch)
		}
		c.dict, c.general, c.valr, c.n = nil, true, pg.Values(), 0
	default:
		return false
	}
	return c.n > 0 || c.next()
}

// value returns the intern index of the next value, adding it to in, or
// false if the value path must read it: a value it refuses, a label that
// is NaN or infinite, or a task equal to its column's name (the row may
// repeat the header). A label goes to b's classes, with Builder.Add's
// rules.
func (c *pageColumn) value(in *ingest.Intern, b *ingest.Builder) (int32, bool) {
	pos := c.pos
	c.pos++
	if c.dict != nil {
		k := c.index[pos]
		if k < 0 || int(k) >= len(c.ids) {
			return 0, false
		}
		if id := c.ids[k]; id > 0 {
			return id - 1, true
		}
		s, err := c.conv.cell(c.dict.Index(k))
		if err != nil {
			return 0, false
		}
		id, ok := c.intern(s, in, b)
		if ok {
			c.ids[k] = id + 1
		}
		return id, ok
	}
	if c.general {
		s, err := c.conv.cell(c.values[pos])
		if err != nil {
			return 0, false
		}
		return c.intern(s, in, b)
	}
	s, err := bytesCell(c.text[c.offset[pos]:c.offset[pos+1]], c.ascii)
	if err != nil {
		return 0, false
	}
	if c.label {
		return c.intern(s, in, b)
	}
	if pos >= c.batch+pageBatch {
		c.prefetch(in, pos)
	}
	if c.same[pos-c.batch] {
		return c.intern(s, in, b) // get recognises the string of the previous call
	}
	if ingest.HeaderLike(s, c.header) {
		return 0, false
	}
	return in.GetHashed(s, c.hash[pos-c.batch]), true
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

// resume opens the current row group for reading value by value, from its
// row skip on.
func (p *parquetReader) resume(skip int) {
	if p.openGroup() != nil {
		return
	}
	for _, c := range p.cols {
		for left := skip; left > 0; {
			n, err := c.r.ReadValues(c.buf[:min(left, len(c.buf))])
			left -= n
			if n == 0 || err != nil && left > 0 {
				break // the value path will meet the same end or error
			}
		}
	}
}
