package compare_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestAbsentClasses checks AbsentClasses on a crowd of 7 imbalanced
// classes whose workers err on the next class (`consensus simulate --model
// la-ds --classes 7 --labels-per-object 3 --workers 300 --objects 3000
// --activity 1 --accuracy 0.3:0.8 --class-prior
// 0.3,0.2,0.15,0.1,0.1,0.1,0.05 --error-decay 3 --seed 1`): a consensus
// that reads class 4's tasks as class 3's (majority vote with class 4
// moved to class 3, as a mean-field fit does here) has class 4 reported,
// and WriteAbsentClasses says so; majority vote has none, nor the default,
// which takes gibbs-kinds's answer there (gibbs.Challenge) and must reach
// 0.70 (mean field alone: 0.612; the Bayes limit 0.783); the default on a
// regime of independent workers has none; a result without probabilities
// has none.
func TestAbsentClasses(t *testing.T) {
	if testing.Short() {
		t.Skip("fits simulations")
	}
	shift := sim.Settings{Tasks: 3000, Workers: 300, Classes: 7, LabelsPerTask: 3, Seed: 1, Activity: 1,
		ClassPrior: []float64{0.3, 0.2, 0.15, 0.1, 0.1, 0.1, 0.05}, Noise: noise.DS{}, Latent: latent.LA{},
		Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.3, Hi: 0.8}}, ErrorDecay: 3}}
	sparse, err := sim.Regime("sparse", 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		set   sim.Settings
		model string
		fold  bool // class 4 moved to class 3
		want  []int
		least float64 // accuracy
	}{
		{"next-class errors", shift, "mv", true, []int{4}, 0},
		{"next-class errors", shift, "mv", false, nil, 0},
		{"next-class errors", shift, model.DefaultModel, false, nil, 0.70},
		{"sparse", sparse, model.DefaultModel, false, nil, 0.90},
	} {
		t.Run(fmt.Sprintf("%s/%s/fold=%v", c.name, c.model, c.fold), func(t *testing.T) {
			r, acc := fitSimulated(t, c.set, c.model)
			if c.fold {
				k := r.Data.NumClasses()
				for j := range r.Data.NumTasks() {
					r.Probs[j*k+3] += r.Probs[j*k+4]
					r.Probs[j*k+4] = 0
				}
			}
			got := compare.AbsentClasses(r)
			t.Logf("accuracy %.4f, absent classes %+v", acc, got)
			if acc < c.least {
				t.Errorf("accuracy %.4f, want %.2f or more", acc, c.least)
			}
			if len(got) != len(c.want) {
				t.Fatalf("%d classes reported, want %v", len(got), c.want)
			}
			for i, a := range got {
				if a.Class != c.want[i] || !(a.Share < compare.AbsentShare*a.Votes) || (a.Agreement < compare.AbsentAgreement && a.Crowd < compare.AbsentCrowd) {
					t.Errorf("reported %+v, want class %d beyond the bars", a, c.want[i])
				}
			}
			var b strings.Builder
			if err := compare.WriteAbsentClasses(&b, r); err != nil {
				t.Fatal(err)
			}
			if lines := strings.Count(b.String(), "\n"); lines != len(c.want) || (lines > 0 && !strings.HasPrefix(b.String(), "absent class: class 4 is the most frequent label of ")) {
				t.Errorf("written %q", b.String())
			}
		})
	}
	if got := compare.AbsentClasses(&model.Result{}); got != nil {
		t.Errorf("empty result: %v", got)
	}
}

// fitSimulated simulates set, fits the model of that name to it and
// returns the fit and its accuracy against the simulation's true classes.
func fitSimulated(t *testing.T, set sim.Settings, name string) (*model.Result, float64) {
	t.Helper()
	d, tr, err := sim.Simulate(set)
	if err != nil {
		t.Fatal(err)
	}
	est, err := model.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := est.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := metrics.Accuracy(r.Probs, d.NumClasses(), tr.Gold(), 1)
	if err != nil {
		t.Fatal(err)
	}
	return r, acc
}
