package model

import (
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
)

// TestProbPathUsed checks that the models the benchmarks target take the
// fast path.
func TestProbPathUsed(t *testing.T) {
	d := noisetest.Data(t, 1, 10, 3, 2)
	for _, m := range []Model{
		{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}},
		{Noise: noise.DS{}, Latent: latent.DA{}},
		{Noise: noise.GLAD{}, Latent: latent.LA{}},
		{Noise: noise.GLAD{}, Latent: latent.DA{}},
	} {
		if newObjective(m, d, 1).pnoise == nil {
			t.Errorf("%s: no probability-space path", m.Name())
		}
	}
}
