package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// randomData returns a small data set with uniformly random labels: j tasks,
// w workers, k classes, 1 to 6 labels per task, repeated workers allowed.
func randomData(t testing.TB, seed uint64, j, w, k int) *data.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var task, worker []int32
	var label []uint16
	for tj := 0; tj < j; tj++ {
		for range 1 + rng.IntN(6) {
			task = append(task, int32(tj))
			worker = append(worker, int32(rng.IntN(w)))
			label = append(label, uint16(rng.IntN(k)))
		}
	}
	d, err := data.FromIndices(names("t", j), names("w", w), names("c", k), task, worker, label)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func names(prefix string, n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprint(prefix, i)
	}
	return s
}

// allModels returns every noise model of the registry (and GLAD with
// priors) under LA with a learned and a uniform prior and under DA.
func allModels() []Model {
	var ms []Model
	noises := []noise.Model{noise.GLAD{PriorVar: 0.5}}
	for _, n := range NoiseModels() {
		noises = append(noises, n)
	}
	for _, n := range noises {
		ms = append(ms,
			Model{Noise: n, Latent: latent.LA{LearnPrior: true}},
			Model{Noise: n, Latent: latent.LA{}},
			Model{Noise: n, Latent: latent.DA{}},
		)
	}
	return ms
}

// TestGradient checks the analytic gradient of every model against central
// finite differences at random parameters.
func TestGradient(t *testing.T) {
	for _, k := range []int{2, 3} {
		d := randomData(t, uint64(k), 12, 5, k)
		for _, m := range allModels() {
			name := fmt.Sprintf("%s/prior=%v/K=%d", m.Name(), m.Latent.GlobalDim(k) > 0, k)
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

// TestThreadsIdentical checks that the value and gradient are bit-for-bit
// the same for any number of goroutines.
func TestThreadsIdentical(t *testing.T) {
	d := randomData(t, 3, 20000, 50, 3) // enough labels for several chunks
	for _, m := range allModels() {
		x := m.Init(d)
		g1 := make([]float64, len(x))
		v1 := m.LogLikelihood(d, x, g1, 1)
		for _, threads := range []int{2, 3, 8} {
			g := make([]float64, len(x))
			v := m.LogLikelihood(d, x, g, threads)
			if v != v1 {
				t.Errorf("%s: threads=%d value %v, threads=1 %v", m.Name(), threads, v, v1)
			}
			for i := range g {
				if g[i] != g1[i] {
					t.Errorf("%s: threads=%d gradient[%d] differs", m.Name(), threads, i)
					break
				}
			}
		}
	}
}
