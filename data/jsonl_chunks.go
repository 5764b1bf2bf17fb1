package data

import (
	"bufio"
	"bytes"
)

// jsonlChunks switches readJSONLChunks on; tests switch it off to compare.
var jsonlChunks = true

// readJSONLChunks adds the records of j to b in parallel blocks
// (readBlocks), as long as the first tier of the JSON Lines reader
// (jsonlScan) reads them and checkRow would accept them, and points j at
// the input from the first other line on (a blank line is skipped), which
// j then reads record by record, with the rows, the messages and the line
// numbers that reading the whole input record by record would give. j
// must not have read a line yet. It does nothing while the wanted keys are
// still to be resolved from the first record (Columns.More).
func readJSONLChunks(j *jsonlReader, b *Builder, g *guard) error {
	if !jsonlChunks || j.more != nil {
		return nil
	}
	added := b.Len()
	in := blockInput{r: j.br, size: j.size}
	rest, err := readBlocks(in, func() *chunkParser { return newJSONLChunkParser(j.names) }, b, g, j.header)
	if err != nil {
		return err
	}
	// The rest ends with what j.br has not given the blocks.
	j.br = bufio.NewReaderSize(rest.r, 64<<10)
	j.line, j.read = rest.line, rest.read
	j.records += b.Len() - added
	if rest.reserved {
		j.size = 0 // sized: labelsFrom need not size it again
	}
	return nil
}

// newJSONLChunkParser returns a parser of JSON Lines records with the
// wanted keys names (task, worker and label).
func newJSONLChunkParser(names []string) *chunkParser {
	p := &chunkParser{json: &jsonlScan{}, names: names}
	p.cells = &p.own
	return p
}

// jsonLine splits the record at data[pos] as splitLine splits a CSV line:
// the line, trimmed as the record-by-record reader trims it, is blank, or
// plain with the bounds of its wanted values in p.cells if the first tier
// reads it, or odd, for the record-by-record reader.
func (p *chunkParser) jsonLine(data []byte, pos int) (next, kind int) {
	end, next := lineEnd(data, pos)
	raw := data[pos:end]
	line := bytes.TrimSpace(raw)
	if len(line) == 0 {
		return next, lineBlank
	}
	if !p.json.spans(line, p.names) {
		return next, lineOdd
	}
	// line is raw[off:off+len(line)], and its capacity that of raw less
	// off.
	off := int32(pos + cap(raw) - cap(line))
	for k, at := range p.json.at {
		p.cells[k] = [2]int32{off + at[0], off + at[1]}
	}
	return next, linePlain
}
