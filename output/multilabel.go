package output

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
)

// MultiLabelColumns names the columns of a multi-label table and says how
// its label cells list classes.
type MultiLabelColumns struct {
	// Task, Worker and Label name the columns of the task, the worker and
	// the set of classes.
	Task, Worker, Label string
	// Sep separates the classes of a label cell, such as ",".
	Sep string
	// Empty, when not empty, is the text of a label that chooses no class.
	Empty string
}

// ErrNoClasses is wrapped by the error of LoadMultiLabels for data in
// which no label names a class.
var ErrNoClasses = errors.New("no label names a class")

// LoadMultiLabels reads the multi-label data of the table at path (format
// f, or by extension when f is empty, as dataio.LoadTable reads it): one
// label a row, whose label cell holds a set of classes split on cols.Sep,
// the text cols.Empty (when not empty) an empty set. A class named twice in
// one cell and an empty class between separators are refused with the file
// and line; data in which no label names a class is refused with an error
// wrapping ErrNoClasses. The classes are sorted as data.SortClasses sorts
// them.
func LoadMultiLabels(ctx context.Context, path string, f dataio.Format, opt dataio.ReadSettings, cols MultiLabelColumns) (*model.MultiLabels, error) {
	m := &model.MultiLabels{}
	taskIdx, workerIdx, classIdx := map[string]int32{}, map[string]int32{}, map[string]uint16{}
	index := func(idx map[string]int32, names *[]string, s string) int32 {
		i, ok := idx[s]
		if !ok {
			i = int32(len(*names))
			idx[s] = i
			*names = append(*names, strings.Clone(s))
		}
		return i
	}
	var sets [][]string
	names := dataio.Columns{Names: []string{cols.Task, cols.Worker, cols.Label}, Roles: []string{"task", "worker", "label"}}
	err := dataio.LoadTable(ctx, path, f, opt, names, func(cells []string, _ int) error {
		m.Task = append(m.Task, index(taskIdx, &m.Tasks, cells[0]))
		m.Worker = append(m.Worker, index(workerIdx, &m.Workers, cells[1]))
		var set []string
		if cols.Empty == "" || cells[2] != cols.Empty {
			for _, c := range strings.Split(cells[2], cols.Sep) {
				c = strings.TrimSpace(c)
				if c == "" {
					return fmt.Errorf("label %q has an empty class (separator %q)", cells[2], cols.Sep)
				}
				if slices.Contains(set, c) {
					return fmt.Errorf("label %q names class %q twice", cells[2], c)
				}
				set = append(set, strings.Clone(c))
			}
		}
		sets = append(sets, set)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, set := range sets {
		for _, c := range set {
			if _, ok := classIdx[c]; !ok {
				classIdx[c] = 0
				m.Classes = append(m.Classes, c)
			}
		}
	}
	data.SortClasses(m.Classes)
	for i, c := range m.Classes {
		classIdx[c] = uint16(i)
	}
	m.Chosen = make([][]uint16, len(sets))
	for i, set := range sets {
		for _, c := range set {
			m.Chosen[i] = append(m.Chosen[i], classIdx[c])
		}
	}
	if len(m.Classes) == 0 {
		return nil, fmt.Errorf("%s: %w", path, ErrNoClasses)
	}
	return m, nil
}

// MultiLabelTable returns the consensus file of consensus multilabel: for
// every task of the fit br, its chosen classes (BinaryRelevance.Chosen,
// ties broken with seed) joined by sep, or empty if it has none, and the
// probability of every class (p_<class>). It returns an error wrapping
// ErrArgument if br is nil or has not one fit per class.
func MultiLabelTable(br *model.BinaryRelevance, seed uint64, sep, empty string) (*Table, error) {
	if br == nil || br.Data == nil || len(br.Fits) == 0 || len(br.Fits) != len(br.Data.Classes) {
		return nil, argErrorf("a multi-label fit without one binary fit per class")
	}
	for _, r := range br.Fits {
		if r == nil || r.Data == nil || r.Data.NumTasks() != br.Fits[0].Data.NumTasks() {
			return nil, argErrorf("a multi-label fit whose binary fits are not all of its tasks")
		}
	}
	prob, chosen := br.Chosen(seed)
	classes := br.Data.Classes
	t := &Table{Columns: []string{"task", "labels"}, Numeric: []bool{false, false}}
	for _, c := range classes {
		t.Columns = append(t.Columns, "p_"+c)
		t.Numeric = append(t.Numeric, true)
	}
	for j, name := range br.Fits[0].Data.Tasks {
		names := make([]string, len(chosen[j]))
		for i, c := range chosen[j] {
			names[i] = classes[c]
		}
		cell := strings.Join(names, sep)
		if cell == "" {
			cell = empty
		}
		row := []string{name, cell}
		for _, p := range prob[j] {
			row = append(row, FormatProb(p))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}
