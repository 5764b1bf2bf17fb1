package vb_test

import (
	"strings"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/sim"
)

// TestDefaultChallenge checks the default where two busy workers share a
// mistake so well that independent workers take it for the truth: they
// label every task and call 30% of class 0 class 1, among 148 other
// workers of skewed activity whose accuracy on class 1 is lower. The
// default's own fit explains their agreement (its shared-errors check
// finds no pair) and scores 0.7375, below majority vote's 0.8387; a
// one-coin reference fit flags the pair, EBCC's subtypes predict held-out
// labels better (by 8 standard errors) and side with the crowd's votes on
// more tasks, and the default takes EBCC's true class (ebcc.Challenge):
// 0.8628, beside EBCC's own 0.8668 (ten subtypes a class).
func TestDefaultChallenge(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a simulation and its held-out splits")
	}
	c := sim.Settings{Tasks: 4000, Workers: 150, Classes: 2, LabelsPerTask: 5, Latent: latent.LA{}, Seed: 1,
		Activity:   0.8,
		ClassPrior: []float64{0.6, 0.4},
		Params:     sim.DSParams{Diag: []sim.Range{{Lo: 0.75, Hi: 0.9}, {Lo: 0.6, Hi: 0.8}}},
		Correlated: sim.Correlated{Workers: 2, Coverage: 1, Subtype: 0.3, From: 0, To: 1}}
	gold, _, fits := fitSim(t, c, model.DefaultModel, "mv", "ebcc")
	def := fits[model.DefaultModel]
	acc := func(name string) float64 { return must(metrics.Accuracy(fits[name].Probs, 2, gold, 1)) }
	a, mv, e := acc(model.DefaultModel), acc("mv"), acc("ebcc")
	t.Logf("default %.4f, majority vote %.4f, ebcc %.4f; %s", a, mv, e, def.Method)
	if !strings.Contains(def.Method, "true class of EBCC") {
		t.Errorf("the default did not take EBCC's true class: %s", def.Method)
	}
	if a < mv+0.02 || a < e-0.01 {
		t.Errorf("default accuracy %.4f: not 2 points above majority vote's %.4f, or more than a point below ebcc's %.4f", a, mv, e)
	}
	if def.Distribution == nil {
		t.Error("no label distribution")
	}
}
