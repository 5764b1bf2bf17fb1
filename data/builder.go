package data

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Builder accumulates labels given as strings and builds a Dataset.
// The zero value is not usable; call NewBuilder.
//
// Labels are stored in chunks, so that adding one never copies the earlier
// ones, and a Builder uses 6 bytes per label (worker and class indices) as
// long as the labels of each task come together, as they do in files
// grouped by task; once a task comes back after another task, it also
// keeps each label's task index (4 more bytes per label).
type Builder struct {
	fixed     bool // classes given up front
	tasks     intern
	workers   intern
	raw       intern         // class strings in order of first appearance
	scattered bool           // some task came back after another task
	count     column[int32]  // labels per task, until scattered
	task      column[int32]  // task index per label, once scattered
	worker    column[int32]  // worker index per label
	label     column[uint16] // raw class index per label
}

// chunkLen is the number of values in a full chunk of a column.
const chunkLen = 1 << 16

// column is a sequence of values stored in chunks of chunkLen values, so
// that appending never copies the values already there.
type column[T any] struct {
	full [][]T // chunks of chunkLen values
	cur  []T   // the values after them, at most chunkLen
}

// add appends v.
func (c *column[T]) add(v T) {
	if len(c.cur) == chunkLen {
		c.full = append(c.full, c.cur)
		c.cur = make([]T, 0, chunkLen)
	}
	c.cur = append(c.cur, v)
}

// len returns the number of values.
func (c *column[T]) len() int { return len(c.full)*chunkLen + len(c.cur) }

// at returns the i-th value.
func (c *column[T]) at(i int) T {
	if k := i / chunkLen; k < len(c.full) {
		return c.full[k][i%chunkLen]
	}
	return c.cur[i%chunkLen]
}

// chunks returns the values as chunks: all but the last hold chunkLen
// values. Columns of the same length have chunks of the same lengths.
func (c *column[T]) chunks() [][]T {
	return append(c.full[:len(c.full):len(c.full)], c.cur)
}

// flat returns the values in one new slice. If consume is true, it lets
// go of each full chunk once copied, and c must not be used again.
func (c *column[T]) flat(consume bool) []T {
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
	if len(classes) > 0 {
		b.fixed = true
		for _, c := range classes {
			if _, dup := b.raw.find(c); dup {
				return nil, fmt.Errorf("class %q listed twice", c)
			}
			b.raw.get(c)
		}
	}
	return b, nil
}

// Add records one noisy label. It returns an error if the class list is
// fixed and label is not in it, or if there are too many classes.
func (b *Builder) Add(task, worker, label string) error {
	c, ok := b.raw.find(label)
	if !ok {
		if b.fixed {
			return fmt.Errorf("label %q is not one of the classes %s", label, strings.Join(b.raw.names.flat(false), ","))
		}
		if b.raw.names.len() >= MaxClasses {
			return fmt.Errorf("more than %d distinct labels", MaxClasses)
		}
		c = b.raw.get(label)
	}
	b.addIndex(b.tasks.get(task), b.workers.get(worker), uint16(c))
	return nil
}

// addIndex records one label given by the indices of its task, worker and
// raw class, which the Builder's interns gave.
func (b *Builder) addIndex(t, w int32, c uint16) {
	if !b.scattered {
		switch n := int32(b.count.len()); t {
		case n - 1: // the task of the previous label
			b.count.cur[len(b.count.cur)-1]++
		case n: // a new task
			b.count.add(1)
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

// scatter switches from counting the labels of each task to recording the
// task of every label.
func (b *Builder) scatter() {
	for j, ch := range b.count.chunks() {
		for i, n := range ch {
			for range n {
				b.task.add(int32(j*chunkLen + i))
			}
		}
	}
	b.count = column[int32]{}
	b.scattered = true
}

// Len returns the number of labels added so far.
func (b *Builder) Len() int { return b.label.len() }

// Build returns the Dataset. Tasks and workers are indexed in order of first
// appearance. Classes keep the order given to NewBuilder; otherwise they are
// sorted numerically when all parse as numbers and lexically if not.
// The Builder is not changed: more labels may be added and Build called
// again.
func (b *Builder) Build() (*Dataset, error) { return b.build(false) }

// build is Build. If consume is true, the Builder frees its memory as it
// builds, which lowers the peak memory of a reader, and must not be used
// again.
func (b *Builder) build(consume bool) (*Dataset, error) {
	if consume {
		for _, in := range []*intern{&b.tasks, &b.workers} {
			in.slots, in.last = nil, ""
		}
	}
	raw := b.raw.names.flat(false)
	classes := slices.Clone(raw)
	if !b.fixed {
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
	tasks, workers := b.tasks.names.flat(consume), b.workers.names.flat(consume)
	if b.scattered {
		return fromChunks(tasks, workers, classes, b.task.chunks(), b.worker.chunks(), b.label.chunks(), remap)
	}
	d := &Dataset{Tasks: tasks, Workers: workers, Classes: classes, Offsets: make([]int, 1, len(tasks)+1)}
	for _, ch := range b.count.chunks() {
		for _, n := range ch {
			d.Offsets = append(d.Offsets, d.Offsets[len(d.Offsets)-1]+int(n))
		}
	}
	d.Worker = b.worker.flat(consume)
	d.Label = make([]uint16, 0, b.label.len())
	for k, ch := range b.label.chunks() {
		for _, l := range ch {
			d.Label = append(d.Label, remap[l])
		}
		if consume && k < len(b.label.full) {
			b.label.full[k] = nil
		}
	}
	if err := d.Validate(); err != nil {
		return nil, err
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
