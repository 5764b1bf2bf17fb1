package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// extraModels are the models beyond the paper: the new noise models under
// every assumption, and the new assumptions (hierarchical DA, gold
// clamping) over every noise model.
func extraModels(k int) []Model {
	p := make([]float64, k)
	for z := range p {
		p[z] = float64(z+1) / float64(k*(k+1)/2)
	}
	gold := make([]int, 12)
	for j := range gold {
		gold[j] = -1
		if j%3 == 0 {
			gold[j] = j % k
		}
	}
	var ms []Model
	for _, n := range []noise.Model{noise.OneCoin{}, noise.MACE{}, noise.RegMME{}} {
		ms = append(ms,
			Model{Noise: n, Latent: latent.LA{LearnPrior: true}},
			Model{Noise: n, Latent: latent.LA{}},
			Model{Noise: n, Latent: latent.DA{}},
		)
	}
	for _, n := range []noise.Model{noise.DS{}, noise.GLAD{}, noise.MME{}, noise.OneCoin{}, noise.MACE{}, noise.RegMME{Alpha: 0.7, Beta: 1.3}} {
		ms = append(ms,
			Model{Noise: n, Latent: latent.Dirichlet{Alpha: 2.5, P: p}},
			Model{Noise: n, Latent: latent.Dirichlet{Alpha: 0.3}},
			Model{Noise: n, Latent: latent.WithGold{Base: latent.LA{LearnPrior: true}, Class: gold}},
			Model{Noise: n, Latent: latent.WithGold{Base: latent.DA{}, Class: gold}},
		)
	}
	return ms
}

// TestGradientExtra checks the analytic gradient of the extra models
// against central finite differences at random parameters, as TestGradient
// does for the paper's.
func TestGradientExtra(t *testing.T) {
	for _, k := range []int{2, 3} {
		d := randomData(t, uint64(k), 12, 5, k)
		for i, m := range extraModels(k) {
			name := fmt.Sprintf("%d:%s/%T/K=%d", i, m.Name(), m.Latent, k)
			t.Run(name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(1, uint64(k)))
				x := m.Init(d)
				for i := range x {
					x[i] = rng.NormFloat64()
				}
				grad := make([]float64, len(x))
				m.LogLikelihood(d, x, grad, 1)
				f := func(x []float64) float64 {
					return m.LogLikelihood(d, x, make([]float64, len(x)), 1)
				}
				want := fd.Gradient(nil, f, x, &fd.Settings{Formula: fd.Central, Step: 1e-5})
				for i := range want {
					if diff := math.Abs(grad[i] - want[i]); diff > 1e-6*(1+math.Abs(want[i])) {
						t.Errorf("∂L/∂x[%d] = %.9g, finite difference %.9g", i, grad[i], want[i])
					}
				}
			})
		}
	}
}
