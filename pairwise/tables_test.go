package pairwise

import (
	"bytes"
	"github.com/consensuslab/consensus/output"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
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
	for _, tc := range []struct {
		name string
		t    *output.Table
		want string
	}{
		{"scores", tr.ScoresTable(c), "item,score\na,0.5\nb,-0.25\nc,0\n"},
		{"workers", tr.WorkersTable(c), "worker,skill,bias\nw1,0.9,0.5\nw2,0.05,0.375\n"},
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
