package ingest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/consensuslab/consensus/internal/mem"
)

// Builder accumulates labels given as strings and builds a data set
// (data.Builder is its public face).
// The zero value is not usable; call NewBuilder.
//
// Labels are stored in chunks, so that adding one never copies the earlier
// ones, and a Builder uses 6 bytes per label (worker and class indices) as
// long as the labels of each task come together, as they do in files
// grouped by task, and the Dataset's offsets (8 bytes per task); once a
// task comes back after another task, it keeps each label's task index (4
// more bytes per label) instead of the offsets.
type Builder struct {
	Fixed     bool // classes given up front
	Tasks     Intern
	Workers   Intern
	Raw       Intern         // class strings in order of first appearance
	scattered bool           // some task came back after another task
	ends      column[int]    // 0, then each task's last label plus one, until scattered
	task      column[int32]  // task index per label, once scattered
	worker    column[int32]  // worker index per label
	label     column[uint16] // raw class index per label
}

// MaxClasses is the largest number of classes of a data set: class
// indices are stored as uint16.
const MaxClasses = 1 << 16

// Labels holds noisy labels in the index form of data.Dataset, which has
// the same fields: see there.
type Labels struct {
	Name                    string
	Tasks, Workers, Classes []string
	Offsets                 []int
	Worker                  []int32
	Label                   []uint16
}

// ChunkLen is the number of values in a full chunk of a column.
const ChunkLen = 1 << 16

// column is a sequence of values stored in chunks, so that appending never
// copies the values already there. The chunks after the first hold
// ChunkLen values; the first holds ChunkLen values too, or more if the
// column was reserved before it filled (see reserve). Columns given the
// same reservations and the same number of values have chunks of the same
// lengths.
type column[T any] struct {
	full [][]T // the full chunks
	cur  []T   // the values after them
	done int   // values in full
	lim  int   // the length at which cur is full; 0 before the first value
}

// add appends v.
func (c *column[T]) add(v T) {
	if len(c.cur) == c.lim {
		c.next()
	}
	c.cur = append(c.cur, v)
}

// next makes room in cur: at the first value it sets the length of the
// first chunk (cur grows by append up to it); once cur is full, it moves
// cur to the full chunks and starts a chunk of ChunkLen values.
func (c *column[T]) next() {
	if c.lim == 0 {
		c.lim = ChunkLen
		return
	}
	c.full = append(c.full, c.cur)
	c.done += len(c.cur)
	c.cur, c.lim = make([]T, 0, ChunkLen), ChunkLen
}

// reserve makes the column hold up to n values in one slice, which flat
// can return without copying it, if n is more than it holds and than its
// first chunk would hold: the values so far move into a first chunk of n
// values. Columns of the same length that reserve the same n keep chunks
// of the same lengths.
func (c *column[T]) reserve(n int) {
	if n <= c.len() || len(c.full) == 0 && n <= max(c.lim, ChunkLen) {
		return
	}
	cur := mem.MakeCap[T](0, n)
	for _, ch := range c.chunks() {
		cur = append(cur, ch...)
	}
	c.full, c.cur, c.done, c.lim = nil, cur, 0, n
}

// firstLen returns the number of values the first chunk holds when full.
func (c *column[T]) firstLen() int {
	if len(c.full) > 0 {
		return len(c.full[0])
	}
	return max(c.lim, ChunkLen)
}

// len returns the number of values.
func (c *column[T]) len() int { return c.done + len(c.cur) }

// at returns the i-th value.
func (c *column[T]) at(i int) T {
	if len(c.full) == 0 {
		return c.cur[i]
	}
	if f := len(c.full[0]); i < f {
		return c.full[0][i]
	} else {
		i -= f
	}
	if k := i/ChunkLen + 1; k < len(c.full) {
		return c.full[k][i%ChunkLen]
	}
	return c.cur[i%ChunkLen]
}

// chunks returns the values as chunks (see column).
func (c *column[T]) chunks() [][]T {
	return append(c.full[:len(c.full):len(c.full)], c.cur)
}

// flat returns the values in one slice. If consume is true, it lets go of
// each full chunk once copied, c must not be used again, and a column in
// one chunk is returned without a copy; otherwise the slice is new.
func (c *column[T]) flat(consume bool) []T {
	if consume && len(c.full) == 0 {
		return c.cur[:len(c.cur):len(c.cur)]
	}
	out := make([]T, 0, c.len())
	for k, ch := range c.chunks() {
		out = append(out, ch...)
		if consume && k < len(c.full) {
			c.full[k] = nil
		}
	}
	return out
}

