package data

import "github.com/consensuslab/consensus/data/internal/ingest"

// Builder accumulates labels given as strings and builds a Dataset.
// The zero value is an empty Builder that collects the classes from the
// labels, as NewBuilder(nil) returns.
//
// Labels are stored in chunks, so that adding one never copies the earlier
// ones, and a Builder uses 6 bytes per label (worker and class indices) as
// long as the labels of each task come together, as they do in files
// grouped by task, and the Dataset's offsets (8 bytes per task); once a
// task comes back after another task, it keeps each label's task index (4
// more bytes per label) instead of the offsets.
type Builder struct {
	b *ingest.Builder
}

// NewBuilder returns a Builder. If classes is not empty, it fixes the class
// list and its order, and Add refuses any other label; otherwise classes
// are collected from the labels and ordered by Build.
func NewBuilder(classes []string) (*Builder, error) {
	b, err := ingest.NewBuilder(classes)
	if err != nil {
		return nil, err
	}
	return &Builder{b: b}, nil
}

// Add records one noisy label. It returns an error if the class list is
// fixed and label is not in it, or if there are too many classes.
func (b *Builder) Add(task, worker, label string) error {
	if err := b.init(); err != nil {
		return err
	}
	return b.b.Add(task, worker, label)
}

// Len returns the number of labels added so far.
func (b *Builder) Len() int {
	if b.b == nil {
		return 0
	}
	return b.b.Len()
}

// Build returns the Dataset. Tasks and workers are indexed in order of first
// appearance. Classes keep the order given to NewBuilder; otherwise they are
// sorted numerically when all parse as numbers and lexically if not.
// The Builder is not changed: more labels may be added and Build called
// again.
func (b *Builder) Build() (*Dataset, error) {
	if err := b.init(); err != nil {
		return nil, err
	}
	return fromLabels(b.b.Build(false))
}

// init makes the zero Builder NewBuilder(nil)'s.
func (b *Builder) init() error {
	if b.b != nil {
		return nil
	}
	nb, err := ingest.NewBuilder(nil)
	b.b = nb
	return err
}

// SortClasses sorts class names in place: numerically if every name parses as
// a floating-point number, lexically otherwise.
func SortClasses(classes []string) { ingest.SortClasses(classes) }

// fromLabels returns the Dataset of the labels l of a Builder, checked by
// Validate, or err.
func fromLabels(l *ingest.Labels, err error) (*Dataset, error) {
	if err != nil {
		return nil, err
	}
	d := (*Dataset)(l)
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return d, nil
}
