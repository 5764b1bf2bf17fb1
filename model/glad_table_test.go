package model_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// TestGLADPriorTable fits LA-GLAD and DA-GLAD to the shipped data sets by
// maximum likelihood and with the Gaussian priors of noise.GLAD.PriorVar
// (variance 1), with L-BFGS and the default settings, and logs the
// iterations, the stopping status, accuracy and log loss against the gold
// labels, and time (the table in docs/performance.md). The prior keeps
// every probability away from 0 and 1, so its log losses must be finite.
// It runs only when CONSENSUS_GLAD_TABLE is true:
//
//	CONSENSUS_GLAD_TABLE=1 go test ./model -run GLADPriorTable -v
func TestGLADPriorTable(t *testing.T) {
	if ok, _ := strconv.ParseBool(os.Getenv("CONSENSUS_GLAD_TABLE")); !ok {
		t.Skip("set CONSENSUS_GLAD_TABLE=1 to run")
	}
	fmt.Printf("| data set | model | prior | iterations | status | accuracy | log loss | time |\n|---|---|---|---|---|---|---|---|\n")
	for _, name := range datasets.Names() {
		d, gold, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if gold == nil || gold.Len() == 0 {
			continue
		}
		k := d.NumClasses()
		for _, lat := range []latent.Assumption{latent.LA{}, latent.DA{}} {
			for _, v := range []float64{0, 1} {
				m := model.Model{Noise: noise.GLAD{PriorVar: v}, Latent: lat}
				r, err := m.Fit(context.Background(), d, &model.Settings{Method: model.LBFGS})
				if err != nil {
					t.Fatal(err)
				}
				ll := must(metrics.LogLoss(r.Probs, k, gold))
				if v > 0 && math.IsInf(ll, 0) {
					t.Errorf("%s %s with prior: infinite log loss", name, m.Name())
				}
				fmt.Printf("| %s | %s | %g | %d | %s | %.4f | %.4f | %v |\n", name, m.Name(), v, r.Iterations, r.Status,
					must(metrics.Accuracy(r.Probs, k, gold, 0)), ll, r.Runtime.Round(1e6))
			}
		}
	}
}

// must returns v; it panics, failing the test, if err is not nil.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
