package ebcc_test

import (
	"context"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/ebcc"
	"github.com/consensuslab/consensus/sim"
)

// TestModal checks Modal on tasks with one most frequent class, a tie,
// and a label that is not a most frequent class.
func TestModal(t *testing.T) {
	b, err := data.NewBuilder([]string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct{ task, worker, label string }{
		{"a", "w1", "x"}, {"a", "w2", "x"}, {"a", "w3", "y"}, // x most frequent
		{"b", "w1", "x"}, {"b", "w2", "y"}, // a tie
		{"c", "w1", "y"}, {"c", "w2", "y"}, {"c", "w3", "x"}, // y most frequent
	} {
		if err := b.Add(l.task, l.worker, l.label); err != nil {
			t.Fatal(err)
		}
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		probs []float64 // rows a, b, c over classes x, y
		want  float64
	}{
		{"all modal", []float64{0.9, 0.1, 0.6, 0.4, 0.2, 0.8}, 1},
		{"tie either way", []float64{0.9, 0.1, 0.3, 0.7, 0.2, 0.8}, 1},
		{"one off", []float64{0.9, 0.1, 0.6, 0.4, 0.8, 0.2}, 2.0 / 3},
		{"all off but the tie", []float64{0.1, 0.9, 0.5, 0.5, 0.8, 0.2}, 1.0 / 3},
	}
	for _, c := range cases {
		if got := ebcc.Modal(d, c.probs); got != c.want {
			t.Errorf("%s: Modal = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestChallenge checks Challenge against vb-la-ds, whose independent
// workers take a shared mistake for the truth: on the shared-mistake
// regime (seed 1, 20,000 labels; seed 2 with 6,000 tasks, 30,000 labels,
// the path of large data: the votes checked on the splits' subsample,
// then EBCC fitted to all the labels from the start that was best there)
// it takes EBCC's answer, at least 5 points more accurate and within 2 of
// the Bayes limit; on independent Dawid-Skene workers it declines.
func TestChallenge(t *testing.T) {
	if testing.Short() {
		t.Skip("fits held-out splits of three simulations")
	}
	la, err := model.ByName("vb-la-ds")
	if err != nil {
		t.Fatal(err)
	}
	own := func(ctx context.Context, d *data.Dataset) (*model.Result, error) { return la.Fit(ctx, d, nil) }
	for _, c := range []struct {
		seed  uint64
		tasks int // zero: the regime's
	}{{1, 0}, {2, 6000}} {
		set, err := sim.Regime("shared-mistake", c.seed)
		if err != nil {
			t.Fatal(err)
		}
		if c.tasks > 0 {
			set.Tasks = c.tasks
		}
		d, tr, err := sim.Simulate(set)
		if err != nil {
			t.Fatal(err)
		}
		mine, err := own(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		got, note, err := ebcc.Challenge(context.Background(), d, 0, own, mine.Probs, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		if got == nil {
			t.Errorf("seed %d, %d labels: EBCC's answer not taken", c.seed, d.NumLabels())
			continue
		}
		bayes, err := tr.BayesPosterior(d)
		if err != nil {
			t.Fatal(err)
		}
		acc := func(p []float64) float64 {
			a, err := metrics.Accuracy(p, 2, tr.Gold(), 1)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		a, before, lim := acc(got), acc(mine.Probs), acc(bayes)
		t.Logf("seed %d, %d labels: %.4f, vb-la-ds %.4f, Bayes limit %.4f; %s", c.seed, d.NumLabels(), a, before, lim, note)
		if a < before+0.05 || a < lim-0.02 {
			t.Errorf("seed %d: accuracy %.4f, want 5 points above vb-la-ds's %.4f and within 2 of the Bayes limit %.4f", c.seed, a, before, lim)
		}
	}
	d := simulated(t, 2, 2000, 5)
	mine, err := own(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if got, note, err := ebcc.Challenge(context.Background(), d, 0, own, mine.Probs, 1e-3); err != nil || got != nil {
		t.Errorf("independent workers: EBCC's answer taken (%s), error %v", note, err)
	}
}
