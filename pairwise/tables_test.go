package pairwise

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
	"github.com/consensuslab/consensus/output"
)

// TestTables checks the comparisons file and the truth tables of a
// simulation of three comparisons by two workers, in every text format.
func TestTables(t *testing.T) {
	c := &Comparisons{
		Items: []string{"a", "b", "c"}, Workers: []string{"w1", "w2"},
		Left: []int32{0, 1, 2}, Right: []int32{1, 2, 0}, Worker: []int32{0, 1, 0},
		LeftWon: []bool{true, false, true},
	}
	tr := &Truth{Scores: []float64{0.5, -0.25, 0}, Skills: []float64{0.9, 0.05}, Biases: []float64{0.5, 0.375}}
	for _, tc := range []struct {
		f    dataio.Format
		want string
	}{
		{dataio.CSV, "worker,left,right,label\nw1,a,b,a\nw2,b,c,c\nw1,c,a,c\n"},
		{dataio.TSV, "worker\tleft\tright\tlabel\nw1\ta\tb\ta\nw2\tb\tc\tc\nw1\tc\ta\tc\n"},
	} {
		var b bytes.Buffer
		if err := c.Write(&b, tc.f); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("format %v: comparisons\n%q, want\n%q", tc.f, b.String(), tc.want)
		}
	}
	scores, err := tr.ScoresTable(c)
	if err != nil {
		t.Fatal(err)
	}
	workers, err := tr.WorkersTable(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		t    *output.Table
		want string
	}{
		{"scores", scores, "item,score\na,0.5\nb,-0.25\nc,0\n"},
		{"workers", workers, "worker,skill,bias\nw1,0.9,0.5\nw2,0.05,0.375\n"},
	} {
		var b bytes.Buffer
		if err := output.WriteTable(&b, tc.t, dataio.CSV); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s:\n%q, want\n%q", tc.name, b.String(), tc.want)
		}
	}
}

// TestArgumentErrors checks that the tables, Write and the fits return an
// error wrapping ErrArgument, naming the problem, on nil or inconsistent
// comparisons or a truth or result of another size, instead of panicking.
func TestArgumentErrors(t *testing.T) {
	good := func() *Comparisons {
		return &Comparisons{
			Items: []string{"a", "b", "c"}, Workers: []string{"w1", "w2"},
			Left: []int32{0, 1, 2}, Right: []int32{1, 2, 0}, Worker: []int32{0, 1, 0},
			LeftWon: []bool{true, false, true},
		}
	}
	short := good()
	short.Right = short.Right[:2]
	badItem := good()
	badItem.Left[1] = 3
	badWorker := good()
	badWorker.Worker[2] = -1
	tr := &Truth{Scores: []float64{0.5, -0.25}, Skills: []float64{0.9}, Biases: []float64{0.5}}
	r := &Result{Workers: []string{"w1"}, Skills: []float64{1}, Biases: []float64{0}}
	var b bytes.Buffer
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"write/nil", (*Comparisons)(nil).Write(&b, dataio.CSV), "no comparisons"},
		{"write/short", short.Write(&b, dataio.CSV), "3 left items, 2 right items"},
		{"write/bad item", badItem.Write(&b, dataio.CSV), "comparison 1 of items 3 and 2, of 3 items"},
		{"write/bad worker", badWorker.Write(&b, dataio.CSV), "comparison 2 by worker -1, of 2 workers"},
		{"bt/short", second(BradleyTerry{}.Fit(context.Background(), short)), "3 left items, 2 right items"},
		{"noisy bt/bad item", second(NoisyBT{}.Fit(context.Background(), badItem)), "comparison 1 of items 3"},
		{"truth scores/nil", second(tr.ScoresTable(nil)), "true scores"},
		{"truth scores/short", second(tr.ScoresTable(good())), "true scores"},
		{"truth workers/short", second(tr.WorkersTable(good())), "true skills and biases"},
		{"workers/nil", second(r.WorkersTable(nil)), "no comparisons"},
		{"workers/other workers", second(r.WorkersTable(good())), "a fit of 1 workers"},
	} {
		if !errors.Is(c.err, ErrArgument) || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one wrapping ErrArgument with %q", c.name, c.err, c.want)
		}
	}
	if s := r.Summary(nil); !strings.Contains(s, "0 items") {
		t.Errorf("Summary(nil) = %q", s)
	}
}

// second returns the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }
