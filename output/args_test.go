package output

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/model"
)

// TestBadArguments checks that the writers return an error naming the
// problem, instead of panicking, on a nil result and on a File without a
// Write function, and that WriteFiles then writes none of the files.
func TestBadArguments(t *testing.T) {
	var buf bytes.Buffer
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"consensus", func() error { return WriteConsensus(&buf, nil, 1, dataio.CSV) }, "no fit result"},
		{"consensus/no data", func() error { return WriteConsensus(&buf, &model.Result{}, 1, dataio.CSV) }, "no fit result"},
		{"workers", func() error { return WriteWorkers(&buf, nil, dataio.CSV) }, "no fit result"},
		{"tasks", func() error { return WriteTasks(&buf, nil, dataio.CSV) }, "no fit result"},
		{"crowd-kit", func() error { return WriteConsensusCrowdKit(&buf, nil, 1, dataio.CSV) }, "no fit result"},
		{"file", func() error { return WriteConsensusFile(good, "", nil, 1) }, "no fit result"},
		{"write file", func() error { return WriteFile(good, nil) }, `file 1 ("` + good + `") has no Write function`},
		{"write files", func() error {
			ok := File{Path: good, Write: func(w io.Writer) error { _, err := w.Write([]byte("x\n")); return err }}
			return WriteFiles(context.Background(), ok, File{Path: filepath.Join(dir, "b.csv")})
		}, "file 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.run(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
			if _, err := os.Stat(good); !os.IsNotExist(err) {
				t.Errorf("%s exists after the error (%v)", good, err)
			}
		})
	}
}

// TestArgumentErrors checks that the writers and readers given a nil or
// mismatched argument return an error wrapping ErrArgument, naming the
// problem, instead of panicking.
func TestArgumentErrors(t *testing.T) {
	d, err := data.FromIndices([]string{"t1", "t2"}, []string{"a", "b"}, []string{"x", "y"},
		[]int32{0, 0, 1, 1}, []int32{0, 1, 0, 1}, []uint16{0, 0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	wt := &WorkerTable{Workers: []string{"x"}, Columns: []string{"skill"}, Values: []float64{1}, Lines: []int{2}}
	for _, c := range []struct {
		name string
		run  func() error
		want string // "" for no error
	}{
		{"labels", func() error { return WriteLabels(&buf, nil, dataio.CSV) }, "no data set"},
		{"labels file", func() error { return WriteLabelsFile(filepath.Join(t.TempDir(), "l.csv"), "", nil) }, "no data set"},
		{"gold", func() error { return WriteGold(&buf, d, nil, dataio.CSV) }, "without a data set or gold"},
		{"table", func() error { return WriteTable(&buf, nil, dataio.CSV) }, "no table"},
		{"class rows", func() error { return WriteClassRows(&buf, "", d, []int{0, 1}, make([]float64, 4), "p_", nil) }, ""},
		{"class rows/nil data", func() error { return WriteClassRows(&buf, "", nil, nil, nil, "p_", nil) }, "no data set"},
		{"class rows/short labels", func() error { return WriteClassRows(&buf, "", d, []int{0}, make([]float64, 4), "p_", nil) }, "1 labels, 4 values"},
		{"class rows/short values", func() error { return WriteClassRows(&buf, "", d, []int{0, 1}, make([]float64, 3), "p_", nil) }, "3 values"},
		{"class rows/short subtypes", func() error {
			return WriteClassRows(&buf, "", d, []int{0, 1}, make([]float64, 4), "p_", []bool{true})
		}, "1 subtypes"},
		{"class rows/bad label", func() error { return WriteClassRows(&buf, "", d, []int{0, 2}, make([]float64, 4), "p_", nil) }, "label 2 of 2 classes"},
		{"summary", func() error { return SummaryFile("s.json", "mv", nil).Write(&buf) }, "a summary without a fit"},
		{"multi-label", func() error { _, err := MultiLabelTable(nil, 1, "|", ""); return err }, "one binary fit per class"},
		{"multi-label/no fits", func() error {
			_, err := MultiLabelTable(&model.BinaryRelevance{Data: &model.MultiLabels{Classes: []string{"a"}}}, 1, "|", "")
			return err
		}, "one binary fit per class"},
		{"start/nil estimator", func() error { _, _, err := wt.Start(nil, d, "w.csv"); return err }, "without an estimator"},
		{"start/nil data", func() error { _, _, err := wt.Start(model.Model{}, nil, "w.csv"); return err }, "without an estimator or a data set"},
		{"start/short values", func() error {
			_, _, err := (&WorkerTable{Workers: []string{"x"}, Columns: []string{"p"}}).Start(model.Model{}, d, "w.csv")
			return err
		}, "0 values and 0 lines for 1 workers"},
		{"skills", func() error { _, _, err := wt.Skills(d, "s.csv"); return err }, ""},
		{"skills/nil data", func() error { _, _, err := wt.Skills(nil, "s.csv"); return err }, "skills without a data set"},
		{"skills/no columns", func() error { _, _, err := (&WorkerTable{}).Skills(d, "s.csv"); return err }, "without columns"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			if c.want == "" {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			if !errors.Is(err, ErrArgument) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one wrapping ErrArgument with %q", err, c.want)
			}
		})
	}
	if got := PathMessage(nil); got != "" {
		t.Errorf("PathMessage(nil) = %q, want empty", got)
	}
	if got := wt.WorkerIndices(nil); len(got) != 1 || got[0] != -1 {
		t.Errorf("WorkerIndices(nil) = %v, want [-1]", got)
	}
}
