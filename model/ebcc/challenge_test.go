package ebcc_test

import (
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model/ebcc"
)

// TestModal checks Modal on tasks with one most frequent class, a tie,
// and a label that is not a most frequent class.
func TestModal(t *testing.T) {
	b, err := data.NewBuilder([]string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct{ task, worker, label string }{
		{"a", "w1", "x"}, {"a", "w2", "x"}, {"a", "w3", "y"}, // x most frequent
		{"b", "w1", "x"}, {"b", "w2", "y"}, // a tie
		{"c", "w1", "y"}, {"c", "w2", "y"}, {"c", "w3", "x"}, // y most frequent
	} {
		if err := b.Add(l.task, l.worker, l.label); err != nil {
			t.Fatal(err)
		}
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		probs []float64 // rows a, b, c over classes x, y
		want  float64
	}{
		{"all modal", []float64{0.9, 0.1, 0.6, 0.4, 0.2, 0.8}, 1},
		{"tie either way", []float64{0.9, 0.1, 0.3, 0.7, 0.2, 0.8}, 1},
		{"one off", []float64{0.9, 0.1, 0.6, 0.4, 0.8, 0.2}, 2.0 / 3},
		{"all off but the tie", []float64{0.1, 0.9, 0.5, 0.5, 0.8, 0.2}, 1.0 / 3},
	}
	for _, c := range cases {
		if got := ebcc.Modal(d, c.probs); got != c.want {
			t.Errorf("%s: Modal = %v, want %v", c.name, got, c.want)
		}
	}
}
