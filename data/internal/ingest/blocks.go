package ingest

import (
	"bytes"
	"cmp"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/consensuslab/consensus/internal/mem"
)

// ChunkSize is the size of the blocks of lines that ReadBlocks parses in
// parallel; tests make it small.
var ChunkSize = 1 << 20

// ChunkThreads is the number of goroutines that parse blocks in
// ReadBlocks; 0 means GOMAXPROCS. Tests set it to compare the one-goroutine
// path with the parallel one.
var ChunkThreads = 0

// BlockInput is the input of ReadBlocks: a reader and the error that
// ended it, if any, the bytes read from it that were not used (carry),
// the lines and the bytes of the input before them, the size of the
// whole input (0: not known), the longest line the reader gives (it
// fails on a longer one; 0 means MaxLine), which bounds the blocks
// (GrowLine), and the most labels its memory limit lets it read (0: no
// limit), which bounds the Builder's reservation (ReserveFor).
type BlockInput struct {
	R         io.Reader
	Err       error
	Carry     []byte
	Line      int
	Read      int64
	Size      int64
	MaxLine   int
	MaxLabels int
}

// BlockRest is what ReadBlocks leaves: a reader of the input from the first
// line it did not add on, the lines and bytes of the input before that
// line, and whether it sized the Builder (ReserveFor).
type BlockRest struct {
	R        io.Reader
	Line     int
	Read     int64
	Reserved bool
}

// ReadBlocks adds the rows of in to b in parallel, as long as a parser
// from newParser finds them plain and b accepts their labels. The input is
// cut into blocks of whole lines; goroutines split the lines of a block
// and number its ids locally, in order of first appearance, with the
// hashes of the Builder's interns; the blocks are then merged into b in
// order, so that tasks, workers and classes are numbered by first
// appearance in the input, whatever the number of goroutines. At the first
// row that is not plain it stops and returns the rest of the input from
// that row's line on, which the row-by-row path then reads. The guard g
// sees every row, with its line and the Builder's Size after it, as the row-by-row path shows them; ReadBlocks returns
// the guard's error, if it gives one. header holds the file's column
// names: a row whose task is one of them may repeat the header, which the
// row-by-row path decides.
func ReadBlocks(in BlockInput, newParser func() *ChunkParser, b *Builder, g Guard, header *HeaderSet) (BlockRest, error) {
	b.Tasks.Hash("")
	b.Workers.Hash("")
	n := ChunkThreads
	if n <= 0 {
		n = max(1, runtime.GOMAXPROCS(0))
	}
	// On one goroutine the blocks are not parsed ahead of the merge: each
	// row goes straight into b (see direct), which saves the local
	// numbering of ids.
	parsers := n
	if n == 1 {
		parsers = 0
	}
	p := &chunkPipe{
		in:    in.R,
		inErr: in.Err,
		limit: cmp.Or(in.MaxLine, MaxLine) + ChunkSize,
		jobs:  make(chan *chunk, parsers),
		order: make(chan *chunk, 2*n),
		free:  make(chan *chunk, 3*n+2),
	}
	p.carry = append([]byte(nil), in.Carry...)
	var wg sync.WaitGroup
	single := newParser()
	for range parsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newParser()
			c.hashers = [3]idHash{b.Tasks.hasher, b.Workers.hasher, b.Tasks.hasher}
			for job := range p.jobs {
				c.parse(job)
				close(job.done)
			}
		}()
	}
	go p.read()

	line := in.Line   // lines before the current block
	read := in.Read   // bytes of the input before the current block
	reserved := false // whether b was sized
	var rest [][]byte
	var failed error
	for job := range p.order {
		if failed != nil {
			continue
		}
		if rest != nil {
			if parsers > 0 {
				<-job.done // parsed ahead: its decoded values are to be undone
			}
			job.edits.undo(job.data, 0)
			rest = append(rest, job.data)
			continue
		}
		var stop *chunkRow // the first row not added, if any
		var err error
		if parsers == 0 {
			stop, err = single.direct(job, b, g, line, header)
		} else {
			<-job.done
			var added int
			added, err = job.merge(b, g, line, header)
			if added < len(job.rows) {
				stop = &job.rows[added]
			}
		}
		if err != nil {
			failed = err
			p.stop.Store(true)
			continue
		}
		if stop != nil {
			p.stop.Store(true)
			job.edits.undo(job.data, int(stop.at))
			rest = append(rest, job.data[stop.at:])
			line += int(stop.line)
			read += int64(stop.at)
			continue
		}
		line += job.lines
		read += int64(len(job.data))
		if !reserved && read-in.Read >= int64(ChunkSize/2) {
			// Sized from half a block of rows at least: a block cut
			// short by a long line after it is no sample of the input.
			reserved = true
			ReserveFor(b, in.Size, int(read), in.MaxLabels)
		}
		select {
		case p.free <- job:
		default:
		}
	}
	wg.Wait()
	if failed != nil {
		return BlockRest{}, failed
	}
	if p.err == nil || p.err == io.EOF {
		rest = append(rest, p.carry)
	}
	// Otherwise the carry is the start of a line that a read error cut:
	// the readers fail on that line with the error, whatever it holds, so
	// it is dropped rather than copied again (it may be as long as the
	// reader's line limit).
	readers := make([]io.Reader, 0, len(rest)+1)
	for _, r := range rest {
		readers = append(readers, bytes.NewReader(r))
	}
	tail := in.R
	if p.err != nil {
		tail = ErrReader{p.err}
	}
	readers = append(readers, tail)
	return BlockRest{R: io.MultiReader(readers...), Line: line, Read: read, Reserved: reserved}, nil
}

