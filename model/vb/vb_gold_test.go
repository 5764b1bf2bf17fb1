package vb_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
)

// adversarialCrowd returns 400 binary tasks labelled by 10 workers each,
// 8 of whom give the wrong class 85% of the time and 2 the right one 85%
// of the time, and the true classes. Without gold every consensus that
// believes workers are better than chance (the variational fits' prior)
// takes the majority's wrong class; gold on a few tasks shows the
// majority's workers to be adversarial.
func adversarialCrowd(t *testing.T) (*data.Dataset, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	const tasks, workers = 400, 10
	truth := make([]int, tasks)
	var ti, wi []int32
	var li []uint16
	names := make([]string, tasks)
	for j := range tasks {
		names[j] = fmt.Sprint("t", j)
		truth[j] = rng.IntN(2)
		for w := range workers {
			right := rng.Float64() < 0.85
			if w < 8 {
				right = !right
			}
			y := truth[j]
			if !right {
				y = 1 - y
			}
			ti, wi, li = append(ti, int32(j)), append(wi, int32(w)), append(li, uint16(y))
		}
	}
	ws := make([]string, workers)
	for w := range ws {
		ws[w] = fmt.Sprint("w", w)
	}
	d, err := data.FromIndices(names, ws, []string{"0", "1"}, ti, wi, li)
	if err != nil {
		t.Fatal(err)
	}
	return d, truth
}

// TestGoldAdversarialMajority checks training gold (GoldTrainer) in the
// variational fits (every form: LA, DA, staged, hierarchical) and the
// maximum-likelihood la-ds and da-ds: with the classes of 40 of 400 tasks
// known, each finds that the majority of the workers is adversarial and
// labels at least 90% of the other tasks right, where without gold it
// labels at most 10% right (the workers start from the gold tasks alone,
// and the label-switching guard leaves a fit with gold alone); the gold
// tasks' outputs are their classes; and a wrong-length gold is refused.
func TestGoldAdversarialMajority(t *testing.T) {
	d, truth := adversarialCrowd(t)
	gold := make([]int, len(truth))
	for j := range gold {
		gold[j] = -1
		if j%10 == 0 {
			gold[j] = truth[j]
		}
	}
	for _, b := range []model.GoldTrainer{
		vb.Bayes{Noise: noise.DS{}, Latent: latent.LA{}},
		vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}},
		vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}, Staged: true},
		vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}, Hierarchical: true},
		model.Model{Noise: noise.DS{}, Latent: latent.LA{}},
		model.Model{Noise: noise.DS{}, Latent: latent.DA{}},
	} {
		acc := func(r *model.Result) float64 {
			right, n := 0, 0
			for j, z := range r.Labels(1) {
				if gold[j] < 0 {
					n++
					if z == truth[j] {
						right++
					}
				}
			}
			return float64(right) / float64(n)
		}
		plain, err := b.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := b.WithGold(gold).Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Converged && r.Status != "FunctionConvergence" {
			t.Errorf("%s with gold: %s", b.Name(), r.Status)
		}
		if a := acc(plain); a > 0.1 {
			t.Errorf("%s without gold: accuracy %.3f, so the test shows nothing", b.Name(), a)
		}
		if a := acc(r); a < 0.9 {
			t.Errorf("%s with gold: accuracy %.3f on the other tasks, want at least 0.9", b.Name(), a)
		}
		for j, g := range gold {
			if g >= 0 && r.Dist(j)[g] < 1-1e-9 {
				t.Errorf("%s: gold task %d has output %v", b.Name(), j, r.Dist(j))
				break
			}
		}
	}
	if _, err := (vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}, Gold: []int{0}}).Fit(context.Background(), d, nil); err == nil {
		t.Error("a gold slice of the wrong length was accepted")
	}
}
