package vb

import (
	"context"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestHierarchicalHeldAtP checks vb-hda-ds where empirical Bayes drives the
// prior of q_j to its bound, every q_j held at p and the workers'
// confusions carrying the tasks (K = 10, two labels a task: two classes of
// p at 0.5, accuracy 0.23; K = 2, five labels: 0.51): the fit is redone
// under DA's Jeffreys prior and says so, and must be within 5 points of
// majority vote.
func TestHierarchicalHeldAtP(t *testing.T) {
	acc, err := sim.ParseRanges("0.45:0.9")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		c    sim.Settings
		pop  sim.Population
	}{
		{"K=10", sim.Settings{Tasks: 300, Workers: 30, Classes: 10, LabelsPerTask: 2, Activity: 1, Seed: 3}, sim.Population{}},
		{"K=2", sim.Settings{Tasks: 1000, Workers: 60, Classes: 2, LabelsPerTask: 5, Activity: 1, Spammers: 0.1, Seed: 8}, sim.Population{Accuracy: acc}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Noise, tc.c.Latent = noise.DS{}, latent.LA{}
			c, err := tc.c.WithPopulation(tc.pop)
			if err != nil {
				t.Fatal(err)
			}
			d, tr, err := sim.Simulate(c)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Bayes{Noise: noise.DS{}, Latent: latent.DA{}, Hierarchical: true}.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			k, gold := d.NumClasses(), tr.Gold()
			a, err := metrics.Accuracy(r.Probs, k, gold, 1)
			if err != nil {
				t.Fatal(err)
			}
			mv, err := metrics.Accuracy(d.Frequencies(), k, gold, 1)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("accuracy %.4f, majority vote %.4f; %s", a, mv, r.Method)
			if !strings.Contains(r.Method, hdaDroppedNote) || a < mv-0.05 {
				t.Errorf("accuracy %.4f against majority vote's %.4f; method %q", a, mv, r.Method)
			}
		})
	}
}