// ReserveFor reserves b for an input of size bytes (0 if not known) of
// which the first read bytes gave its labels and tasks so far, scaling
// them with a margin of 10 %, for most labels at most (0: no bound), the
// most that the reader's memory limit lets it read.
func ReserveFor(b *Builder, size int64, read int, most int) {
	if size <= int64(read) || read <= 0 {
		return
	}
	scale := 1.1 * float64(size) / float64(read)
	if most > 0 && b.Len() > 0 {
		scale = min(scale, float64(most)/float64(b.Len()))
	}
	b.reserve(int(scale*float64(b.Len()))+1, int(scale*float64(b.Tasks.names.len()))+1)
}

// chunkPipe carries the blocks of ReadBlocks.
type chunkPipe struct {
	in    io.Reader   // the input
	inErr error       // the error that ended it before the blocks, if any
	limit int         // the capacity a block grows to at most (GrowLine)
	jobs  chan *chunk // to the parsers
	order chan *chunk // to the merge, in input order
	free  chan *chunk // merged chunks, to reuse
	stop  atomic.Bool // the merge needs no more blocks
	carry []byte      // input read but not in a block, once order is closed
	err   error       // the error that ended the input, if it did

	// The blocks and their rows are cut from slabs of huge pages: each
	// block is fresh memory when first used, which would otherwise be
	// mapped 4 KiB at a time.
	blocks slab[byte]
	rows   slab[chunkRow]
}

// slab hands out empty slices of one capacity, cut from one allocation
// advised to huge pages (mem.Make), and slices of their own once it is used
// up.
type slab[T any] struct {
	left []T // what is left of the allocation; nil until made
	each int // the capacity of the slices cut from it
}

// cut returns an empty slice of capacity at least n. The first call makes
// the allocation for count slices of capacity each (at least n); a later n
// beyond each gets a slice of its own.
func (s *slab[T]) cut(n, each, count int) []T {
	if s.left == nil {
		s.each = each
		s.left = mem.Make[T](count * each)
	}
	if n > s.each || len(s.left) < s.each {
		return make([]T, 0, n)
	}
	r := s.left[:0:s.each]
	s.left = s.left[s.each:]
	return r
}

