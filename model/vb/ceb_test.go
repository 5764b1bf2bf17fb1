package vb

import (
	"fmt"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestDroppedClass checks droppedClass on 40 tasks of two classes, half
// of each before (shares 0.5, add-one as shared.ClassPrior): a class
// whose share falls below cebDropped of that is named, with both shares;
// a smaller fall is not.
func TestDroppedClass(t *testing.T) {
	b, err := data.NewBuilder([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	for j := range n {
		if err := b.Add(fmt.Sprint("t", j), "w", "a"); err != nil {
			t.Fatal(err)
		}
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	// probs returns the posteriors of n tasks, the first nb sure of b.
	probs := func(nb int) []float64 {
		p := make([]float64, 2*n)
		for j := range n {
			if j < nb {
				p[2*j+1] = 1
			} else {
				p[2*j] = 1
			}
		}
		return p
	}
	for _, tc := range []struct {
		name     string
		after    int // tasks of b after
		want     int
		was, now float64
	}{
		{"same", 20, -1, 0, 0},
		{"b halved", 10, -1, 0, 0},
		{"b to two tasks", 2, -1, 0, 0}, // 3/42 ≥ 0.1 · 21/42
		{"b to one task", 1, 1, 21. / 42, 2. / 42},
		{"b dropped", 0, 1, 21. / 42, 1. / 42},
		{"a dropped", 40, 0, 21. / 42, 1. / 42},
	} {
		c, was, now := droppedClass(d, probs(20), probs(tc.after))
		if c != tc.want || was != tc.was || now != tc.now {
			t.Errorf("%s: class %d (%.4g → %.4g), want %d (%.4g → %.4g)", tc.name, c, was, now, tc.want, tc.was, tc.now)
		}
	}
}
