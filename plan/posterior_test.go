package plan

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all" // every family of estimators, for ByName
)

// TestFromResult checks the adapter: vb-la-ds gives both posteriors, with
// the pseudo-counts recovered from the worker values (every row's sum is
// the prior's plus the labels it weighs); vb-da-ds gives the workers only,
// and Next refuses it; other models are refused.
func TestFromResult(t *testing.T) {
	s, err := Crowd{Tasks: 200, Workers: 20, LabelsPerTask: 5, Seed: 3}.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	d := s.Data
	ctx := context.Background()
	p, err := Fit(ctx, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tasks == nil {
		t.Fatal("vb-la-ds: no task posterior")
	}
	// The expected counts of all workers add up to the number of labels.
	lam, beta := make([]float64, 4), make([]float64, 4)
	p.Workers.ConfusionPrior(beta)
	var total float64
	for w := range d.Workers {
		p.Workers.Confusion(w, lam)
		for i := range lam {
			total += lam[i] - beta[i]
		}
	}
	if n := float64(d.NumLabels()); total < n-1e-6*n || total > n+1e-6*n {
		t.Errorf("expected counts add up to %v, want %d", total, d.NumLabels())
	}
	r, err := DAModel.Fit(ctx, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	q, err := FromResult(r)
	if err != nil || q.Tasks != nil || q.Workers == nil {
		t.Fatalf("vb-da-ds: %v, tasks %v", err, q.Tasks)
	}
	if _, err := Next(q, &Settings{Budget: 5}); err == nil || !strings.Contains(err.Error(), "DA fit") {
		t.Errorf("Next on a DA fit: %v", err)
	}
	est, _ := model.ByName("la-ds")
	ml, err := est.Fit(ctx, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromResult(ml); err == nil {
		t.Error("la-ds accepted")
	}
}

// TestNextSettings checks the budget, the stopping rule, the allowed
// tasks, the pool's rules and the determinism of Next and Flags.
func TestNextSettings(t *testing.T) {
	s, err := Crowd{Tasks: 300, Workers: 30, LabelsPerTask: 3, Spammers: 0.1, Seed: 5}.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	d := s.Data
	p, err := Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	all, err := Next(p, &Settings{Budget: d.NumTasks(), Stop: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	for i, pk := range all {
		if pk.Confidence >= 0.9 {
			t.Errorf("task %d chosen at confidence %v", pk.Task, pk.Confidence)
		}
		if i > 0 && pk.Gain > all[i-1].Gain {
			t.Errorf("gains out of order at %d", i)
		}
	}
	few, _ := Next(p, &Settings{Budget: 7, Stop: 0.9})
	if !reflect.DeepEqual(few, all[:7]) {
		t.Error("the first 7 of a budget of 7 differ from the first 7 of all")
	}
	even, _ := Next(p, &Settings{Budget: 10, Allowed: func(j int) bool { return j%2 == 0 }})
	for _, pk := range even {
		if pk.Task%2 != 0 {
			t.Errorf("task %d is not allowed", pk.Task)
		}
	}
	pool := []int{0, 1, 2}
	pairs, _ := Next(p, &Settings{Budget: 12, Pool: pool, PerWorker: 3})
	if len(pairs) != 9 {
		t.Errorf("%d pairs, want 9 (3 workers, 3 each)", len(pairs))
	}
	seen := map[int]bool{}
	for _, pk := range pairs {
		ws, _ := d.TaskLabels(pk.Task)
		for _, w := range ws {
			if int(w) == pk.Worker {
				t.Errorf("worker %d asked again for task %d", pk.Worker, pk.Task)
			}
		}
		if seen[pk.Task] {
			t.Errorf("task %d chosen twice", pk.Task)
		}
		seen[pk.Task] = true
	}
	a, errA := Flags(p, &FlagSettings{Seed: 9})
	b, errB := Flags(p, &FlagSettings{Seed: 9})
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("Flags differ between two runs")
	}
}

// TestCrowdErrors checks that a crowd that cannot be simulated is an
// error.
func TestCrowdErrors(t *testing.T) {
	for _, c := range []Crowd{
		{Classes: 1},
		{Workers: 5, LabelsPerTask: 6},
		{Spammers: 0.8, Adversaries: 0.3},
		{Tasks: -1},
	} {
		if _, err := c.Simulate(); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}