// read cuts the input into blocks of whole lines and hands them out, until
// the input ends or the merge stops.
func (p *chunkPipe) read() {
	defer close(p.order)
	defer close(p.jobs)
	direct := cap(p.jobs) == 0 // no parsers: the merge reads the blocks
	err := p.inErr
	for !p.stop.Load() {
		job := &chunk{}
		select {
		case job = <-p.free:
		default:
		}
		if cap(job.data) < ChunkSize {
			// A new block: made at its full size at once, rather than
			// grown by doubling, which would copy it and touch twice the
			// memory.
			// The slab holds as many blocks as the free list: those
			// in flight at most.
			size := ChunkSize + ChunkSize/8
			job.data = p.blocks.cut(size, size, cap(p.free))
		}
		buf := append(job.data[:0], p.carry...)
		end := bytes.LastIndexByte(buf, '\n') + 1
		for err == nil && (len(buf) < ChunkSize || end == 0) {
			if len(buf) == cap(buf) {
				buf = GrowLine(buf, 1, p.limit)
			}
			var m int
			m, err = p.in.Read(buf[len(buf):cap(buf)])
			if i := bytes.LastIndexByte(buf[len(buf):len(buf)+m], '\n'); i >= 0 {
				end = len(buf) + i + 1
			}
			buf = buf[:len(buf)+m]
		}
		if err == io.EOF {
			end = len(buf) // the last line may lack its '\n'
		}
		if end == 0 {
			p.carry = buf
			break
		}
		p.carry = append(p.carry[:0:0], buf[end:]...)
		job.data = buf[:end]
		job.edits.reset()
		if !direct {
			// The rows at their full number at once: grown by doubling
			// in parse, they would touch about twice their memory. The
			// slab's slices have room for a sixteenth more rows than the
			// first block's.
			if n := bytes.Count(job.data, newline) + 1; cap(job.rows) < n {
				job.rows = p.rows.cut(n, n+n/16, cap(p.free))
			}
			job.done = make(chan struct{})
			p.jobs <- job
		}
		p.order <- job
		if err != nil {
			break
		}
	}
	p.err = err
}

// chunk is a block of whole lines and, once done is closed, its rows.
type chunk struct {
	data  []byte
	done  chan struct{}
	rows  []chunkRow
	ids   [3]localIDs // tasks, workers, labels
	fresh [2][]int32  // rows where tasks and workers new to the Builder first appear
	text  [2][]int32  // and the bytes of their text
	stop  bool        // rows ends before a row that is not plain
	lines int         // lines in data
	homes []uint32    // merge's home slots to prefetch
	edits edits       // the values decoded in data, to undo before data is read again
}

// chunkRow is a data row of a chunk: where its line starts, the line's
// number within the chunk, and its local task, worker and label ids.
type chunkRow struct {
	at, line int32
	id       [3]int32
}

