package model

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data/dataio"
)

// TestWeightedVote checks the weighted vote against sums by hand, Crowd-Kit's
// example (three workers, two tasks), equal skills against mv, and what
// each MissingSkill does with a worker without a skill.
func TestWeightedVote(t *testing.T) {
	// Crowd-Kit's MajorityVote docstring example: skills p1 0.5, p2 0.7,
	// p3 0.4; t1: p1 0, p2 0, p3 1; t2: p1 1, p2 0, p3 1.
	d, err := dataio.ReadLabels(context.Background(), strings.NewReader("task,worker,label\nt1,p1,0\nt1,p2,0\nt1,p3,1\nt2,p1,1\nt2,p2,0\nt2,p3,1\n"), "l.csv", dataio.ReadSettings{})
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	for _, c := range []struct {
		name  string
		vote  WeightedVote
		probs []float64 // t1's two classes, then t2's
		err   string
	}{
		{"crowd-kit example", WeightedVote{Skills: []float64{0.5, 0.7, 0.4}}, []float64{1.2 / 1.6, 0.4 / 1.6, 0.7 / 1.6, 0.9 / 1.6}, ""},
		{"equal skills are mv", WeightedVote{Skills: []float64{2, 2, 2}}, []float64{2.0 / 3, 1.0 / 3, 1.0 / 3, 2.0 / 3}, ""},
		{"zero skills: uniform", WeightedVote{Skills: []float64{0, 0, 0}}, []float64{0.5, 0.5, 0.5, 0.5}, ""},
		{"missing: error", WeightedVote{Skills: []float64{0.5, nan, 0.4}}, nil, "worker p2 has no skill, and 1 workers in all"},
		{"missing: ignore", WeightedVote{Skills: []float64{0.5, nan, 0.4}, Missing: MissingIgnore}, []float64{0.5 / 0.9, 0.4 / 0.9, 0, 1}, ""},
		{"missing: value", WeightedVote{Skills: []float64{0.5, nan, 0.4}, Missing: MissingValue, Default: 0.7}, []float64{1.2 / 1.6, 0.4 / 1.6, 0.7 / 1.6, 0.9 / 1.6}, ""},
		{"ignore leaves a task no label", WeightedVote{Skills: []float64{nan, nan, nan}, Missing: MissingIgnore}, nil, "task t1 has no label of a worker with a skill"},
		{"negative", WeightedVote{Skills: []float64{0.5, -1, 0.4}}, nil, "worker p2 has skill -1"},
		{"infinite default", WeightedVote{Skills: []float64{0.5, nan, 0.4}, Missing: MissingValue, Default: math.Inf(1)}, nil, "default skill +Inf"},
		{"too few", WeightedVote{Skills: []float64{0.5}}, nil, "1 skills for 3 workers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.vote.Fit(context.Background(), d, nil)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range c.probs {
				if math.Abs(r.Probs[i]-p) > 1e-15 {
					t.Errorf("probs %v, want %v", r.Probs, c.probs)
					break
				}
			}
			if got := r.WorkerColumns(); !slices.Equal(got, []string{"weight"}) {
				t.Errorf("worker columns %v", got)
			}
			for w := range d.Workers {
				s := r.WorkerSkills()[w]
				if s < 0 || s > 1 {
					t.Errorf("worker %d's agreement %v is not a fraction", w, s)
				}
			}
		})
	}
	// The Crowd-Kit example's consensus is 0 for t1 and 1 for t2, so p1
	// agrees once in two, p2 once and p3 once.
	r, _ := WeightedVote{Skills: []float64{0.5, 0.7, 0.4}}.Fit(context.Background(), d, nil)
	if got := r.WorkerSkills(); !slices.Equal(got, []float64{1, 0.5, 0.5}) {
		t.Errorf("agreement %v, want [1 0.5 0.5]", got)
	}
	if got := r.WorkerValues(1, nil); !slices.Equal(got, []float64{0.7}) {
		t.Errorf("p2's weight %v, want [0.7]", got)
	}
}
