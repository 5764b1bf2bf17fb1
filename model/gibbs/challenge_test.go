package gibbs_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model/gibbs"
	"github.com/consensuslab/consensus/sim"
)

// TestChallenge checks Challenge on a crowd of 7 imbalanced classes whose
// workers err on the next class (`consensus simulate --model la-ds
// --classes 7 --labels-per-object 3 --workers 300 --objects 3000
// --activity 1 --accuracy 0.3:0.8 --class-prior
// 0.3,0.2,0.15,0.1,0.1,0.1,0.05 --error-decay 3 --seed 1`, the Bayes limit
// 0.783). Against a consensus that reads class 4's tasks as class 3's, as
// a mean-field fit does here (the sampler's own answer with class 4 moved
// to class 3), it takes the sampler's answer, which keeps class 4 and is
// at least 0.70 accurate, and says why. Against majority vote with class 4
// moved to class 3, whose labels are a most frequent vote more often than
// the sampler's, it declines; against majority vote itself, which drops
// no class, it fits nothing. Both return nil.
func TestChallenge(t *testing.T) {
	if testing.Short() {
		t.Skip("samples a crowd of 9000 labels")
	}
	d, gold := simulate(t, sim.Settings{Tasks: 3000, Workers: 300, Classes: 7, LabelsPerTask: 3, Seed: 1, Activity: 1,
		ClassPrior: []float64{0.3, 0.2, 0.15, 0.1, 0.1, 0.1, 0.05},
		Params:     sim.DSParams{Diag: []sim.Range{{Lo: 0.3, Hi: 0.8}}, ErrorDecay: 3}})
	k := d.NumClasses()
	fold := func(p []float64) []float64 {
		out := slices.Clone(p)
		for j := range d.NumTasks() {
			out[j*k+3] += out[j*k+4]
			out[j*k+4] = 0
		}
		return out
	}
	mv := fit(t, d, "mv", gibbs.Kinds{})
	for _, c := range []struct {
		name  string
		probs []float64
		take  bool
	}{
		{"the sampler's, class 4 as class 3", fold(fit(t, d, "", gibbs.Kinds{}).Probs), true},
		{"majority vote, class 4 as class 3", fold(mv.Probs), false},
		{"majority vote", mv.Probs, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, note, err := gibbs.Challenge(context.Background(), d, 0, c.probs, 1e-3)
			if err != nil {
				t.Fatal(err)
			}
			if !c.take {
				if p != nil || note != "" {
					t.Errorf("took the sampler's answer (%q), want none", note)
				}
				return
			}
			if p == nil {
				t.Fatal("declined, want the sampler's answer")
			}
			acc, err := metrics.Accuracy(p, k, gold, 1)
			if err != nil {
				t.Fatal(err)
			}
			var share float64
			for j := range d.NumTasks() {
				share += p[j*k+4] / float64(d.NumTasks())
			}
			t.Logf("accuracy %.4f, class 4's share %.4f: %s", acc, share, note)
			if acc < 0.70 || share < 0.05 || !strings.HasPrefix(note, "true class of gibbs-kinds (the fit gave class 4 ") {
				t.Errorf("accuracy %.4f, class 4's share %.4f, note %q: want 0.70, 0.05 and the class named", acc, share, note)
			}
		})
	}
}
