package ingest

import (
	"bytes"
	"unicode/utf8"
	"unsafe"
)

// Kinds of byte for splitLine.
const (
	bytePlain = iota // ASCII, not a separator, quote or line end
	byteSep
	byteEnd   // '\n'
	byteHigh  // a byte that is not ASCII
	byteOther // a quote
)

// Kinds of line that ChunkParser.SplitLine reports.
const (
	LinePlain = iota // a data row, whose wanted cells Cells gives
	LineBlank        // empty or white space only: skipped
	LineOdd          // anything else: for encoding/csv to read or refuse
)

// lineEnd returns the end of the line that starts at data[pos], without
// its '\n', and the start of the next line.
func lineEnd(data []byte, pos int) (end, next int) {
	if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
		return pos + i, pos + i + 1
	}
	return len(data), len(data)
}

// BytesString returns b as a string without copying it; the string is
// valid only as long as b is not changed.
func BytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// ChunkParser splits the lines of chunks: CSV or TSV, or JSON Lines.
type ChunkParser struct {
	sep     byte
	trim    bool // encoding/csv's TrimLeadingSpace: white space before a quote
	width   int
	index   []int      // position of the task, worker and label columns
	class   [256]uint8 // what each byte is to splitLine: a byteXxx
	want    []int8     // the wanted cell in each field, or -1
	hashers [3]idHash
	// json, if not nil, makes the lines JSON Lines records with the keys
	// names, which the scan json reads (jsonLine).
	json  *JSONLScan
	names []string
	// edits, while a block is parsed, logs the JSON Lines values decoded
	// in its data (decodeInPlace); nil otherwise.
	edits *edits
	// cells receives the start and end of each wanted cell of the line
	// split last: own, or the row of direct's batch being split.
	cells  [][2]int32
	own    [][2]int32
	batch  []splitRow // direct's lines split ahead
	hashes []uint64   // the hashes of a batch's new tasks
	homes  []uint32   // and their home slots, to prefetch
}

// NewChunkParser returns a parser of lines whose fields are separated by
// sep (ASCII), width fields a line, the wanted ones at index (at most
// MaxWanted; three for ReadBlocks, which reads task, worker and label);
// trim is the TrimLeadingSpace of the encoding/csv reader it stands for.
func NewChunkParser(sep byte, trim bool, width int, index []int) *ChunkParser {
	p := &ChunkParser{sep: sep, trim: trim, width: width, index: index, want: make([]int8, width)}
	p.own = make([][2]int32, len(index))
	p.cells = p.own
	for i := range p.want {
		p.want[i] = -1
	}
	for j, at := range index {
		p.want[at] = int8(j)
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		p.class[c] = byteHigh
	}
	p.class['"'] = byteOther
	p.class['\n'] = byteEnd
	p.class[sep] = byteSep
	return p
}

// SplitLine splits the line at data[pos] as split does and returns the
// start of the next line and the line's kind: the one tokenizer of
// delimited text, for the parallel blocks and the row-by-row reader
// alike. For a plain line, Cells gives the wanted cells, trimmed, neither
// empty nor invalid UTF-8. It scans the line once,
// which is several times faster than split for the common line: without
// quotes, with as many fields as the header and no wanted cell empty. A
// wanted cell with bytes that are not ASCII is checked and trimmed as
// split does it (trimCell). Every other line goes to split.
func (p *ChunkParser) SplitLine(data []byte, pos int) (next, kind int) {
	if p.json != nil {
		return p.jsonLine(data, pos)
	}
	field, start, high := 0, pos, false
	for i := pos; i < len(data); i++ {
		switch p.class[data[i]] {
		case bytePlain:
			continue
		case byteSep:
			if field >= p.width-1 || !p.cell(data, field, start, i, high) {
				return p.slowLine(data, pos)
			}
			field, start, high = field+1, i+1, false
			continue
		case byteEnd:
			if field != p.width-1 || !p.cell(data, field, start, i, high) {
				return p.slowLine(data, pos)
			}
			return i + 1, LinePlain
		case byteHigh:
			high = true
			continue
		}
		return p.slowLine(data, pos)
	}
	if field != p.width-1 || !p.cell(data, field, start, len(data), high) {
		return p.slowLine(data, pos)
	}
	return len(data), LinePlain
}

// cell records data[start:stop], field field of a line without quotes,
// trimmed, in p.cells if the field is wanted, and reports false if it is
// wanted and empty after trimming, or, when it has bytes that are not
// ASCII (high), not valid UTF-8.
func (p *ChunkParser) cell(data []byte, field, start, stop int, high bool) bool {
	j := p.want[field]
	if j < 0 {
		return true
	}
	if high {
		a, z, ok := trimCell(data, start, stop)
		p.cells[j] = [2]int32{int32(a), int32(z)}
		return ok
	}
	for start < stop && ASCIISpace[data[start]] {
		start++
	}
	for stop > start && ASCIISpace[data[stop-1]] {
		stop--
	}
	p.cells[j] = [2]int32{int32(start), int32(stop)}
	return stop > start
}

// slowLine is splitLine for any line, with lineEnd and split.
func (p *ChunkParser) slowLine(data []byte, pos int) (next, kind int) {
	end, next := lineEnd(data, pos)
	return next, p.split(data, pos, end)
}

