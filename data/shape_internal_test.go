package data

import (
	"strings"
	"testing"
)

// TestDistinct3 checks the count of a task's workers that the pairs rule
// reads (Dataset.Tripled): repeated labels of one worker count once.
func TestDistinct3(t *testing.T) {
	for _, tc := range []struct {
		workers []int32
		want    bool
	}{
		{nil, false},
		{[]int32{4}, false},
		{[]int32{4, 4, 4}, false},
		{[]int32{4, 7}, false},
		{[]int32{4, 7, 4, 7, 4}, false},
		{[]int32{4, 7, 9}, true},
		{[]int32{4, 4, 7, 7, 9}, true},
		{[]int32{1, 2, 3, 4, 5}, true},
	} {
		if got := distinct3(tc.workers); got != tc.want {
			t.Errorf("distinct3(%v) = %v, want %v", tc.workers, got, tc.want)
		}
	}
}

// TestShape checks the crowd-shape predicates on small data sets given as
// task:worker pairs (every label of class "a").
func TestShape(t *testing.T) {
	for _, tc := range []struct {
		name       string
		labels     []string // "task:worker"
		crossed    bool
		tripled    bool
		medW, medT int
	}{
		{"one worker a task", []string{"t1:w1", "t2:w2", "t3:w1"}, false, false, 2, 1},
		{"repeated labels of one worker", []string{"t1:w1", "t1:w1", "t2:w2"}, false, false, 2, 2},
		{"pairs", []string{"t1:w1", "t1:w2", "t2:w1", "t2:w3"}, true, false, 1, 2},
		{"half on triples", []string{"t1:w1", "t1:w2", "t1:w3", "t2:w1", "t2:w2", "t3:w4"}, true, true, 2, 2},
		{"less than half on triples", []string{"t1:w1", "t1:w2", "t1:w3", "t2:w1", "t2:w2", "t3:w4", "t3:w5"}, true, false, 1, 2},
	} {
		b, err := NewBuilder([]string{"a"})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range tc.labels {
			task, worker, _ := strings.Cut(l, ":")
			if err := b.Add(task, worker, "a"); err != nil {
				t.Fatal(err)
			}
		}
		d, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Crossed(); got != tc.crossed {
			t.Errorf("%s: Crossed() = %v, want %v", tc.name, got, tc.crossed)
		}
		if got := d.Tripled(); got != tc.tripled {
			t.Errorf("%s: Tripled() = %v, want %v", tc.name, got, tc.tripled)
		}
		if w, k := d.UpperMedianWorkerLabels(), d.UpperMedianTaskLabels(); w != tc.medW || k != tc.medT {
			t.Errorf("%s: upper medians of labels a worker %d and a task %d, want %d and %d", tc.name, w, k, tc.medW, tc.medT)
		}
	}
}
