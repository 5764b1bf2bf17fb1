package data_test

import (
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestTaskWeights checks Counts and TaskCounts, and every TaskWeights row
// by row against the matrix it stands for: the frequencies against
// Frequencies (a task without
// labels included), DenseWeights against its slice, and WithClasses with
// and without a base.
func TestTaskWeights(t *testing.T) {
	d := &data.Dataset{ // t4 has no labels: uniform frequencies
		Tasks:   []string{"t1", "t2", "t3", "t4"},
		Workers: []string{"w1", "w2", "w3"},
		Classes: []string{"a", "b", "c"},
		Offsets: []int{0, 3, 4, 6, 6},
		Worker:  []int32{0, 1, 2, 0, 1, 2},
		Label:   []uint16{0, 1, 1, 2, 0, 2},
	}
	counts := []float64{1, 2, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0}
	if got := d.Counts(); !slices.Equal(got, counts) {
		t.Fatalf("Counts = %v, want %v", got, counts)
	}
	row := []float64{-1, -1, -1} // stale values must not show
	if d.TaskCounts(0, row); !slices.Equal(row, counts[:3]) {
		t.Fatalf("TaskCounts(0) = %v, want %v", row, counts[:3])
	}
	const third = 1.0 / 3
	freq := []float64{third, 2 * third, 0, 0, 0, 1, 0.5, 0, 0.5, third, third, third}
	if got := d.Frequencies(); !slices.Equal(got, freq) {
		t.Fatalf("Frequencies = %v, want %v", got, freq)
	}
	dense := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	for _, tc := range []struct {
		name string
		w    data.TaskWeights
		want []float64
	}{
		{"frequencies", d.FrequencyWeights(), freq},
		{"dense", data.DenseWeights{K: 3, W: dense}, dense},
		{"classes over frequencies", data.WithClasses(d.FrequencyWeights(), []int{-1, 0, -1, 2}),
			[]float64{third, 2 * third, 0, 1, 0, 0, 0.5, 0, 0.5, 0, 0, 1}},
		{"classes alone", data.WithClasses(nil, []int{1, -1}),
			[]float64{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf := []float64{-1, -1, -1} // stale values must not show
			for j := range d.NumTasks() {
				if got, want := tc.w.Row(j, buf), tc.want[3*j:3*j+3]; !slices.Equal(got, want) {
					t.Errorf("row %d = %v, want %v", j, got, want)
				}
			}
		})
	}
}
