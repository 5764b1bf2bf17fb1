package vb_test

import (
	"strings"
	"testing"

	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/sim"
)

// TestDefaultChallenge checks the default on the shared-mistake regime,
// where two workers on every task share a mistake so well that independent
// workers take it for the truth, on two seeds. The default's own fit
// explains their agreement (its shared-errors check finds no pair) and
// scores 0.7375 and 0.7378, below majority vote's 0.8387 and 0.8553; a
// one-coin reference fit flags the pair, EBCC's subtypes predict held-out
// labels better and side with the crowd's votes on 3.6 and 7.7 points more
// of the tasks, and the default takes EBCC's true class (ebcc.Challenge):
// within 2 points of the Bayes limit, 2 above majority vote, and within
// half a point of EBCC's own (ten subtypes a class). A third crowd (seed 4) of
// 6,000 tasks (30,000 labels, more than ebcc.ChallengeLabels) takes the
// path of large data: the votes checked on the splits' subsample, then
// EBCC fitted to all the labels from the start that was best there.
func TestDefaultChallenge(t *testing.T) {
	if testing.Short() {
		t.Skip("fits three simulations and their held-out splits")
	}
	for _, c := range []struct {
		seed  uint64
		tasks int // zero: the regime's
	}{{1, 0}, {2, 0}, {4, 6000}} {
		seed := c.seed
		set, err := sim.Regime("shared-mistake", seed)
		if err != nil {
			t.Fatal(err)
		}
		if c.tasks > 0 {
			set.Tasks = c.tasks
		}
		gold, bayes, fits := fitSim(t, set, model.DefaultModel, "mv", "ebcc")
		def := fits[model.DefaultModel]
		acc := func(p []float64) float64 { return must(metrics.Accuracy(p, 2, gold, 1)) }
		a, lim, mv, e := acc(def.Probs), acc(bayes), acc(fits["mv"].Probs), acc(fits["ebcc"].Probs)
		ece := must(metrics.ECE(def.Probs, 2, gold, 10))
		t.Logf("seed %d: default %.4f (ECE %.4f), Bayes limit %.4f, majority vote %.4f, ebcc %.4f; %s", seed, a, ece, lim, mv, e, def.Method)
		if !strings.Contains(def.Method, "true class of EBCC") {
			t.Errorf("seed %d: the default did not take EBCC's true class: %s", seed, def.Method)
		}
		if a < lim-0.02 || a < mv+0.02 || a < e-0.005 {
			t.Errorf("seed %d: default accuracy %.4f: more than 2 points below the Bayes limit %.4f, not 2 above majority vote's %.4f, or more than half a point below ebcc's %.4f", seed, a, lim, mv, e)
		}
		if ece > 0.05 {
			t.Errorf("seed %d: ECE %.4f above 0.05", seed, ece)
		}
		if def.Distribution == nil {
			t.Errorf("seed %d: no label distribution", seed)
		}
	}
}
