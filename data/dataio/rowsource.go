package dataio

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/internal/ingest"
)

// rowSource yields the cells of the wanted columns row by row: a
// tableReader, a jsonlReader or a parquetReader.
type rowSource interface {
	// next returns the cells of the next row and its line (or row
	// number), or io.EOF after the last row. The slice is reused.
	next() ([]string, int, error)
	// noRows returns the error for an input without rows.
	noRows() error
	// where names a line (or row) number for messages, such as "line 3".
	where(n int) string
}

var (
	_ rowSource = (*tableReader)(nil)
	_ rowSource = (*jsonlReader)(nil)
	_ rowSource = (*parquetReader)(nil)
)

// openSource returns the row source of an input in format f (not empty;
// sep is the separator of CSV and TSV) and a function that releases it.
func openSource(r io.Reader, name string, f Format, sep rune, cols Columns, g *guard) (rowSource, func(), error) {
	file := displayName(name)
	if r == nil {
		return nil, nil, fmt.Errorf("%w: no reader of %s", ErrArgument, file)
	}
	names, roles := cols.Names, cols.roles()
	for i, n := range names {
		for j, m := range names[:i] {
			if n == m {
				return nil, nil, &InputError{File: file, Msg: fmt.Sprintf("the %s and %s columns have the same name %s", roles[j], roles[i], show(n))}
			}
		}
	}
	switch f {
	case CSV, TSV:
		src, err := newTableReader(r, name, sep, cols, g)
		return src, func() {}, err
	case JSONL:
		src, err := newJSONLTable(r, file, cols, g)
		return src, func() {}, err
	case Parquet:
		return newParquetReader(r, file, cols, g)
	}
	return nil, nil, &InputError{File: file, Msg: fmt.Sprintf("unknown format %q (valid: csv, tsv, jsonl, parquet)", string(f))}
}

// sizer is a row source that can say how far through its input its rows
// so far went, so that labelsFrom can size the Builder for the whole input
// (ingest.ReserveFor) after the first sizeAfter labels.
type sizer interface {
	// progress returns how much of the input the rows so far took and
	// the size of the whole input, in the same unit (bytes or rows);
	// total is 0 if it is not known.
	progress() (done, total int64)
}

var (
	_ sizer = (*jsonlReader)(nil)
	_ sizer = (*parquetReader)(nil)
)

// aheadReader is a row source that can read records ahead when they are
// already at hand, so that labelsFrom hashes their tasks and brings their
// home slots in the Builder's task table into the cache a batch at a time,
// and the cache misses of a batch's new tasks overlap (as the CSV path's
// batches do, see ingest.ChunkParser.direct).
type aheadReader interface {
	// readAhead reads up to n records ahead, as far as its buffer holds
	// them, and returns their task cells in order: the next len(tasks)
	// calls of next return those records, which stay valid until then. It
	// returns none when it cannot read a record without reading more
	// input, and changes nothing that next returns.
	readAhead(n int) (tasks []string)
}

var _ aheadReader = (*jsonlReader)(nil)

// aheadBatch is the number of records labelsFrom reads ahead at a time.
const aheadBatch = 256

// taskHints are the hashes of the tasks of a batch of records read ahead,
// for Builder.add.
type taskHints struct {
	hash   []uint64
	hashed []bool   // the record's task differs from the one before it
	next   int      // the next record's place
	fresh  []uint64 // the hashes to prefetch
	homes  []uint32
}

// fill hashes the tasks of a batch read ahead that differ from the task
// before them (the Builder's last task for the first) and prefetches their
// home slots in b's task table.
func (h *taskHints) fill(b *ingest.Builder, tasks []string) {
	h.hash, h.hashed, h.fresh, h.next = h.hash[:0], h.hashed[:0], h.fresh[:0], 0
	for i, t := range tasks {
		differs := i == 0 && !b.Tasks.IsLast(t) || i > 0 && t != tasks[i-1]
		var x uint64
		if differs {
			x = b.Tasks.Hash(t)
		}
		h.hash, h.hashed = append(h.hash, x), append(h.hashed, differs)
		if differs {
			h.fresh = append(h.fresh, x)
		}
	}
	h.homes = b.Tasks.PrefetchHomes(h.fresh, h.homes)
}

// take returns the hint of the next record: its task's hash, and whether
// it has one.
func (h *taskHints) take() (uint64, bool) {
	if h.next >= len(h.hash) {
		return 0, false
	}
	i := h.next
	h.next++
	return h.hash[i], h.hashed[i]
}

// sizeAfter is the number of labels after which labelsFrom sizes the
// Builder from a sizer: a full first chunk of each column, which the
// reservation then copies once.
const sizeAfter = ingest.ChunkLen

