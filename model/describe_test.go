package model_test

import (
	"context"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestDescribeAgreesWithFits checks that what model.Describe declares of
// every registered estimator is what its fit reports: worker parameters
// (Result.WorkerColumns and WorkerSkills), per-task parameters (Result.TaskColumns), the
// label distribution beside the posterior (Result.Distribution), solver
// statistics (Result.Solved) for the estimators that read a convergence
// tolerance, and the
// registry's name; and that the declarations hang together (an estimator
// that needs gold can train on it, a variational one has no solver choice).
func TestDescribeAgreesWithFits(t *testing.T) {
	d, tr, err := sim.Simulate(sim.Settings{Tasks: 30, Workers: 6, LabelsPerTask: 4, Classes: 2, Noise: noise.DS{}, Latent: latent.LA{}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	gold := make([]int, d.NumTasks())
	for j := range gold {
		gold[j] = -1
		if j%3 == 0 {
			gold[j] = tr.Class[j]
		}
	}
	for _, e := range model.Registry() {
		c := model.Describe(e)
		t.Run(c.Name, func(t *testing.T) {
			if c.Name != e.Name || c.Summary != e.Summary || c.NeedsGold && !c.TrainGold || c.Variational && c.Solver != "" ||
				c.MinClasses < 2 || c.MaxClasses < c.MinClasses || c.Both && c.Answer != "posterior" ||
				c.Assumption != "" && (c.Assumption == "la") != (c.Answer == "posterior") ||
				c.Assumption == "" && c.Answer != "votes" && c.Answer != "posterior" || c.Assumption != "" && c.Answer == "votes" {
				t.Fatalf("inconsistent capabilities %+v", c)
			}
			est := e.New()
			if c.NeedsGold {
				est = est.(model.GoldTrainer).WithGold(gold)
			}
			r, err := est.Fit(context.Background(), d, &model.Settings{MaxIterations: 50})
			if err != nil {
				t.Fatal(err)
			}
			if r.Model != c.Name {
				t.Errorf("fit named %q", r.Model)
			}
			// Worker parameters are the skills a fit measures
			// (Result.WorkerSkills) and the noise model's own columns: a
			// fit with columns declares them, and every declared one
			// has skills.
			if r.WorkerColumns() != nil && !c.WorkerParams || c.WorkerParams && len(r.WorkerSkills()) != d.NumWorkers() {
				t.Errorf("worker columns %v, skills %v, declared %v", r.WorkerColumns(), r.WorkerSkills(), c.WorkerParams)
			}
			if got := r.TaskColumns() != nil; got != c.TaskParams {
				t.Errorf("task columns %v, declared %v", r.TaskColumns(), c.TaskParams)
			}
			if got := r.Distribution != nil; got != c.Both {
				t.Errorf("distribution %v, declared both answers %v", got, c.Both)
			}
			// A fit that reads a convergence tolerance, or a variational
			// one, has a solver.
			if got := r.Solved(); got != (slices.Contains(c.Settings, "func-tol") || c.Variational) {
				t.Errorf("solved %v, declared settings %v", got, c.Settings)
			}
		})
	}
}
