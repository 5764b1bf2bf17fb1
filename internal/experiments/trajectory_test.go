package experiments

import (
	"context"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestTrajectoryMatchesFit checks that the consensus recorded by
// trajectory at an iteration limit is bit-for-bit what Model.Fit returns
// with that limit, for both solvers, both assumptions and with a ridge.
func TestTrajectoryMatchesFit(t *testing.T) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 150, Workers: 8, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		m    model.Model
		set  model.Settings
	}{
		{"la-glad lbfgs", model.Model{Noise: noise.GLAD{}, Latent: latent.LA{}}, model.Settings{}},
		{"da-glad lbfgs", model.Model{Noise: noise.GLAD{}, Latent: latent.DA{}}, model.Settings{}},
		{"da-glad cg", model.Model{Noise: noise.GLAD{}, Latent: latent.DA{}}, model.Settings{Method: model.CG}},
		{"da-glad ridge", model.Model{Noise: noise.GLAD{}, Latent: latent.DA{}}, model.Settings{Ridge: 1}},
		{"la-ds lbfgs", model.Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}}, model.Settings{Method: model.LBFGS}},
	}
	at := []int{0, 1, 7, 30, 100000}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := tc.set
			set.MaxIterations = 300
			set.Threads = 1
			tr, err := trajectory(context.Background(), tc.m, d, set, at)
			if err != nil {
				t.Fatal(err)
			}
			for i, limit := range at[1:4] {
				s := set
				s.MaxIterations = limit
				r, err := tc.m.Fit(context.Background(), d, &s)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(r.Probs, tr.Probs[i+1]) {
					t.Errorf("limit %d: trajectory differs from Fit", limit)
				}
			}
			r, err := tc.m.Fit(context.Background(), d, &set)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Probs, tr.Final) || !slices.Equal(r.Probs, tr.Probs[4]) {
				t.Errorf("final consensus differs from Fit")
			}
			if r.Iterations != tr.Iterations || r.Converged != tr.Converged {
				t.Errorf("fit: %d iterations (%s), trajectory: %d (%s)", r.Iterations, r.Status, tr.Iterations, tr.Status)
			}
			init, err := consensusAt(context.Background(), tc.m, d, tc.m.Init(d))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(init, tr.Probs[0]) {
				t.Errorf("iteration 0 is not the initial consensus")
			}
		})
	}
}