// labelsFrom builds a Dataset from the (task, worker, label) rows of src.
func labelsFrom(src rowSource, name string, classes []string, g *guard) (*data.Dataset, error) {
	file := displayName(name)
	b, err := ingest.NewBuilder(classes)
	if err != nil {
		return nil, &InputError{File: file, Msg: err.Error()}
	}
	switch s := src.(type) {
	case *tableReader:
		// The plain rows in parallel, if it can.
		if err := readChunks(s, b, g); err != nil {
			return nil, err
		}
	case *jsonlReader:
		// The plain records in parallel, if it can.
		if err := readJSONLChunks(s, b, g); err != nil {
			return nil, err
		}
	case *parquetReader:
		// Page by page, through the dictionaries.
		if err := readParquetPages(s, b, g); err != nil {
			return nil, err
		}
	}
	ahead, _ := src.(aheadReader)
	var hints taskHints
	for {
		if ahead != nil && hints.next >= len(hints.hash) {
			hints.fill(b, ahead.readAhead(aheadBatch))
		}
		cells, line, err := src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		h, hashed := hints.take()
		if err := b.AddHinted(cells[0], cells[1], cells[2], h, hashed); err != nil {
			return nil, labelError(file, line, err, len(classes) > 0)
		}
		if err := g.Row(line, b.Size()); err != nil {
			return nil, err
		}
		if b.Len() == sizeAfter {
			if s, ok := src.(sizer); ok {
				done, total := s.progress()
				ingest.ReserveFor(b, total, int(done), g.maxLabels())
			}
		}
	}
	if b.Len() == 0 {
		return nil, src.noRows()
	}
	l, err := b.Build(true)
	d := (*data.Dataset)(l)
	if err == nil {
		err = d.Validate()
	}
	if err != nil {
		return nil, &InputError{File: file, Msg: err.Error()}
	}
	if d.NumClasses() < 2 {
		c := d.Classes[0]
		e := &InputError{File: file, Hint: HintOneClass, Msg: fmt.Sprintf(
			"only one class, %s, in %d labels; at least two are needed", show(c), d.NumLabels())}
		if show(c) == "'"+c+"'" && !strings.Contains(c, ",") {
			e.Arg = c
		}
		return nil, e
	}
	d.Name = baseName(name)
	return d, nil
}

// labelError returns the error of a label that Builder.Add refused with
// err on line (or row) line of file, with the hint of the classes given,
// if fixed, or a question on the label column otherwise.
func labelError(file string, line int, err error, fixed bool) error {
	e := &InputError{File: file, Line: line, Msg: err.Error()}
	if fixed {
		e.Hint = HintClasses
	} else {
		e.Msg += "; is the label column the right one?"
	}
	return e
}

// goldFrom reads the (task, label) rows of src as gold labels for d, with
// the rules and messages of ReadGold.
func goldFrom(src rowSource, file string, d *data.Dataset, gd *guard) (*data.Gold, error) {
	taskIndex := make(map[string]int32, len(d.Tasks))
	for j, s := range d.Tasks {
		taskIndex[s] = int32(j)
	}
	classIndex := make(map[string]uint16, len(d.Classes))
	for k, c := range d.Classes {
		classIndex[c] = uint16(k)
	}
	type seen struct {
		label uint16
		line  int
	}
	first := make(map[string]seen)
	g := &data.Gold{}
	rows := 0
	var size ingest.Size // of the distinct gold tasks, for the guard
	var firstTasks []string
	for {
		cells, line, err := src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		rows++
		if err := gd.Row(line, size); err != nil {
			return nil, err
		}
		task, label := cells[0], cells[1]
		k, ok := classIndex[label]
		if !ok {
			return nil, &InputError{File: file, Line: line, Msg: fmt.Sprintf(
				"gold label %s of task %s is not one of the classes of the labels (%s)",
				show(label), show(task), listClasses(d.Classes))}
		}
		if s, dup := first[task]; dup {
			if s.label != k {
				return nil, &InputError{File: file, Line: line, Msg: fmt.Sprintf(
					"task %s has gold label %s here but %s on %s",
					show(task), show(label), show(d.Classes[s.label]), src.where(s.line))}
			}
			continue
		}
		task = strings.Clone(task)
		first[task] = seen{label: k, line: line}
		size.IDs, size.Text = size.IDs+1, size.Text+len(task)
		if len(firstTasks) < 3 {
			firstTasks = append(firstTasks, task)
		}
		j, ok := taskIndex[task]
		if !ok {
			g.Unmatched++
			if len(g.UnmatchedTasks) < 5 {
				g.UnmatchedTasks = append(g.UnmatchedTasks, task)
			}
			continue
		}
		g.Task = append(g.Task, j)
		g.Label = append(g.Label, k)
	}
	if rows == 0 {
		return nil, src.noRows()
	}
	if len(g.Task) == 0 {
		msg := fmt.Sprintf("none of the %d gold tasks (such as %s) has noisy labels", g.Unmatched, showList(firstTasks))
		if len(d.Tasks) > 0 {
			n := min(len(d.Tasks), 3)
			msg += fmt.Sprintf(" (whose tasks look like %s)", showList(d.Tasks[:n]))
		}
		msg += "; do the two files use the same task identifiers?"
		return nil, &InputError{File: file, Msg: msg}
	}
	return g, nil
}

// isCorrupt reports whether err comes from corrupt or truncated compressed
// input.
func isCorrupt(err error) bool {
	return errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF)
}
