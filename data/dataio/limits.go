package dataio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/consensuslab/consensus/data/internal/ingest"
)

// Memory a data set takes while it is read: a cost per label and per
// distinct task or worker identifier, set above the peaks of reading
// simulated files of 10⁶ to 10⁸ labels with 2·10⁵ to 2·10⁷ tasks of ids of
// up to nine characters in every format (gzip-compressed CSV, with its
// blocks of text in flight, the largest); docs/errors.md gives the
// command that measures them. ReadBytesPerID covers an identifier's text
// up to ReadIDText bytes; the text of longer identifiers counts besides,
// ReadBytesPerIDByte a byte beyond that. ReadBufferBytes is the reader's
// blocks of text besides, which a file of more than a few MB fills.
const (
	ReadBytesPerLabel  = 20
	ReadBytesPerID     = 90
	ReadIDText         = 10
	ReadBytesPerIDByte = 1
	ReadBufferBytes    = 32 << 20
)

// lineFactor is the memory a line of text takes while the readers hold it
// (the line, its fields and the buffers they grow in), per byte.
const lineFactor = 4

// ReadBytesPerField is the memory a field of a line of delimited text
// takes while the readers split it (the header, and a row that goes to
// encoding/csv: a string, its position and its place in the record), on
// top of the line's own lineFactor per byte: a line of many short fields
// needs more than its length says.
const ReadBytesPerField = 200

// ErrLimit is wrapped by the *InputError of a read stopped by
// ReadSettings.MaxMemory.
var ErrLimit = errors.New("memory limit reached")

// readMemory returns the memory in bytes that a data set of the
// given numbers of labels and distinct task and worker identifiers, whose
// text takes text bytes, takes while it is read, by the constants above,
// without the reader's buffers (ReadBufferBytes), which are bounded: the
// limit enforced while reading.
func readMemory(labels, ids, text float64) float64 {
	return labels*ReadBytesPerLabel + ids*ReadBytesPerID + max(0, text-ids*ReadIDText)*ReadBytesPerIDByte
}

// guard enforces the context and ReadSettings.MaxMemory while a
// file is read: on the decoded text (the length of a line) and on the rows
// and distinct identifiers read so far. A nil guard checks nothing.
type guard struct {
	ctx  context.Context
	max  int64
	file string
	rows int
	// total also bounds the text read so far, for a reader whose
	// caller keeps all it reads (ReadTable).
	total bool
	// sep, if not zero, is the field separator of delimited text, whose
	// fields the length of a line counts (ReadBytesPerField).
	sep byte
}

// newGuard returns the guard of ctx and opt for the file. Without a
// memory limit it still bounds the length of a line (ingest.MaxLine); a
// ctx that can never be cancelled (Done returns nil, as for
// context.Background) is not checked.
func newGuard(ctx context.Context, opt ReadSettings, file string) *guard {
	if ctx != nil && ctx.Done() == nil {
		ctx = nil
	}
	return &guard{ctx: ctx, max: opt.MaxMemory, file: file}
}

// lineLimit returns the longest line that the guard's reader lets
// through: ingest.MaxLine, or less under a memory limit (a line takes
// lineFactor bytes of memory a byte). The readers' line buffers grow to
// it and no further (ingest.GrowLine).
func (g *guard) lineLimit() int {
	if g == nil {
		return ingest.MaxLine
	}
	if g.max > 0 {
		return int(min(ingest.MaxLine, g.max/lineFactor+1))
	}
	return ingest.MaxLine
}

// text returns the decoded text of r (see textReader), read through the
// guard.
func (g *guard) text(r io.Reader) (io.Reader, error) {
	text, err := textReader(r)
	if err != nil || g == nil {
		return text, err
	}
	return &guardedReader{r: text, g: g, total: g.total, sep: g.sep}, nil
}

// binary returns the decoded content of r for a copy to disk (Parquet
// read from a pipe or compressed): it is not held in memory, so only the
// context is checked, not the length of lines.
func (g *guard) binary(r io.Reader) (io.Reader, error) {
	text, err := textReader(r)
	if err != nil || g == nil {
		return text, err
	}
	return &guardedReader{r: text, g: g, binary: true}, nil
}