// NewBuilder returns a Builder. If classes is not empty, it fixes the class
// list and its order, and Add refuses any other label; otherwise classes
// are collected from the labels and ordered by Build.
func NewBuilder(classes []string) (*Builder, error) {
	b := &Builder{}
	b.Workers.inline = true
	b.ends.add(0)
	if len(classes) > 0 {
		b.Fixed = true
		for _, c := range classes {
			if _, dup := b.Raw.Find(c); dup {
				return nil, fmt.Errorf("class %q listed twice", c)
			}
			b.Raw.Get(c)
		}
	}
	return b, nil
}

// Add records one noisy label. It returns an error if the class list is
// fixed and label is not in it, or if there are too many classes.
func (b *Builder) Add(task, worker, label string) error {
	return b.AddHinted(task, worker, label, 0, false)
}

// Admit returns the index of label among the raw classes; for a label
// that is not a class yet, -1 if the Builder admits it as a new class
// (which Raw.Get then adds), or the error of a label it refuses: with
// Fixed set, one that is not among the classes given; otherwise one past
// MaxClasses distinct labels. It is the one rule of a label's admission,
// which every reading path applies: AddHinted, the block paths and the
// Parquet page path.
func (b *Builder) Admit(label string) (int32, error) {
	if c, ok := b.Raw.Find(label); ok {
		return c, nil
	}
	if b.Fixed {
		return -1, fmt.Errorf("label %q is not one of the classes %s", label, strings.Join(b.Raw.names.flat(false), ","))
	}
	if b.Raw.names.len() >= MaxClasses {
		return -1, fmt.Errorf("more than %d distinct labels", MaxClasses)
	}
	return -1, nil
}

// AddHinted is Add for a task whose hash h is known if hashed is set (and whose
// home slot was then prefetched, see taskHints).
func (b *Builder) AddHinted(task, worker, label string, h uint64, hashed bool) error {
	// A new task's home slot is prefetched first, so that its likely
	// cache miss overlaps the lookups of the label and the worker.
	known := b.Tasks.IsLast(task)
	if !known && !hashed {
		h = b.Tasks.Hash(task)
		b.Tasks.PrefetchHome(h)
	}
	c, err := b.Admit(label)
	if err != nil {
		return err
	}
	if c < 0 {
		c = b.Raw.Get(label)
	}
	w := b.Workers.Get(worker)
	t := b.Tasks.lastI
	if !known {
		t = b.Tasks.GetHashed(task, h)
	}
	b.AddIndex(t, w, uint16(c))
	return nil
}

// addIndex records one label given by the indices of its task, worker and
// raw class, which the Builder's interns gave.
func (b *Builder) AddIndex(t, w int32, c uint16) {
	if !b.scattered {
		switch n := int32(b.ends.len() - 1); t {
		case n - 1: // the task of the previous label
			b.ends.cur[len(b.ends.cur)-1]++
		case n: // a new task
			b.ends.add(b.label.len() + 1)
		default:
			b.scatter()
		}
	}
	if b.scattered {
		b.task.add(t)
	}
	b.worker.add(w)
	b.label.add(c)
}

// scatter switches from keeping the end of each task's labels to recording
// the task of every label.
func (b *Builder) scatter() {
	b.task.reserve(b.worker.firstLen())
	t, prev := int32(-1), 0
	for _, ch := range b.ends.chunks() {
		for _, end := range ch {
			for range end - prev {
				b.task.add(t)
			}
			t, prev = t+1, end
		}
	}
	b.ends = column[int]{}
	b.scattered = true
}

// reserve prepares b for about labels labels of about tasks tasks in all,
// so that its columns and task table need not grow and Build need not copy
// them; the estimates need not be exact.
func (b *Builder) reserve(labels, tasks int) {
	tasks = min(tasks, labels)
	b.worker.reserve(labels)
	b.label.reserve(labels)
	if b.scattered {
		b.task.reserve(labels)
	} else {
		b.ends.reserve(tasks + 1)
	}
	b.Tasks.reserve(tasks)
}

// Len returns the number of labels added so far.
func (b *Builder) Len() int { return b.label.len() }

