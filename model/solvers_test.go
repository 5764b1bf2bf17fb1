package model_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// TestSolverComparison fits LA-DS and DA-DS to the shipped data sets with
// EM, L-BFGS and CG and logs a table of the final log-likelihood per label,
// accuracy against the gold labels, iterations and time (the table in
// docs/performance.md). It is slow-ish and runs only when
// CONSENSUS_SOLVER_TABLE is true; CONSENSUS_SOLVER_METHODS (a comma-separated
// list such as "em" or "lbfgs,cg") limits the solvers:
//
//	CONSENSUS_SOLVER_TABLE=1 go test ./model -run SolverComparison -v
//	CONSENSUS_SOLVER_TABLE=1 CONSENSUS_SOLVER_METHODS=em go test ./model -run SolverComparison -v
func TestSolverComparison(t *testing.T) {
	if ok, _ := strconv.ParseBool(os.Getenv("CONSENSUS_SOLVER_TABLE")); !ok {
		t.Skip("set CONSENSUS_SOLVER_TABLE=1 to run")
	}
	methods := []model.Method{model.EM, model.LBFGS, model.CG}
	if names := os.Getenv("CONSENSUS_SOLVER_METHODS"); names != "" {
		methods = nil
		for _, name := range strings.Split(names, ",") {
			method, err := model.ParseMethod(name)
			if err != nil {
				t.Fatal(err)
			}
			methods = append(methods, method)
		}
	}
	ms := []model.Model{
		{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}},
		{Noise: noise.DS{}, Latent: latent.DA{}},
	}
	fmt.Printf("| data set | labels | model | solver | iterations | L/N | accuracy | time |\n|---|---|---|---|---|---|---|---|\n")
	for _, name := range datasets.Names() {
		d, gold, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			for _, method := range methods {
				var r *model.Result
				var best time.Duration
				for rep := 0; rep < 3; rep++ {
					r, err = m.Fit(context.Background(), d, &model.Settings{Method: method})
					if err != nil {
						t.Fatal(err)
					}
					if rep == 0 || r.Runtime < best {
						best = r.Runtime
					}
				}
				acc := "-"
				if gold != nil && gold.Len() > 0 {
					labels := r.Labels(1)
					ok := 0
					for i, j := range gold.Task {
						if labels[j] == int(gold.Label[i]) {
							ok++
						}
					}
					acc = fmt.Sprintf("%.4f", float64(ok)/float64(gold.Len()))
				}
				fmt.Printf("| %s | %d | %s | %s | %d | %.6f | %s | %v |\n", name, d.NumLabels(), m.Name(), method,
					r.Iterations, r.LogLikelihood/float64(d.NumLabels()), acc, best.Round(100*time.Microsecond))
			}
		}
	}
}
