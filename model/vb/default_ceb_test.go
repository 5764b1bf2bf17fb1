package vb_test

import (
	"strings"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestDefaultCavityPriors checks the default model on a crowd of light
// workers with spammers (issue 39): K = 2, 4,000 tasks of 5 labels among
// 1,000 Dawid-Skene workers (20 labels each), 30% of them spammers, seed
// 2. The mean-field priors collapse there (every worker given the crowd's
// accuracy: 0.7947, the majority vote's, below vb-la-ds's 0.8110), and the
// shared priors are taken by cavity empirical Bayes instead (0.8213, ECE
// 0.025): the default must beat vb-la-ds by at least 0.005 and the
// majority vote by 0.02, with the calibration error at most 0.03.
func TestDefaultCavityPriors(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 20,000 labels twice")
	}
	c := sim.Settings{Tasks: 4000, Workers: 1000, LabelsPerTask: 5, Classes: 2, Spammers: 0.3,
		Noise: noise.DS{}, Latent: latent.LA{}, Seed: 2}
	gold, bayes, fits := fitSim(t, c, model.DefaultModel, "vb-la-ds", "mv")
	acc := func(p []float64) float64 { return must(metrics.Accuracy(p, 2, gold, 1)) }
	def, la := fits[model.DefaultModel], fits["vb-la-ds"]
	a, l, mv := acc(def.Probs), acc(la.Probs), acc(fits["mv"].Probs)
	ece := must(metrics.ECE(def.Probs, 2, gold, 10))
	t.Logf("default %.4f (ECE %.4f), vb-la-ds %.4f, mv %.4f, Bayes limit %.4f; %s", a, ece, l, mv, acc(bayes), def.Method)
	if !strings.Contains(def.Method, "cavity empirical Bayes") {
		t.Errorf("method %q: want the shared priors by cavity empirical Bayes", def.Method)
	}
	if a < l+0.005 || a < mv+0.02 || ece > 0.03 {
		t.Errorf("default accuracy %.4f, ECE %.4f; want at least vb-la-ds's %.4f + 0.005 and the majority vote's %.4f + 0.02, ECE at most 0.03", a, ece, l, mv)
	}
}