// Build returns the labels added, to be checked and made a data.Dataset:
// tasks and workers are indexed in order of first appearance; classes keep
// the order given to NewBuilder, or are sorted by SortClasses. If consume
// is false, the Builder is not changed: more labels may be added and Build
// called again. If consume is true, the Builder frees its memory as it
// builds, which lowers the peak memory of a reader, and must not be used
// again.
func (b *Builder) Build(consume bool) (*Labels, error) {
	if consume {
		for _, in := range []*Intern{&b.Tasks, &b.Workers} {
			in.slots, in.short, in.last = nil, nil, ""
		}
	}
	raw := b.Raw.names.flat(false)
	classes := slices.Clone(raw)
	if !b.Fixed {
		SortClasses(classes)
	}
	pos := make(map[string]uint16, len(classes))
	for i, name := range classes {
		pos[name] = uint16(i)
	}
	remap := make([]uint16, len(classes))
	for i, name := range raw {
		remap[i] = pos[name]
	}
	tasks, workers := b.Tasks.names.flat(consume), b.Workers.names.flat(consume)
	if b.scattered {
		return FromChunks(tasks, workers, classes, b.task.chunks(), b.worker.chunks(), b.label.chunks(), remap)
	}
	d := &Labels{Tasks: tasks, Workers: workers, Classes: classes, Offsets: b.ends.flat(consume)}
	d.Worker = b.worker.flat(consume)
	if consume && len(b.label.full) == 0 {
		// One chunk: remapped in place.
		d.Label = b.label.flat(true)
		for i, l := range d.Label {
			d.Label[i] = remap[l]
		}
	} else {
		d.Label = make([]uint16, 0, b.label.len())
		for k, ch := range b.label.chunks() {
			for _, l := range ch {
				d.Label = append(d.Label, remap[l])
			}
			if consume && k < len(b.label.full) {
				b.label.full[k] = nil
			}
		}
	}
	return d, nil
}

// SortClasses sorts class names in place: numerically if every name parses as
// a floating-point number, lexically otherwise.
func SortClasses(classes []string) {
	nums := make(map[string]float64, len(classes))
	for _, c := range classes {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil {
			slices.Sort(classes)
			return
		}
		nums[c] = v
	}
	slices.SortStableFunc(classes, func(a, b string) int {
		switch {
		case nums[a] < nums[b]:
			return -1
		case nums[a] > nums[b]:
			return 1
		}
		return strings.Compare(a, b)
	})
}

// FromChunks is data.FromIndices for indices given in chunks, the k-th chunks of
// task, worker and label being of the same length. If remap is not nil,
// class index l is stored as remap[l].
func FromChunks(tasks, workers, classes []string, task, worker [][]int32, label [][]uint16, remap []uint16) (*Labels, error) {
	for _, ch := range task {
		for _, t := range ch {
			if t < 0 || int(t) >= len(tasks) {
				return nil, fmt.Errorf("data: task index %d out of range", t)
			}
		}
	}
	d := &Labels{Tasks: tasks, Workers: workers, Classes: classes}
	d.Offsets, d.Worker, d.Label = groupByTask(len(tasks), task, worker, label, remap)
	return d, nil
}

// groupByTask is a stable counting sort of the labels by task index, as
// described at FromChunks.
func groupByTask(numTasks int, task, worker [][]int32, label [][]uint16, remap []uint16) (offsets []int, w []int32, l []uint16) {
	offsets = make([]int, numTasks+1)
	for _, ch := range task {
		for _, t := range ch {
			offsets[t+1]++
		}
	}
	for j := 0; j < numTasks; j++ {
		offsets[j+1] += offsets[j]
	}
	next := make([]int, numTasks)
	copy(next, offsets[:numTasks])
	w = make([]int32, offsets[numTasks])
	l = make([]uint16, offsets[numTasks])
	for k, ch := range task {
		for i, t := range ch {
			p := next[t]
			next[t]++
			w[p] = worker[k][i]
			if remap != nil {
				l[p] = remap[label[k][i]]
			} else {
				l[p] = label[k][i]
			}
		}
	}
	return offsets, w, l
}

// IDs returns the number of distinct tasks and workers of b.
func (b *Builder) IDs() int { return b.Tasks.names.len() + b.Workers.names.len() }

// Size is what the identifiers of a Builder take, for a reader's memory
// limit: the number of distinct tasks and workers, and the bytes of
// their text.
type Size struct {
	IDs  int
	Text int
}

// Size returns the number of distinct tasks and workers of b and the
// bytes of their text.
func (b *Builder) Size() Size {
	return Size{IDs: b.IDs(), Text: b.Tasks.stored + b.Workers.stored}
}