// parse fills in the rows of c. A row that is not plain ends them, as the
// last row with c.stop set.
func (p *ChunkParser) parse(c *chunk) {
	p.edits = &c.edits
	defer func() { p.edits = nil }()
	data := c.data
	c.rows, c.stop, c.lines = c.rows[:0], false, 0
	for j := range c.ids {
		c.ids[j].reset(p.hashers[j])
	}
	var last [3][]byte // cells of the previous row, for runs of one id
	var lastID [3]int32
	line := int32(0)
	for pos := 0; pos < len(data); line++ {
		next, kind := p.SplitLine(data, pos)
		row := chunkRow{at: int32(pos), line: line}
		switch kind {
		case LineBlank:
			pos = next
			continue
		case LineOdd:
			c.rows = append(c.rows, row)
			c.stop = true
			return
		}
		for j := range p.cells {
			cell := &p.cells[j]
			text := data[cell[0]:cell[1]]
			if len(c.rows) > 0 && bytes.Equal(text, last[j]) {
				row.id[j] = lastID[j]
				continue
			}
			if j == 2 { // labels: few, so scanned
				row.id[j] = c.ids[j].scan(data, cell[0], cell[1], int32(len(c.rows)))
			} else {
				row.id[j] = c.ids[j].Get(data, cell[0], cell[1], int32(len(c.rows)))
			}
			last[j], lastID[j] = text, row.id[j]
		}
		c.rows = append(c.rows, row)
		pos = next
	}
	c.lines = int(line)
}

// split finds the wanted cells of the line data[pos:end] (without its
// '\n'), trimmed, in p.cells. Of quotes it takes the quoting that
// spreadsheets and R's write.csv write, a field that starts with a quote
// and ends with the next one, just before a separator or the line's end
// (or a '\r' there, which encoding/csv drops), with the text between them
// as its cell, as encoding/csv reads it (after ASCII white space that it
// skips with TrimLeadingSpace); a quote inside a field that does not
// start with one is an ordinary character, as in the general path
// (CSVRecords, NewCSVReader); any other quote (a doubled one, a field
// not closed on its line, which may go on over the next) makes the line
// odd, for the general path to read or refuse.
func (p *ChunkParser) split(data []byte, pos, end int) int {
	line := data[pos:end]
	n := len(line)
	quoted := bytes.IndexByte(line, '"') >= 0
	field, start := 0, 0
	for {
		a, z, stop := start, n, n // the cell's text and the field's end
		q := start                // where a quoted field's quote would be
		for quoted && p.trim && q < n && line[q] < utf8.RuneSelf && ASCIISpace[line[q]] {
			q++ // encoding/csv skips it; a quote after other white space goes to it
		}
		if quoted && q < n && line[q] == '"' {
			start = q
			k := bytes.IndexByte(line[start+1:], '"')
			if k < 0 {
				return LineOdd
			}
			a, z = start+1, start+1+k
			switch after := z + 1; {
			case after == n || after == n-1 && line[after] == '\r':
			case line[after] == p.sep:
				stop = after
			default: // a doubled quote, or text after the closing one
				return LineOdd
			}
		} else {
			if i := bytes.IndexByte(line[start:], p.sep); i >= 0 {
				z, stop = start+i, start+i
			}
			if quoted && q < z && line[q] >= utf8.RuneSelf && bytes.IndexByte(line[q:z], '"') >= 0 {
				return LineOdd // white space that is not ASCII may come before a quote
			}
		}
		for j, at := range p.index {
			if at == field {
				a, z, ok := trimCell(line, a, z)
				if !ok {
					if stop == n && field == 0 && len(bytes.TrimSpace(line)) == 0 {
						return LineBlank
					}
					return LineOdd
				}
				p.cells[j] = [2]int32{int32(pos + a), int32(pos + z)}
			}
		}
		field++
		if stop == n {
			break
		}
		start = stop + 1
	}
	if field != p.width {
		if field == 1 && len(bytes.TrimSpace(line)) == 0 {
			return LineBlank
		}
		return LineOdd
	}
	return LinePlain
}

// trimCell returns the bounds of line[start:stop] with white space trimmed
// as strings.TrimSpace trims it, and whether the cell is neither empty nor
// invalid UTF-8.
func trimCell(line []byte, start, stop int) (int, int, bool) {
	for start < stop && line[start] < utf8.RuneSelf && ASCIISpace[line[start]] {
		start++
	}
	for stop > start && line[stop-1] < utf8.RuneSelf && ASCIISpace[line[stop-1]] {
		stop--
	}
	cell := line[start:stop]
	for _, c := range cell {
		if c >= utf8.RuneSelf {
			if !utf8.Valid(cell) {
				return 0, 0, false
			}
			t := bytes.TrimSpace(cell)
			if len(t) == 0 {
				return 0, 0, false
			}
			start += bytes.Index(cell, t)
			return start, start + len(t), true
		}
	}
	return start, stop, stop > start
}

// HeaderLike reports whether a cell is one of the column names of h (nil:
// none): a row can repeat the header only if its task cell is HeaderLike.
func HeaderLike(cell string, h *HeaderSet) bool {
	return h != nil && h.Has(cell)
}

// MaxWanted is the largest number of wanted cells a ChunkParser finds in
// a line.
const MaxWanted = 127

// Cells returns the bounds in the data given to SplitLine of the wanted
// cells of the line it split last, in the order of index. The slice is
// reused.
func (p *ChunkParser) Cells() [][2]int32 { return p.cells }