// Row is called after each row: every 256 rows it checks the context and
// the memory the rows and the distinct identifiers read so far take (by
// the identifiers' number and text, size). line is the row's line, for
// the message. Every reader, serial or parallel, calls it after each row
// with the same size, so a read stops on the same line whatever the path.
func (g *guard) Row(line int, size ingest.Size) error {
	if g == nil {
		return nil
	}
	g.rows++
	if g.rows&255 != 0 {
		return nil
	}
	if g.ctx != nil && g.ctx.Err() != nil {
		return g.ctx.Err()
	}
	if g.max <= 0 {
		return nil
	}
	if need := readMemory(float64(g.rows), float64(size.IDs), float64(size.Text)); need > float64(g.max) {
		ids := fmt.Sprintf("%d distinct tasks and workers", size.IDs)
		if float64(size.Text) > float64(size.IDs)*ReadIDText {
			ids += fmt.Sprintf(" (%s of text)", formatSize(float64(size.Text)))
		}
		return &InputError{File: g.file, Line: line, Err: ErrLimit, Msg: fmt.Sprintf(
			"reading stopped here: %d labels with %s already need about %s, and the limit is %s",
			g.rows, ids, formatSize(need), formatSize(float64(g.max)))}
	}
	return nil
}

// guardedReader reads decoded text, failing when the context is cancelled
// or a line grows beyond what the memory limit allows.
type guardedReader struct {
	r      io.Reader
	g      *guard
	lines  int   // line ends read
	cur    int64 // bytes of the current line read so far
	fields int64 // separators in the current line so far
	sep    byte  // the field separator, if fields are counted
	// binary turns off the check of line lengths.
	binary bool
	// total also bounds the text read so far, not only the current line.
	total bool
	read  int64
}

// newline is the line end that guardedReader counts.
var newline = []byte{'\n'}

func (gr *guardedReader) Read(p []byte) (int, error) {
	if ctx := gr.g.ctx; ctx != nil && ctx.Err() != nil {
		return 0, ctx.Err()
	}
	n, err := gr.r.Read(p)
	if gr.binary {
		return n, err
	}
	max := gr.g.max
	if max > 0 && (gr.cur+int64(n))*(lineFactor+ReadBytesPerField) > max || gr.cur+int64(n) > ingest.MaxLine {
		// A line of p may cross the limit: find the byte where it does,
		// so that the message is the same however the text is read.
		if err := gr.scan(p[:n]); err != nil {
			return 0, err
		}
	} else {
		// Only the current line's separators are counted: the tail of p
		// after its last line end, a few bytes unless the line is long.
		tail := p[:n]
		if i := bytes.LastIndexByte(p[:n], '\n'); i >= 0 {
			gr.lines += bytes.Count(p[:i], newline) + 1
			gr.cur, gr.fields, tail = int64(n-i-1), 0, p[i+1:n]
		} else {
			gr.cur += int64(n)
		}
		if gr.sep != 0 {
			gr.fields += int64(bytes.Count(tail, []byte{gr.sep}))
		}
	}
	gr.read += int64(n)
	if max > 0 && gr.total && gr.read*lineFactor > max {
		return 0, &InputError{File: gr.g.file, Line: gr.lines + 1, Err: ErrLimit, Msg: fmt.Sprintf(
			"reading stopped: the text read so far (%s) needs about %s of memory while it is read and kept, more than the memory limit of %s",
			formatSize(float64(gr.read)), formatSize(float64(gr.read*lineFactor)), formatSize(float64(max)))}
	}
	return n, err
}

// scan counts the lines of p and the bytes and fields of the current
// line, and returns the error of the first byte at which the current line
// is longer than ingest.MaxLine or needs more than the memory limit
// (lineMemory), if one does. Both grow with each byte, so a piece of a
// line that ends within them is passed whole, and only the piece where the
// line crosses one is looked at a byte at a time.
func (gr *guardedReader) scan(p []byte) error {
	for len(p) > 0 {
		piece, rest := p, []byte(nil)
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			piece, rest = p[:i], p[i+1:]
		}
		var seps int64
		if gr.sep != 0 {
			seps = int64(bytes.Count(piece, []byte{gr.sep}))
		}
		if gr.over(gr.cur+int64(len(piece)), gr.fields+seps) {
			for _, c := range piece {
				gr.cur++
				if c == gr.sep && c != 0 {
					gr.fields++
				}
				if gr.over(gr.cur, gr.fields) {
					return gr.lineError()
				}
			}
		}
		gr.cur, gr.fields = gr.cur+int64(len(piece)), gr.fields+seps
		if rest == nil {
			return nil
		}
		gr.lines++
		gr.cur, gr.fields = 0, 0
		p = rest
	}
	return nil
}

