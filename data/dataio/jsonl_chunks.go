package dataio

import (
	"bufio"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// jsonlChunks switches readJSONLChunks on; tests switch it off to compare.
var jsonlChunks = true

// readJSONLChunks adds the records of j to b in parallel blocks
// (ingest.ReadBlocks), as long as the fast path of the JSON Lines reader
// (ingest.JSONLScan) reads them and checkRow would accept them, and points j at
// the input from the first other line on (a blank line is skipped), which
// j then reads record by record, with the rows, the messages and the line
// numbers that reading the whole input record by record would give. j
// must not have read a line yet. It does nothing while the wanted keys are
// still to be resolved from the first record (Columns.More).
func readJSONLChunks(j *jsonlReader, b *ingest.Builder, g *guard) error {
	if !jsonlChunks || j.more != nil {
		return nil
	}
	added := b.Len()
	in := ingest.BlockInput{R: j.br, Size: j.size, MaxLine: j.limit, MaxLabels: g.maxLabels()}
	rest, err := ingest.ReadBlocks(in, func() *ingest.ChunkParser { return ingest.NewJSONLChunkParser(j.names) }, b, g.blocks(), j.header)
	if err != nil {
		return err
	}
	// The rest ends with what j.br has not given the blocks.
	j.br = bufio.NewReaderSize(rest.R, 64<<10)
	j.line, j.read = rest.Line, rest.Read
	j.records += b.Len() - added
	if rest.Reserved {
		j.size = 0 // sized: labelsFrom need not size it again
	}
	return nil
}
