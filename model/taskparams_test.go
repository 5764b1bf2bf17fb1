package model

import (
	"context"
	"math"
	"testing"

	"github.com/consensuslab/consensus/datasets"
)

// TestClassPriorAndDifficulties checks ClassPrior and TaskColumns and
// TaskValues on
// duchenne: la-ds's prior is a distribution and, at EM's fixed point, the
// mean of the posteriors (the M-step of the prior); models without a
// fitted prior or without GLAD's object parameters report nil.
func TestClassPriorAndDifficulties(t *testing.T) {
	d, _, err := datasets.Load("duchenne")
	if err != nil {
		t.Fatal(err)
	}
	k := d.NumClasses()
	for _, tc := range []struct {
		name         string
		prior, diffs bool
	}{
		{"la-ds", true, false},
		{"la-onecoin", true, false},
		{"da-ds", false, false},
		{"la-glad", false, true},
		{"da-glad", false, true},
		{"rfe", false, false},
		{"vb-da-ds", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			est, err := ByName(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			res, err := est.Fit(context.Background(), d, &Settings{Threads: 1, MaxIterations: 2000})
			if err != nil {
				t.Fatal(err)
			}
			p, cols := res.ClassPrior(), res.TaskColumns()
			var diff []float64
			if cols != nil {
				if len(cols) != 1 || cols[0] != "difficulty" {
					t.Fatalf("task columns %v, want [difficulty]", cols)
				}
				for j := range d.Tasks {
					diff = res.TaskValues(j, diff)
				}
			} else if v := res.TaskValues(0, nil); v != nil {
				t.Fatalf("no task columns but values %v", v)
			}
			if (p != nil) != tc.prior || (diff != nil) != tc.diffs {
				t.Fatalf("prior %v, difficulties of %d tasks", p, len(diff))
			}
			if p != nil {
				mean := make([]float64, k)
				for j := range d.Tasks {
					for z, v := range res.Dist(j) {
						mean[z] += v / float64(d.NumTasks())
					}
				}
				sum := 0.0
				for z := range p {
					sum += p[z]
					if math.Abs(p[z]-mean[z]) > 1e-4 {
						t.Errorf("prior %v, mean posterior %v", p, mean)
					}
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Errorf("prior %v sums to %g", p, sum)
				}
			}
			if diff != nil {
				if len(diff) != d.NumTasks() {
					t.Fatalf("%d difficulties for %d tasks", len(diff), d.NumTasks())
				}
				for j, v := range diff {
					if !(v > 0) || math.IsInf(v, 0) {
						t.Fatalf("task %d: difficulty %g", j, v)
					}
				}
			}
		})
	}
}