// merge adds the rows of c to b, numbering the ids of c in b, and returns
// the number of rows added: all of them, or those before the first row
// that is not plain, whose label b does not accept or checkRow refuses (NaN
// or infinite), or whose task is a column name (so that the row may repeat
// the header: the row-by-row path decides). line is the number
// of lines before c, for the guard g, whose error ends the merge.
func (c *chunk) merge(b *Builder, g Guard, line int, header *HeaderSet) (int, error) {
	stop := len(c.rows)
	if c.stop {
		stop--
	}
	labels := &c.ids[2]
	for i := range labels.off {
		first := int(labels.first[i])
		if first >= stop {
			break
		}
		s := labels.name(c.data, i)
		if NonFiniteText(s) {
			stop = first
			break
		}
		k, err := b.Admit(s)
		if err != nil {
			stop = first
			break
		}
		if k < 0 {
			k = b.Raw.Get(s)
		}
		labels.global[i] = k
	}
	tasks := &c.ids[0]
	for i := range tasks.off {
		if first := int(tasks.first[i]); first >= stop {
			break
		} else if HeaderLike(tasks.name(c.data, i), header) {
			stop = first
			break
		}
	}
	for j, in := range []*Intern{&b.Tasks, &b.Workers} {
		ids := &c.ids[j]
		c.fresh[j], c.text[j] = c.fresh[j][:0], c.text[j][:0]
		for i := range ids.off {
			if int(ids.first[i]) >= stop {
				break
			}
			if i%directBatch == 0 {
				// Bring the home slots of the next ids into the cache
				// at once, so that their misses overlap (see direct).
				c.homes = in.PrefetchHomes(ids.hash[i:min(i+directBatch, len(ids.hash))], c.homes)
			}
			n := in.names.len()
			name := ids.name(c.data, i)
			ids.global[i] = in.GetHashed(name, ids.hash[i])
			if in.names.len() > n {
				c.fresh[j] = append(c.fresh[j], ids.first[i])
				c.text[j] = append(c.text[j], int32(len(name)))
			}
		}
	}
	gl := [3][]int32{c.ids[0].global, c.ids[1].global, c.ids[2].global}
	if g == nil {
		for _, r := range c.rows[:stop] {
			b.AddIndex(gl[0][r.id[0]], gl[1][r.id[1]], uint16(gl[2][r.id[2]]))
		}
		return stop, nil
	}
	// The distinct ids and their text after each row, as b would count
	// them had the rows been added one by one.
	size := b.Size()
	for j := range c.fresh {
		size.IDs -= len(c.fresh[j])
		for _, n := range c.text[j] {
			size.Text -= int(n)
		}
	}
	var next [2]int
	for i, r := range c.rows[:stop] {
		b.AddIndex(gl[0][r.id[0]], gl[1][r.id[1]], uint16(gl[2][r.id[2]]))
		for j, f := range c.fresh {
			for next[j] < len(f) && int(f[next[j]]) <= i {
				size.IDs++
				size.Text += int(c.text[j][next[j]])
				next[j]++
			}
		}
		if err := g.Row(line+int(r.line)+1, size); err != nil {
			return i + 1, err
		}
	}
	return stop, nil
}

