package vb_test

import (
	"strings"
	"testing"

	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
)

// Of the registered variational models, the ones that give both answers
// (vb-X) and only those of a noise model of confusion rows
// (noise.Info.ConfusionRows: vb-ds) challenge their answer with EBCC's.
func TestChallengeFollowsConfusionRows(t *testing.T) {
	both := 0
	for _, e := range model.Registry() {
		b, ok := e.New().(vb.Bayes)
		if !ok {
			continue
		}
		if !b.Both {
			if b.Challenge {
				t.Errorf("%s challenges its answer without giving both", e.Name)
			}
			continue
		}
		both++
		d, ok := b.Noise.(noise.Describer)
		if !ok {
			t.Fatalf("%s: noise model %s declares no Info", e.Name, b.Noise.Name())
		}
		if want := d.Info().ConfusionRows; b.Challenge != want {
			t.Errorf("%s: Challenge %v, want %v (ConfusionRows of %s)", e.Name, b.Challenge, want, b.Noise.Name())
		}
		if b.Challenge != (e.Name == "vb-ds") {
			t.Errorf("%s: Challenge %v; only vb-ds challenges", e.Name, b.Challenge)
		}
		if !strings.HasPrefix(e.Name, "vb-") {
			t.Errorf("%s gives both answers but is not named vb-X", e.Name)
		}
	}
	if both < 2 {
		t.Fatalf("%d variational models give both answers, want at least vb-ds and one more", both)
	}
}
