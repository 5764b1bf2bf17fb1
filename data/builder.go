package data

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Builder accumulates labels given as strings and builds a Dataset.
// The zero value is not usable; call NewBuilder.
type Builder struct {
	fixed   bool // classes given up front
	tasks   intern
	workers intern
	raw     intern // class strings in order of first appearance
	task    []int32
	worker  []int32
	label   []uint16
}

// intern maps strings to dense indices in order of first appearance.
type intern struct {
	index map[string]int32
	names []string
}

func (in *intern) get(s string) int32 {
	if i, ok := in.index[s]; ok {
		return i
	}
	if in.index == nil {
		in.index = make(map[string]int32)
	}
	i := int32(len(in.names))
	s = strings.Clone(s) // do not keep a caller's larger buffer alive
	in.index[s] = i
	in.names = append(in.names, s)
	return i
}

// NewBuilder returns a Builder. If classes is not empty, it fixes the class
// list and its order, and Add refuses any other label; otherwise classes
// are collected from the labels and ordered by Build.
func NewBuilder(classes []string) (*Builder, error) {
	b := &Builder{}
	if len(classes) > 0 {
		b.fixed = true
		for _, c := range classes {
			if _, dup := b.raw.index[c]; dup {
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
	c, ok := b.raw.index[label]
	if !ok {
		if b.fixed {
			return fmt.Errorf("label %q is not one of the classes %s", label, strings.Join(b.raw.names, ","))
		}
		if len(b.raw.names) >= MaxClasses {
			return fmt.Errorf("more than %d distinct labels", MaxClasses)
		}
		c = b.raw.get(label)
	}
	b.task = append(b.task, b.tasks.get(task))
	b.worker = append(b.worker, b.workers.get(worker))
	b.label = append(b.label, uint16(c))
	return nil
}

// Len returns the number of labels added so far.
func (b *Builder) Len() int { return len(b.task) }

// Build returns the Dataset. Tasks and workers are indexed in order of first
// appearance. Classes keep the order given to NewBuilder; otherwise they are
// sorted numerically when all parse as numbers and lexically if not.
func (b *Builder) Build() (*Dataset, error) {
	classes := slices.Clone(b.raw.names)
	if !b.fixed {
		SortClasses(classes)
	}
	pos := make(map[string]uint16, len(classes))
	for i, name := range classes {
		pos[name] = uint16(i)
	}
	remap := make([]uint16, len(b.raw.names))
	for i, name := range b.raw.names {
		remap[i] = pos[name]
	}
	label := make([]uint16, len(b.label))
	for i, l := range b.label {
		label[i] = remap[l]
	}
	return FromIndices(b.tasks.names, b.workers.names, classes, b.task, b.worker, label)
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
