package vb_test

import (
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestDefaultAdversarialCrowd checks the default model on a crowd of K = 5
// Dawid-Skene workers with class-dependent accuracies and their own error
// rows, 20% spammers and 20% adversaries, three labels a task (seed 1):
// with the one-coin and full kinds alone (noise.DS.Averaged) the normal
// workers were judged one-coin, their per-class accuracies and errors
// lost, and the default was 2.3 points below vb-la-ds (0.8265 against
// 0.8495); the per-class kind with Dirichlet errors around the crowd's
// pattern keeps them, and the default is at vb-la-ds or above.
func TestDefaultAdversarialCrowd(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a simulation")
	}
	const k = 5
	c := sim.Settings{Tasks: 4000, Workers: 50, LabelsPerTask: 3, Classes: k,
		Spammers: 0.2, Adversaries: 0.2, Noise: noise.DS{}, Latent: latent.LA{}, Seed: 1}
	gold, bayes, fits := fitSim(t, c, model.DefaultModel, "vb-la-ds")
	acc := func(p []float64) float64 { return must(metrics.Accuracy(p, k, gold, 1)) }
	a, la, lim := acc(fits[model.DefaultModel].Probs), acc(fits["vb-la-ds"].Probs), acc(bayes)
	t.Logf("default %.4f, vb-la-ds %.4f, Bayes limit %.4f", a, la, lim)
	if a < la-0.003 {
		t.Errorf("default accuracy %.4f, want at least vb-la-ds's %.4f less 0.003", a, la)
	}
}

// TestDefaultSingleLabels checks the default model where no task has labels
// of two workers (2,000 tasks of one-coin workers, one label each): nothing
// tells a worker's accuracy from the prior, and the prior learned from the
// workers ran to certainty (every label 0.9995 sure, ECE 0.27). The default
// keeps the fixed prior, says so, and its probabilities are those of
// vb-la-ds with vb.TruthFloor of the uniform distribution mixed in.
func TestDefaultSingleLabels(t *testing.T) {
	const k = 2
	c := sim.Settings{Tasks: 2000, Workers: 20, LabelsPerTask: 1, Classes: k,
		Noise: noise.OneCoin{}, Latent: latent.LA{}, Seed: 1}
	gold, _, fits := fitSim(t, c, model.DefaultModel, "vb-la-ds")
	def, la := fits[model.DefaultModel], fits["vb-la-ds"]
	ece := must(metrics.ECE(def.Probs, k, gold, 10))
	t.Logf("default: %s; ECE %.4f", def.Method, ece)
	if !strings.Contains(def.Method, "prior fixed") {
		t.Errorf("the summary does not say that the prior is fixed: %q", def.Method)
	}
	if ece > 0.08 {
		t.Errorf("ECE %.4f, want at most 0.08", ece)
	}
	for i, p := range def.Probs {
		if want := (1-vb.TruthFloor)*la.Probs[i] + vb.TruthFloor/k; math.Abs(p-want) > 1e-6 {
			t.Fatalf("probability %d: default %g, want vb-la-ds's %g with the floor, %g", i, p, la.Probs[i], want)
		}
	}
}
