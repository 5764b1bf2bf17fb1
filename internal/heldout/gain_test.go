package heldout_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/heldout"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all"
	"github.com/consensuslab/consensus/sim"
)

// fitter returns the heldout.Fitter of the registered model name, and
// counts its fits in n.
func fitter(t *testing.T, name string, n *atomic.Int32) heldout.Fitter {
	t.Helper()
	est, err := model.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return func(ctx context.Context, tr *data.Dataset) (*model.Result, error) {
		n.Add(1)
		return est.Fit(ctx, tr, nil)
	}
}

// TestGain checks Gain on Dawid-Skene workers of class-dependent accuracy:
// vb-la-ds's workers predict held-out labels better than la-onecoin's one
// accuracy a worker, by many standard errors, with any number of threads;
// a model against itself gains nothing; and where b loses the first split,
// no other split is fitted.
func TestGain(t *testing.T) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 1500, Workers: 30, Classes: 2, LabelsPerTask: 5, Latent: latent.LA{}, Seed: 1,
		Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.9, Hi: 0.98}, {Lo: 0.5, Hi: 0.7}}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var na, nb atomic.Int32
	ds, one := fitter(t, "vb-la-ds", &nb), fitter(t, "la-onecoin", &na)
	g1, se1, err := heldout.Gain(ctx, d, 7, 0, 1, one, ds)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("vb-la-ds over la-onecoin: %.4f ± %.4f", g1, se1)
	if !(g1 > 3*se1) || se1 <= 0 {
		t.Errorf("gain %v ± %v: not 3 standard errors above zero", g1, se1)
	}
	if na.Load() != heldout.Splits || nb.Load() != heldout.Splits {
		t.Errorf("%d and %d fits, want %d each", na.Load(), nb.Load(), heldout.Splits)
	}
	g2, se2, err := heldout.Gain(ctx, d, 7, 0, 2, one, ds)
	if err != nil {
		t.Fatal(err)
	}
	if g2 != g1 || se2 != se1 {
		t.Errorf("two threads: %v ± %v, one thread: %v ± %v", g2, se2, g1, se1)
	}
	g, se, err := heldout.Gain(ctx, d, 7, 0, 0, ds, ds)
	if err != nil || g != 0 || se != 0 {
		t.Errorf("a model against itself: %v ± %v, %v; want 0 ± 0", g, se, err)
	}
	na.Store(0)
	nb.Store(0)
	g, _, err = heldout.Gain(ctx, d, 7, 0, 1, ds, one)
	if err != nil || !(g < 0) {
		t.Errorf("la-onecoin over vb-la-ds: %v, %v; want a loss", g, err)
	}
	if na.Load() != 1 || nb.Load() != 1 {
		t.Errorf("la-onecoin lost the first split, yet %d and %d fits were made", na.Load(), nb.Load())
	}
	// A subsample of whole tasks: fewer labels, the same answer twice.
	s1, e1, err := heldout.Gain(ctx, d, 7, 2000, 1, one, ds)
	if err != nil {
		t.Fatal(err)
	}
	s2, e2, _ := heldout.Gain(ctx, d, 7, 2000, 2, one, ds)
	if s1 != s2 || e1 != e2 || s1 == g1 {
		t.Errorf("subsampled: %v ± %v and %v ± %v (all labels: %v)", s1, e1, s2, e2, g1)
	}
}

// TestSubsample checks that Subsample keeps whole tasks in their order,
// about maxLabels labels, the same tasks for the same seed, and the tasks
// Picked names.
func TestSubsample(t *testing.T) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 500, Workers: 20, Classes: 3, LabelsPerTask: 4, Latent: latent.LA{}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	a, b := heldout.Subsample(d, 400, 3), heldout.Subsample(d, 400, 3)
	if a.NumLabels() < 400 || a.NumLabels() >= 404 || a.NumTasks() != 100 {
		t.Errorf("%d labels of %d tasks, want 400 of 100", a.NumLabels(), a.NumTasks())
	}
	pos := map[string]int{}
	for j, task := range d.Tasks {
		pos[task] = j
	}
	picked := heldout.Picked(d, 400, 3)
	if len(picked) != a.NumTasks() {
		t.Fatalf("Picked: %d tasks, Subsample %d", len(picked), a.NumTasks())
	}
	for i, j := range picked {
		if d.Tasks[j] != a.Tasks[i] {
			t.Fatalf("Picked[%d] = task %s, Subsample's is %s", i, d.Tasks[j], a.Tasks[i])
		}
	}
	for j := range a.Tasks {
		if a.Tasks[j] != b.Tasks[j] {
			t.Fatalf("task %d: %s and %s from the same seed", j, a.Tasks[j], b.Tasks[j])
		}
		if j > 0 && pos[a.Tasks[j]] <= pos[a.Tasks[j-1]] {
			t.Fatalf("tasks out of order at %d", j)
		}
		w, l := a.TaskLabels(j)
		dw, dl := d.TaskLabels(pos[a.Tasks[j]])
		if len(w) != len(dw) || len(l) != len(dl) {
			t.Fatalf("task %s: %d labels, want %d", a.Tasks[j], len(l), len(dl))
		}
	}
}
