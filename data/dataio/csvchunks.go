package dataio

import (
	"io"
	"io/fs"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// readChunks adds the data rows of t to b in parallel, as long as they are
// plain: lines without quotes, with as many fields as the header, and
// wanted cells that are neither empty nor invalid UTF-8 after trimming,
// with labels that b accepts (ingest.ReadBlocks). At the first row that is not
// plain, readChunks points t at the input from that row's line on and
// returns; reading the rest row by row gives the same rows, or the error,
// that reading the whole input row by row would. t must read with a
// csvLines that has read only the header.
func readChunks(t *tableReader, b *ingest.Builder, g *guard) error {
	f := t.lines
	if f == nil || f.slow != nil || f.err != nil && f.pos == len(f.buf) {
		return nil
	}
	in := ingest.BlockInput{R: f.r, Err: f.err, Carry: f.buf[f.pos:], Line: f.line, Read: int64(f.pos), Size: t.size, MaxLine: f.limit, MaxLabels: g.maxLabels()}
	parser := func() *ingest.ChunkParser { return ingest.NewChunkParser(byte(f.sep), f.trim, t.width, t.index) }
	rest, err := ingest.ReadBlocks(in, parser, b, g.blocks(), t.header)
	if err != nil {
		return err
	}
	t.lines = &csvLines{r: rest.R, sep: f.sep, trim: f.trim, buf: make([]byte, 0, fastBlock), line: rest.Line, split: f.split, limit: f.limit}
	t.cr = t.lines
	return nil
}

// inputSize returns the size of the text of r if r is a regular file,
// such as an *os.File, and 0 otherwise (not known): the file's size, or
// for a gzip-compressed file that r can read at any offset the size its
// trailer records (gzipSizeHint), so that the readers can size the Builder
// for compressed input too.
func inputSize(r io.Reader) int64 {
	f, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return 0
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	if ra, ok := r.(io.ReaderAt); ok && startsWithGzip(ra) {
		return gzipSizeHint(ra, fi.Size())
	}
	return fi.Size()
}

// maxSizingRatio is the largest ratio of a gzip file's text to the
// file that gzipSizeHint believes: labels compress 4:1 (CSV) to 11:1 (JSON
// Lines) in the formats consensus reads.
const maxSizingRatio = 32

// gzipSizeHint returns the size of the text of a gzip file of the given
// size for sizing the Builder: the size its trailer records, capped at
// maxSizingRatio times the file, or 0 (not known) if that is smaller than
// the file. It errs low, which only leaves the Builder to grow as the rows
// come: the trailer holds the size modulo 2^32 of the last member only, so
// a text of 4 GiB or more, or of many members, may record less, and a
// larger record, from trailing bytes that are not gzip, is capped.
func gzipSizeHint(ra io.ReaderAt, size int64) int64 {
	isize, err := gzipISize(ra, size)
	if err != nil || isize < size {
		return 0
	}
	return min(isize, maxSizingRatio*size)
}
