package data

import (
	"reflect"
	"testing"
)

// TestGoldSplit checks the sizes of the split, that its parts partition
// the gold in its order, that the seed fixes it, and that Without removes
// the training tasks.
func TestGoldSplit(t *testing.T) {
	g := &Gold{Task: []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, Label: []uint16{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}, Unmatched: 2}
	for _, c := range []struct {
		fraction float64
		train    int
	}{{0, 0}, {0.25, 3}, {0.5, 5}, {1, 10}} {
		train, rest := g.Split(c.fraction, 7)
		if train.Len() != c.train || rest.Len() != g.Len()-c.train {
			t.Errorf("fraction %v: %d and %d tasks, want %d and %d", c.fraction, train.Len(), rest.Len(), c.train, g.Len()-c.train)
		}
		again, _ := g.Split(c.fraction, 7)
		if !reflect.DeepEqual(train, again) {
			t.Errorf("fraction %v: two splits with one seed differ", c.fraction)
		}
		seen := map[int32]bool{}
		for _, part := range []*Gold{train, rest} {
			for i, task := range part.Task {
				if i > 0 && task <= part.Task[i-1] {
					t.Errorf("fraction %v: part not in the gold's order: %v", c.fraction, part.Task)
				}
				if part.Label[i] != g.Label[task] || seen[task] {
					t.Errorf("fraction %v: task %d twice or with a wrong label", c.fraction, task)
				}
				seen[task] = true
			}
		}
		w := g.Without(train)
		if !reflect.DeepEqual(w.Task, rest.Task) || !reflect.DeepEqual(w.Label, rest.Label) || w.Unmatched != 2 {
			t.Errorf("fraction %v: Without gives %+v, want the rest %+v", c.fraction, w, rest)
		}
	}
}
