package model_test

import (
	"fmt"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// mse is the mean over objects of half the squared distance between two
// J×K matrices of distributions (for K = 2, the squared error in the
// probability of class 1).
func mse(a, b []float64, k int) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return s / float64(len(a)/k) / 2
}

func agreement(a, b []int) float64 {
	n := 0
	for i := range a {
		if a[i] == b[i] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// TestRecovery fits every model to data simulated from its own generative
// process and checks that it recovers the truth: the true classes for LA
// models (at least as well as majority vote, and at least 90%), the true
// distributions q_j for DA models (mean squared error below the stated
// tolerance and below that of the label frequencies, which are biased by
// the workers' noise, where the simulated workers are noisy).
func TestRecovery(t *testing.T) {
	cases := []struct {
		noise  noise.Model
		la     bool
		k      int
		maxMSE float64
		// beatRFE: the simulated workers are noisy enough that the
		// frequencies are visibly biased and DA must beat them. GLAD's
		// simulated workers (the paper's e_w ~ U[0, 4], d_j = e^U[0,3])
		// are nearly perfect, so frequencies are already close to q_j.
		beatRFE bool
	}{
		{noise.DS{}, true, 2, 0, false}, {noise.DS{}, true, 3, 0, false},
		{noise.GLAD{}, true, 2, 0, false}, {noise.GLAD{}, true, 3, 0, false},
		{noise.MME{}, true, 2, 0, false}, {noise.MME{}, true, 3, 0, false},
		{noise.DS{}, false, 2, 0.01, true}, {noise.DS{}, false, 3, 0.01, true},
		{noise.GLAD{}, false, 2, 0.015, false}, {noise.GLAD{}, false, 3, 0.015, false},
		{noise.MME{}, false, 2, 0.04, true}, {noise.MME{}, false, 3, 0.04, true},
	}
	for _, c := range cases {
		var lat latent.Assumption = latent.DA{}
		if c.la {
			lat = latent.LA{LearnPrior: c.noise.(noise.Describer).Info().LearnPrior}
		}
		m := model.Model{Noise: c.noise, Latent: lat}
		t.Run(fmt.Sprintf("%s/K=%d", m.Name(), c.k), func(t *testing.T) {
			cfg := sim.Config{Tasks: 200, Workers: 150, Classes: c.k, Noise: c.noise, Latent: lat, Seed: 42}
			if c.la {
				cfg.Workers, cfg.LabelsPerTask = 40, 7
			}
			d, truth, err := sim.Simulate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			r, err := m.Fit(d, &model.Settings{MaxIterations: 300})
			if err != nil {
				t.Fatal(err)
			}
			freq := d.Frequencies()
			if c.la {
				want := model.Argmax(truth.Target, c.k, 1)
				acc := agreement(r.Labels(1), want)
				mv := agreement(model.Argmax(freq, c.k, 1), want)
				t.Logf("accuracy %.3f, majority vote %.3f", acc, mv)
				if acc < 0.9 || acc < mv-0.01 {
					t.Errorf("accuracy %.3f against the true classes, majority vote %.3f", acc, mv)
				}
				return
			}
			got, rfe := mse(r.Probs, truth.Q, c.k), mse(freq, truth.Q, c.k)
			t.Logf("MSE %.4f, frequencies %.4f", got, rfe)
			if got > c.maxMSE || (c.beatRFE && got >= rfe) {
				t.Errorf("MSE %.4f (tolerance %.3f), frequencies %.4f", got, c.maxMSE, rfe)
			}
		})
	}
}
