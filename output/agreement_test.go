package output

import (
	"errors"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/metrics"
)

// TestAgreementStats checks the statistics of two tasks against a
// consensus, and the reason given for an undefined alpha.
func TestAgreementStats(t *testing.T) {
	b, err := data.NewBuilder([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range [][3]string{{"t1", "w1", "a"}, {"t1", "w2", "a"}, {"t2", "w1", "b"}, {"t2", "w2", "a"}} {
		if err := b.Add(l[0], l[1], l[2]); err != nil {
			t.Fatal(err)
		}
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, d.NumTasks())
	for j, task := range d.Tasks {
		if task == "t2" {
			labels[j] = 1
		}
	}
	st, err := AgreementStats(d, labels)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"agreement", st.Agreement, 0.75},
		{"mean entropy", st.MeanEntropy, math.Log(2) / 2},
		{"task rows", float64(len(st.Tasks.Rows)), 2},
		{"worker rows", float64(len(st.Workers.Rows)), 2},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if len(st.Tasks.Columns) != len(st.Tasks.Rows[0]) || len(st.Workers.Columns) != len(st.Workers.Rows[0]) {
		t.Errorf("rows do not match their columns: %v %v", st.Tasks, st.Workers)
	}
	if got := AlphaUndefined(d); got != "the labels of the tasks with two or more labels are all of one class" {
		t.Errorf("AlphaUndefined = %q", got)
	}
	if got := AlphaUndefined(nil); got != "no data set" {
		t.Errorf("AlphaUndefined(nil) = %q", got)
	}
	// Bad arguments are errors wrapping the metrics' sentinels, not panics.
	for _, c := range []struct {
		name   string
		d      *data.Dataset
		labels []int
		kind   error
	}{
		{"nil data set", nil, nil, metrics.ErrArgument},
		{"short labels", d, labels[:1], metrics.ErrShape},
		{"class out of range", d, []int{0, 2}, metrics.ErrShape},
		{"no consensus", d, []int{0, -1}, metrics.ErrShape},
	} {
		if _, err := AgreementStats(c.d, c.labels); !errors.Is(err, c.kind) {
			t.Errorf("%s: error %v, want one wrapping %v", c.name, err, c.kind)
		}
	}
}
