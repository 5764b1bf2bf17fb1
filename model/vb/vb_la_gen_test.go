package vb

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestVBLAScalar checks that the LA side's scalar updates at K = 2, 3 and 4
// (vbLA.objectsK, and objectsKTable on DS's table; vb_la_gen.go) and its
// loop on DS's table at K > 4 (objectsTable) give bit
// for bit the fit of the generic loop: the same outputs, bound and number
// of passes, with the confusion prior fixed (vb-la-ds) and shared (the
// default's), with and without gold tasks, on the binary shipped sets, on
// simulated Dawid-Skene data with 3, 4 and 6 classes, and on simulated
// one-coin data with tasks of 1,000 labels at 2 and 6 classes, whose
// products underflow the generic loop's rescaling threshold.
func TestVBLAScalar(t *testing.T) {
	sets := shippedSets(t, "rte", "temp", "duchenne")
	d, tr, err := sim.Simulate(sim.Settings{Noise: noise.OneCoin{}, Latent: latent.LA{}, Classes: 2, Tasks: 30, Workers: 1200, LabelsPerTask: 1000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	sets = append(sets, testSet{"simulated, 1,000 labels a task", d, tr.Gold()})
	d, tr, err = sim.Simulate(sim.Settings{Noise: noise.OneCoin{}, Latent: latent.LA{}, Classes: 6, Tasks: 30, Workers: 1200, LabelsPerTask: 1000, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	sets = append(sets, testSet{"simulated, 6 classes, 1,000 labels a task", d, tr.Gold()})
	for _, k := range []int{3, 4, 6} {
		d, tr, err := sim.Simulate(sim.Settings{Noise: noise.DS{}, Latent: latent.LA{}, Classes: k, Tasks: 400, Workers: 30, LabelsPerTask: 5, Seed: uint64(k)})
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, testSet{fmt.Sprintf("simulated, %d classes", k), d, tr.Gold()})
	}
	for _, st := range sets {
		d, gold := st.d, st.gold
		clamped := make([]int, d.NumTasks()) // every fifth gold task
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
			nm   noise.Conjugate
			gold []int
		}{
			{"fixed prior", noise.DS{}, nil},
			{"shared prior", noise.DS{SharedPrior: true}, nil},
			{"gold", noise.DS{SharedPrior: true}, clamped},
		} {
			fit := func(generic, untabled bool) *model.Result {
				own := model.Settings{FunctionTol: VBFunctionTol, ParamTol: VBParamTol}
				s := newVBLA(d, tc.gold)
				s.generic, s.untabled = generic, untabled
				r, err := vbFit(context.Background(), "vb-la-ds", d, own.WithDefaults(), tc.nm.NewVariational(d), s, vbFresh, nil)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			want := fit(true, false)
			for _, untabled := range []bool{false, true} {
				got := fit(false, untabled)
				if got.Iterations != want.Iterations || math.Float64bits(got.LogLikelihood) != math.Float64bits(want.LogLikelihood) {
					t.Errorf("%s, %s, untabled %v: %d passes, bound %v; generic loop: %d passes, bound %v", st.name, tc.name, untabled, got.Iterations, got.LogLikelihood, want.Iterations, want.LogLikelihood)
				}
				for i, p := range got.Probs {
					if math.Float64bits(p) != math.Float64bits(want.Probs[i]) {
						t.Errorf("%s, %s, untabled %v: output %d is %v, generic loop %v", st.name, tc.name, untabled, i, p, want.Probs[i])
						break
					}
				}
			}
		}
	}
}

// testSet is a data set to fit in a test, with its gold labels.
type testSet struct {
	name string
	d    *data.Dataset
	gold *data.Gold
}

// shippedSets loads the named shipped data sets.
func shippedSets(t *testing.T, names ...string) []testSet {
	t.Helper()
	var sets []testSet
	for _, name := range names {
		d, gold, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, testSet{name, d, gold})
	}
	return sets
}