// over reports whether a line of n bytes with the given separators is
// longer than ingest.MaxLine or needs more than the memory limit.
func (gr *guardedReader) over(n, seps int64) bool {
	return n > ingest.MaxLine || gr.g.max > 0 && lineMemory(n, seps) > gr.g.max
}

// lineError returns the error of a current line that is over the limits.
func (gr *guardedReader) lineError() error {
	if gr.cur > ingest.MaxLine {
		return &InputError{File: gr.g.file, Line: gr.lines + 1, Msg: fmt.Sprintf(
			"reading stopped: the line is longer than %s without a line end, the most a line may hold; is this a labels file?", formatSize(ingest.MaxLine))}
	}
	max := gr.g.max
	need := formatSize(float64(lineMemory(gr.cur, gr.fields)))
	msg := fmt.Sprintf("reading stopped: the line is longer than %s without a line end, which needs about %s of memory to read, more than the memory limit of %s",
		formatSize(float64(gr.cur)), need, formatSize(float64(max)))
	if gr.fields*ReadBytesPerField > gr.cur*lineFactor {
		msg = fmt.Sprintf("reading stopped: the line has more than %d fields in its first %s, which need about %s of memory to read, more than the memory limit of %s",
			gr.fields, formatSize(float64(gr.cur)), need, formatSize(float64(max)))
	}
	return &InputError{File: gr.g.file, Line: gr.lines + 1, Err: ErrLimit, Msg: msg}
}

// lineMemory returns the memory that a line of n bytes with the given
// number of separators takes while the readers hold and split it.
func lineMemory(n, seps int64) int64 { return n*lineFactor + seps*ReadBytesPerField }

// inputErrorOf returns err itself if it is (or wraps) an *InputError or a
// cancelled context, for the readers to pass on unchanged.
func inputErrorOf(err error) (error, bool) {
	var ie *InputError
	if errors.As(err, &ie) {
		return ie, true
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err, true
	}
	return nil, false
}

// formatSize formats a byte count for messages, such as "3.2 GiB".
func formatSize(b float64) string {
	if b < 1024 {
		return fmt.Sprintf("%.0f B", b)
	}
	exp := min(int(math.Log(b)/math.Log(1024)), 4)
	return fmt.Sprintf("%.1f %ciB", b/math.Pow(1024, float64(exp)), "KMGT"[exp-1])
}

// parquetSize checks, before any row is read, the rows and the decoded
// size of the wanted column chunks that a Parquet file's metadata declare
// against the memory limit: a small file can declare (and, with
// dictionary and run-length encoding, hold) billions of rows, and a page
// can declare a size its reader would allocate at once.
func (g *guard) parquetSize(p *parquetReader) error {
	if g == nil || g.max <= 0 {
		return nil
	}
	md := p.pf.Metadata()
	var rows, chunk int64
	for _, rg := range md.RowGroups {
		rows += rg.NumRows
		for _, i := range p.index {
			if i < len(rg.Columns) {
				chunk = max(chunk, rg.Columns[i].MetaData.TotalUncompressedSize)
			}
		}
	}
	need := readMemory(float64(rows), 0, 0)
	if float64(chunk)*lineFactor > float64(g.max) || need > float64(g.max) {
		return &InputError{File: g.file, Err: ErrLimit, Msg: fmt.Sprintf(
			"the file declares %d rows and column chunks of up to %s, which need more than the memory limit of %s",
			rows, formatSize(float64(chunk)), formatSize(float64(g.max)))}
	}
	return nil
}

// memoryLimit returns the memory limit in bytes, or math.MaxInt64
// without one: the most that a Parquet file's footer, and the strings of
// one of its pages, may decode to.
func (g *guard) memoryLimit() int64 {
	if g == nil || g.max <= 0 {
		return math.MaxInt64
	}
	return g.max
}

// maxLabels returns the most labels that the memory limit lets a read
// take (readMemory), or 0 if there is no limit: the Builder is never
// reserved for more (ingest.ReserveFor).
func (g *guard) maxLabels() int {
	if g == nil || g.max <= 0 {
		return 0
	}
	return int(g.max/ReadBytesPerLabel) + 1
}

// blocks returns g as the guard of the block paths: nil if it checks
// nothing row by row (no context to watch and no memory limit), so that
// they skip it.
func (g *guard) blocks() ingest.Guard {
	if g == nil || g.ctx == nil && g.max <= 0 {
		return nil
	}
	return g
}
