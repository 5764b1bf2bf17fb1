package model

import (
	"context"
	"math"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/noise"
)

// TestVBObject2 checks that the scalar update of an object at K = 2
// (vbDA.object2) gives bit for bit the fit of the generic loop: the same
// outputs, bound and number of passes, with the prior fixed and estimated
// (hier), with and without gold objects, on the binary shipped sets.
func TestVBObject2(t *testing.T) {
	for _, name := range []string{"rte", "temp", "duchenne"} {
		d, gold, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if d.NumClasses() != 2 {
			continue
		}
		// Every fifth gold task clamped, the others free.
		clamped := make([]int, d.NumTasks())
		for j := range clamped {
			clamped[j] = -1
		}
		for i, j := range gold.Task {
			if i%5 == 0 {
				clamped[j] = int(gold.Label[i])
			}
		}
		for _, tc := range []struct {
			name string
			hier bool
			gold []int
		}{
			{"fixed", false, nil},
			{"hier", true, nil},
			{"gold", false, clamped},
		} {
			fit := func(generic bool) *Result {
				own := Settings{FunctionTol: VBFunctionTol, ParamTol: VBParamTol}
				set := own.withDefaults()
				var a []float64
				if !tc.hier {
					a = []float64{JeffreysPrior, JeffreysPrior}
				}
				s := newVBDA(d, tc.hier, a, tc.gold)
				s.generic = generic
				r, err := vbFit(context.Background(), "vb-da-ds", d, set, noise.DS{}.NewVariational(d), s, vbFresh, nil)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			want, got := fit(true), fit(false)
			if got.Iterations != want.Iterations || math.Float64bits(got.LogLikelihood) != math.Float64bits(want.LogLikelihood) {
				t.Errorf("%s %s: %d passes, bound %v; generic loop: %d passes, bound %v", name, tc.name, got.Iterations, got.LogLikelihood, want.Iterations, want.LogLikelihood)
			}
			for i, p := range got.Probs {
				if math.Float64bits(p) != math.Float64bits(want.Probs[i]) {
					t.Errorf("%s %s: output %d is %v, generic loop %v", name, tc.name, i, p, want.Probs[i])
					break
				}
			}
		}
	}
}
