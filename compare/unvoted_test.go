package compare_test

import (
	"strings"
	"testing"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/sim"
)

// unvotedCrowd is a crowd whose third class is seldom given: 10,000 tasks
// of 5 labels among 57 Dawid-Skene workers, class prior (0.4, 0.55, 0.05),
// P(z | z) from U(0.8, 0.98) for classes 0 and 1 and U(0.02, 0.1) for
// class 2, and three workers of every task calling a subtype of class 1
// (30% of it) class 0, as `consensus simulate --model la-ds --classes 3
// --class-prior 0.4,0.55,0.05 --accuracy 0.8:0.98,0.8:0.98,0.02:0.1
// --correlated workers=3,coverage=1,subtype=0.3,from=1,to=0 --workers 57
// --objects 10000 --labels-per-object 5 --seed 1`.
func unvotedCrowd() sim.Settings {
	return sim.Settings{Tasks: 10_000, Workers: 57, Classes: 3, LabelsPerTask: 5, Latent: latent.LA{}, Seed: 1,
		ClassPrior: []float64{0.4, 0.55, 0.05},
		Params:     sim.DSParams{Diag: []sim.Range{{Lo: 0.8, Hi: 0.98}, {Lo: 0.8, Hi: 0.98}, {Lo: 0.02, Hi: 0.1}}},
		Correlated: sim.Correlated{Workers: 3, Coverage: 1, Subtype: 0.3, From: 1, To: 0}}
}

// TestUnvotedClasses checks UnvotedClasses: on the crowd of unvotedCrowd,
// where la-ds makes class 2 the consensus of the subtype's tasks and more
// (accuracy 0.41, majority vote 0.78), it reports class 2 and
// WriteUnvotedClasses says so; the default, which refits with its pattern
// of confusion fixed there, and the default on regimes of independent
// workers, one with a rare class, have none.
func TestUnvotedClasses(t *testing.T) {
	if testing.Short() {
		t.Skip("fits simulations")
	}
	crowd := unvotedCrowd()
	sparse, err := sim.Regime("sparse", 1)
	if err != nil {
		t.Fatal(err)
	}
	many, err := sim.Regime("many-classes", 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		set   sim.Settings
		model string
		want  []int
	}{
		{"seldom given class", crowd, "la-ds", []int{2}},
		{"seldom given class", crowd, model.DefaultModel, nil},
		{"sparse", sparse, model.DefaultModel, nil},
		{"many-classes", many, model.DefaultModel, nil},
	} {
		t.Run(c.name+"/"+c.model, func(t *testing.T) {
			r, acc := fitSimulated(t, c.set, c.model)
			got := compare.UnvotedClasses(r)
			t.Logf("accuracy %.4f, unvoted classes %+v", acc, got)
			if len(got) != len(c.want) {
				t.Fatalf("%d classes reported, want %v", len(got), c.want)
			}
			for i, u := range got {
				if u.Class != c.want[i] || !(u.Share > 3*u.Labels) || !(u.Unvoted > 0.5) || u.Share < 0.01 {
					t.Errorf("reported %+v, want class %d above the bars", u, c.want[i])
				}
			}
			var b strings.Builder
			if err := compare.WriteUnvotedClasses(&b, r); err != nil {
				t.Fatal(err)
			}
			if lines := strings.Count(b.String(), "\n"); lines != len(c.want) || (lines > 0 && !strings.HasPrefix(b.String(), "unvoted class: class 2 ")) {
				t.Errorf("written %q", b.String())
			}
		})
	}
}

// TestUnvotedClassesNone checks that UnvotedClasses reports nothing for a
// nil result or one without probabilities.
func TestUnvotedClassesNone(t *testing.T) {
	if got := compare.UnvotedClasses(nil); got != nil {
		t.Errorf("nil result: %v", got)
	}
	if got := compare.UnvotedClasses(&model.Result{}); got != nil {
		t.Errorf("empty result: %v", got)
	}
}