// direct adds the rows of c to b one by one, as parse and then merge
// would add them, and returns the first row it does not add, if any: a row
// that is not plain, whose label b does not accept or is NaN or infinite,
// or whose task is the task column's name. It checks a row before it
// changes b, so a row it does not add leaves b as it was. line is the
// number of lines before c, for the guard g, whose error ends it.
//
// It splits the lines in batches of directBatch first, hashing each task
// that differs from the previous row's and prefetching its home slot in
// b's task table, so that the cache misses of a batch's new tasks, nearly all
// of the misses, overlap instead of coming one after the other.
func (p *ChunkParser) direct(c *chunk, b *Builder, g Guard, line int, header *HeaderSet) (*chunkRow, error) {
	data := c.data
	var lastTask, lastLabel []byte // cells of the previous row, for runs of one id
	var lastID [3]int32
	have := false
	n := int32(0) // lines split so far
	if len(p.batch) < directBatch {
		p.batch = make([]splitRow, directBatch)
	}
	p.edits = &c.edits
	defer func() { p.cells, p.edits = p.own, nil }()
	for pos := 0; pos < len(data); {
		// Each line is split into its row of the batch in place: cells
		// copied from a scratch array were read back as 16-byte words
		// just written as 4-byte ones, each a failed store forwarding.
		k := 0
		for pos < len(data) && k < directBatch {
			r := &p.batch[k]
			p.cells = r.cells[:]
			next, kind := p.SplitLine(data, pos)
			r.at, r.line, r.kind = int32(pos), n, kind
			r.hash, r.hashed, r.worker = 0, false, 0
			pos = next
			n++
			if kind == LineBlank {
				continue
			}
			k++
			if kind == LineOdd {
				break
			}
		}
		rows := p.batch[:k]
		// Hash the tasks, then prefetch their home slots, so that their
		// cache misses overlap.
		prev, havePrev := lastTask, have
		for i := range rows {
			r := &rows[i]
			if r.kind != LinePlain {
				break
			}
			task := data[r.cells[0][0]:r.cells[0][1]]
			if !havePrev || !bytes.Equal(task, prev) {
				r.hash, r.hashed = b.Tasks.hasher.Bytes(task), true
			}
			prev, havePrev = task, true
		}
		p.hashes = p.hashes[:0]
		for i := range rows {
			if rows[i].hashed {
				p.hashes = append(p.hashes, rows[i].hash)
			}
		}
		p.homes = b.Tasks.PrefetchHomes(p.hashes, p.homes)
		// Look up the workers that the intern knows, in a loop whose
		// iterations do not depend on each other, so that their loads
		// overlap; a new worker is added with its row.
		for i := range rows {
			r := &rows[i]
			if r.kind != LinePlain {
				break
			}
			s := BytesString(data[r.cells[1][0]:r.cells[1][1]])
			if _, w, ok := b.Workers.Probe(s, b.Workers.Hash(s)); ok {
				r.worker = w + 1
			}
		}
		for i := range rows {
			r := &rows[i]
			if r.kind == LineOdd {
				return r.stop(), nil
			}
			taskText := data[r.cells[0][0]:r.cells[0][1]]
			labelText := data[r.cells[2][0]:r.cells[2][1]]
			// The loop above hashed every task that differs from the
			// previous row's and looked up every known worker.
			sameTask := !r.hashed
			label, newLabel := lastID[2], false
			if !have || !bytes.Equal(labelText, lastLabel) {
				s := BytesString(labelText)
				if NonFiniteText(s) {
					return r.stop(), nil
				}
				k, err := b.Admit(s)
				if err != nil {
					return r.stop(), nil
				}
				label, newLabel = k, k < 0
			}
			if !sameTask && HeaderLike(BytesString(taskText), header) {
				return r.stop(), nil
			}
			if newLabel {
				label = b.Raw.Get(BytesString(labelText))
			}
			task := lastID[0]
			if !sameTask {
				task = b.Tasks.GetHashed(BytesString(taskText), r.hash)
			}
			worker := r.worker - 1
			if worker < 0 { // a new worker, or one the batch added
				s := BytesString(data[r.cells[1][0]:r.cells[1][1]])
				worker = b.Workers.GetHashed(s, b.Workers.Hash(s))
			}
			b.AddIndex(task, worker, uint16(label))
			lastTask, lastLabel, lastID, have = taskText, labelText, [3]int32{task, worker, label}, true
			if g != nil {
				if err := g.Row(line+int(r.line)+1, b.Size()); err != nil {
					return nil, err
				}
			}
		}
	}
	c.lines = int(n)
	return nil, nil
}

// directBatch is the number of lines direct splits ahead of adding them.
const directBatch = 256

// splitRow is a line that direct has split: where it starts, its number
// in the chunk, its kind, its wanted cells, for a task that differs from
// the previous row's, the task's hash, and the worker's index if the
// workers' intern knew it before the batch was added.
type splitRow struct {
	at, line int32
	kind     int
	cells    [3][2]int32
	hash     uint64
	hashed   bool
	worker   int32 // the worker's index plus one, if known before the row is added; else 0
}

// stop returns r as the first row that direct does not add.
func (r *splitRow) stop() *chunkRow { return &chunkRow{at: r.at, line: r.line} }

// ErrReader returns its error on every Read.
type ErrReader struct{ Err error }

// ASCIISpace reports the ASCII bytes that unicode.IsSpace accepts.
var ASCIISpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// Guard is told of every row that the block paths add, with its line and
// the Builder's Size after it, and stops the reading with its error; a nil
// Guard checks nothing.
type Guard interface {
	Row(line int, size Size) error
}

func (e ErrReader) Read([]byte) (int, error) { return 0, e.Err }

// newline is the separator that read counts.
var newline = []byte{'\n'}
