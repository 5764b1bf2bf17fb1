package model

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestOptimDim checks the number of parameters gonum is handed: the free
// ones before a held suffix, rounded up to four, and all of them without a
// held suffix or a free parameter.
func TestOptimDim(t *testing.T) {
	held := func(n, from int) []bool {
		f := make([]bool, n)
		for i := from; i < n; i++ {
			f[i] = true
		}
		return f
	}
	for _, c := range []struct {
		name  string
		fixed []bool
		n     int
		want  int
	}{
		{"none", nil, 10, 10},
		{"no suffix", []bool{true, false, false}, 3, 3},
		{"suffix at 4", held(10, 4), 10, 4},
		{"suffix at 5", held(10, 5), 10, 8},
		{"suffix at 9", held(10, 9), 10, 10},
		{"all held", held(6, 0), 6, 6},
		{"held in the middle too", append([]bool{false, true, false}, held(5, 0)...), 8, 4},
	} {
		if got := optimDim(c.fixed, c.n); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestHeldSuffixSameFit checks that a gradient fit with a held suffix (the
// relabelled start's fit of the noise parameters with every q_j held),
// whose optimiser sees only the free parameters, ends where the fit that
// hands gonum the whole vector ends, bit for bit, by L-BFGS and by CG, for
// free parts of every length modulo four (without the rounding up to four
// the fits with 14 and 15 workers end elsewhere).
func TestHeldSuffixSameFit(t *testing.T) {
	for _, workers := range []int{12, 13, 14, 15} {
		d, _, err := sim.Simulate(sim.Settings{Tasks: 200, Workers: workers, LabelsPerTask: 5, Classes: 3, Noise: noise.GLAD{}, Latent: latent.DA{}, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		m := Model{Noise: noise.GLAD{}, Latent: latent.DA{}}
		lay := m.Layout(d)
		x0 := m.Init(d)
		fixed := make([]bool, len(x0))
		for i := lay.T[0]; i < lay.T[1]; i++ {
			fixed[i] = true
		}
		if optimDim(fixed, len(x0)) == len(x0) {
			t.Fatalf("%d workers: the held q_j are not a suffix", workers)
		}
		for _, method := range []Method{LBFGS, CG} {
			fit := func(full bool) *Result {
				s := &Settings{Method: method, Start: slices.Clone(x0), Fixed: fixed, MaxIterations: 200, fullOptim: full}
				r, err := m.FitOnce(context.Background(), d, s)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			a, b := fit(false), fit(true)
			same := a.Iterations == b.Iterations && a.Evaluations == b.Evaluations &&
				math.Float64bits(a.LogLikelihood) == math.Float64bits(b.LogLikelihood) && slices.Equal(a.Params, b.Params)
			if !same {
				t.Errorf("%d workers, %v: %d iterations, L %v against %d, %v with the whole vector", workers, method, a.Iterations, a.LogLikelihood, b.Iterations, b.LogLikelihood)
			}
			if !slices.Equal(a.Params[lay.T[0]:], x0[lay.T[0]:]) {
				t.Errorf("%d workers, %v: the held q_j moved", workers, method)
			}
		}
	}
}
