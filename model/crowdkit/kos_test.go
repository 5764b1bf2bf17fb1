package crowdkit

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// biased returns labels of four tasks whose true classes are 0, 0, 1, 1:
// two workers always right and n workers who always answer 1.
func biased(n int) string {
	var b strings.Builder
	b.WriteString("task,worker,label\n")
	truth := []int{0, 0, 1, 1}
	for j, c := range truth {
		fmt.Fprintf(&b, "t%d,a,%d\nt%d,b,%d\n", j, c, j, c)
		for s := range n {
			fmt.Fprintf(&b, "t%d,s%d,1\n", j, s)
		}
	}
	return b.String()
}

func TestKOS(t *testing.T) {
	right := [][]float64{{1, 0}, {1, 0}, {0, 1}, {0, 1}}
	tests := []struct {
		name string
		csv  string
		e    KOS
		want [][]float64
	}{
		{"unanimous", biased(0), KOS{}, right},
		{"unanimous, raw", biased(0), KOS{Raw: true}, right},
		// Four workers who always say 1 outweigh the two right ones: the
		// leading direction of the raw labels is their bias, and every task
		// gets class 1. Centring each worker's labels removes it.
		{"biased workers, raw", biased(4), KOS{Raw: true}, [][]float64{{0, 1}, {0, 1}, {0, 1}, {0, 1}}},
		{"biased workers", biased(4), KOS{}, right},
		{"other seed", biased(4), KOS{Seed: 7}, right},
		// Every worker gives one label to all its tasks (Crowd-Kit's
		// data_with_bool_labels): centring would erase every label, and the
		// majority vote decides; identical tasks get identical labels, a
		// tie the uniform distribution.
		{"constant workers", "task,worker,label\nt1,w1,b\nt2,w1,b\nt1,w2,b\nt2,w2,b\nt1,w3,a\nt2,w3,a\n", KOS{},
			[][]float64{{0, 1}, {0, 1}}},
		{"constant workers, tie", "task,worker,label\nt1,w1,b\nt2,w1,b\nt1,w3,a\nt2,w3,a\nt3,w3,a\n", KOS{},
			[][]float64{{0.5, 0.5}, {0.5, 0.5}, {1, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tt.e.Fit(context.Background(), readCrowd(t, tt.csv), nil)
			if err != nil {
				t.Fatal(err)
			}
			checkProbs(t, r, tt.want)
		})
	}
}

func TestKOSRefusesOtherK(t *testing.T) {
	d := readCrowd(t, "task,worker,label\nt1,a,x\nt1,b,y\nt2,a,z\n")
	_, err := KOS{}.Fit(context.Background(), d, nil)
	if err == nil || !strings.Contains(err.Error(), "two classes only, and the data have 3") {
		t.Fatalf("error %v, want a refusal of 3 classes", err)
	}
}

// TestKOSRandomStateAsCrowdKit checks the raw iteration from the start of
// every seed against Crowd-Kit 1.4.1's KOS(n_iter, random_state).fit on
// its toy data with the rows grouped by task (the order in which both draw
// the start), labels of t1..t5 printed as y (yes) and n (no). Few
// iterations leave the start's mark: the labels differ by seed.
func TestKOSRandomStateAsCrowdKit(t *testing.T) {
	toy := map[string]string{"w1": "no yes yes yes yes", "w2": "yes yes no yes no", "w3": "- yes no yes no",
		"w4": "yes no yes yes no", "w5": "no no no yes no"}
	var b strings.Builder
	b.WriteString("task,worker,label\n")
	for j := range 5 {
		for _, w := range []string{"w1", "w2", "w3", "w4", "w5"} {
			if y := strings.Fields(toy[w])[j]; y != "-" {
				fmt.Fprintf(&b, "t%d,%s,%s\n", j+1, w, y)
			}
		}
	}
	d := readCrowd(t, b.String())
	tests := []struct {
		seed  uint32
		iters int
		want  string
	}{
		{0, 1, "yynnn"}, {0, 2, "ynyny"}, {0, 100, "nynny"},
		{1, 1, "ynnnn"}, {1, 2, "nnyny"}, {1, 100, "nynny"},
		{7, 1, "ynnyy"}, {7, 2, "nyynn"}, {7, 100, "nnnnn"},
		{MaxRandomState, 1, "ynnnn"}, {MaxRandomState, 2, "ynyny"}, {MaxRandomState, 100, "nynny"},
	}
	for _, tt := range tests {
		e := KOS{Raw: true, MaxIterations: tt.iters}.WithRandomState(tt.seed)
		r, err := e.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		for j := range d.NumTasks() {
			c := "n"
			if r.Probs[2*j+1] == 1 { // the second class, "yes"
				c = "y"
			}
			got.WriteString(c)
		}
		if got.String() != tt.want {
			t.Errorf("seed %d, %d iterations: %s, want %s (Crowd-Kit's)", tt.seed, tt.iters, got.String(), tt.want)
		}
	}
}
