package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// TestProbPathMatchesGeneric checks that the probability-space path
// (noise.ProbEvaluator with latent.ProbEvaluator) gives the same value and
// gradient as the generic log-space path, at random parameters of growing
// scale: at the larger scales many objects underflow and fall back to the
// log path inside the fast evaluation. (At scale 300 GLAD's difficulties
// exp(δ_j) overflow and both paths give NaN; those cases are skipped.)
func TestProbPathMatchesGeneric(t *testing.T) {
	for _, k := range []int{2, 3, 5} {
		d := randomData(t, uint64(10+k), 3000, 40, k)
		for _, m := range allModels() {
			for _, scale := range []float64{0, 1, 5, 30, 300} {
				name := fmt.Sprintf("%s/prior=%v/K=%d/scale=%g", m.Name(), m.Latent.GlobalDim(k) > 0, k, scale)
				t.Run(name, func(t *testing.T) {
					fast := newObjective(m, d, 2)
					if fast.pnoise == nil {
						t.Skip("no probability-space path")
					}
					generic := newObjective(m, d, 2)
					generic.pnoise, generic.platent = nil, nil
					x := m.Init(d)
					rng := rand.New(rand.NewPCG(uint64(k), math.Float64bits(scale)))
					for i := range x {
						x[i] += scale * rng.NormFloat64()
					}
					gf := make([]float64, len(x))
					gg := make([]float64, len(x))
					vf := fast.eval(x, gf)
					vg := generic.eval(x, gg)
					if math.IsNaN(vg) {
						t.Skip("the generic path gives NaN")
					}
					if math.Abs(vf-vg) > 1e-12*(1+math.Abs(vg)) || math.IsNaN(vf) {
						t.Errorf("value %.17g, generic %.17g", vf, vg)
					}
					bad := 0
					for i := range gg {
						if math.Abs(gf[i]-gg[i]) > 1e-12*(1+math.Abs(gg[i])) || math.IsNaN(gf[i]) != math.IsNaN(gg[i]) {
							if bad < 5 {
								t.Errorf("gradient[%d] = %.17g, generic %.17g", i, gf[i], gg[i])
							}
							bad++
						}
					}
				})
			}
		}
	}
}

// TestProbPathUsed checks that the models the benchmarks target take the
// fast path.
func TestProbPathUsed(t *testing.T) {
	d := randomData(t, 1, 10, 3, 2)
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
