package model_test

import (
	"context"
	"math"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
)

// TestWorkerSkills checks the per-worker skill: 1 for every worker of RFE
// (perfect workers) and of a Dawid-Skene fit whose prior pins every
// confusion matrix to the identity; in (0, 1] for a real fit (maximum-
// likelihood GLAD reaches 1 in floating point for its best workers); and
// Agreement is the label-weighted mean of the skills.
func TestWorkerSkills(t *testing.T) {
	d, _, err := datasets.Load("temp")
	if err != nil {
		t.Fatal(err)
	}
	n := make([]float64, d.NumWorkers())
	for _, w := range d.Worker {
		n[w]++
	}
	for _, c := range []struct {
		est     model.Estimator
		perfect bool
	}{
		{model.RFE{}, true},
		{vb.Bayes{Noise: noise.DS{PriorDiag: 1e9, PriorOff: 1e-9}, Latent: latent.DA{}}, true},
		{vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}}, false},
		{model.Model{Noise: noise.GLAD{}, Latent: latent.LA{}}, false},
	} {
		r, err := c.est.Fit(context.Background(), d, &model.Settings{MaxIterations: 200})
		if err != nil {
			t.Fatal(err)
		}
		var mean float64
		bad := 0
		for w, s := range r.WorkerSkills() {
			if c.perfect && math.Abs(s-1) > 1e-6 || !c.perfect && !(s > 0 && s <= 1) {
				bad++
			}
			mean += n[w] * s
		}
		if bad > 0 {
			t.Errorf("%s: %d workers with skills out of range", c.est.Name(), bad)
		}
		mean /= float64(d.NumLabels())
		if a := r.Agreement(); math.Abs(a-mean) > 1e-12 {
			t.Errorf("%s: agreement %g, mean skill %g", c.est.Name(), a, mean)
		}
	}
}
