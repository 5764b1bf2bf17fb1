package calibrate_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all"
	"github.com/consensuslab/consensus/model/calibrate"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// crowd returns a simulated LA Dawid-Skene crowd (K = 3, 2,000 tasks of 5
// labels from 30 workers), the true classes, and gold classes that differ
// from the truth on a share wrong of the tasks (drawn at random among the
// other classes): gold from another population than the labellers.
func crowd(t *testing.T, wrong float64) (*data.Dataset, []int) {
	t.Helper()
	d, tr, err := sim.Simulate(sim.Settings{Tasks: 2000, Workers: 30, LabelsPerTask: 5, Classes: 3,
		Noise: noise.DS{}, Latent: latent.LA{}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 3))
	gold := make([]int, len(tr.Class))
	for j, z := range tr.Class {
		gold[j] = z
		if rng.Float64() < wrong {
			gold[j] = (z + 1 + rng.IntN(2)) % 3
		}
	}
	return d, gold
}

// TestGoldFit checks Gold on the default model where gold is the truth
// and where 30% of it disagrees with the truth the labels measure: the
// first 800 tasks' gold trains the fit, the other 1,200 score it. With
// gold from the labellers' truth τ stays near 1, and at 1 the output is
// the plain fit's; with the other gold τ falls below 0.8 and the
// log loss and the calibration error on the held-out gold fall below
// those of the fit with the same training gold and no calibration.
func TestGoldFit(t *testing.T) {
	est, err := model.ByName(model.DefaultModel)
	if err != nil {
		t.Fatal(err)
	}
	base := est.(model.GoldTrainer)
	for _, c := range []struct {
		wrong      float64
		minT, maxT float64
	}{
		{0, 0.75, 1},
		{0.3, 0.05, 0.8},
	} {
		d, gold := crowd(t, c.wrong)
		train := make([]int, len(gold))
		test := &data.Gold{}
		for j, g := range gold {
			train[j] = -1
			if j < 800 {
				train[j] = g
			} else {
				test.Task, test.Label = append(test.Task, int32(j)), append(test.Label, uint16(g))
			}
		}
		plain, err := base.WithGold(train).Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		g := calibrate.Gold{Base: base, Class: train, Seed: 1}
		tau, err := g.CrossFitted(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		cal, err := g.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("probabilities tempered by %.3g on 800 gold tasks (5-fold cross-fitting)", tau); !strings.HasSuffix(cal.Method, want) {
			t.Errorf("wrong gold %g: method %q, want it to end in %q", c.wrong, cal.Method, want)
		}
		llP, llC := must(metrics.LogLoss(plain.Probs, 3, test)), must(metrics.LogLoss(cal.Probs, 3, test))
		eceP, eceC := must(metrics.ECE(plain.Probs, 3, test, 10)), must(metrics.ECE(cal.Probs, 3, test, 10))
		t.Logf("wrong gold %g: τ %.3f; log loss %.4f → %.4f, ECE %.4f → %.4f", c.wrong, tau, llP, llC, eceP, eceC)
		if tau < c.minT || tau > c.maxT {
			t.Errorf("wrong gold %g: τ = %.3f, want in [%g, %g]", c.wrong, tau, c.minT, c.maxT)
		}
		if c.wrong == 0 && tau == 1 && llC != llP {
			t.Errorf("gold of the labellers' truth, τ = 1: log loss %.4f calibrated, %.4f not", llC, llP)
		}
		if c.wrong > 0 && !(llC < llP && eceC < eceP) {
			t.Errorf("wrong gold %g: log loss %.4f and ECE %.4f calibrated, %.4f and %.4f not", c.wrong, llC, eceC, llP, eceP)
		}
		for j, g := range train {
			if g >= 0 && cal.Probs[j*3+g] != 1 {
				t.Fatalf("training gold task %d: row %v, want one-hot at %d", j, cal.Probs[j*3:j*3+3], g)
			}
		}
	}
}

// TestGoldErrors checks Gold's refusals: gold classes that do not match
// the data set, too few gold tasks, too few or too many folds, a class out
// of range.
func TestGoldErrors(t *testing.T) {
	d, gold := crowd(t, 0)
	est, _ := model.ByName(model.DefaultModel)
	base := est.(model.GoldTrainer)
	few := make([]int, len(gold))
	for j := range few {
		few[j] = -1
	}
	few[0] = gold[0]
	three := append([]int(nil), few...)
	three[1], three[2] = gold[1], gold[2]
	bad := append([]int(nil), gold...)
	bad[0] = 3
	for _, c := range []struct {
		name string
		g    calibrate.Gold
		want string
	}{
		{"length", calibrate.Gold{Base: base, Class: gold[:10]}, "10 gold classes for 2000 tasks"},
		{"one task", calibrate.Gold{Base: base, Class: few}, "1 gold tasks cannot be dealt into 5 folds"},
		{"folds", calibrate.Gold{Base: base, Class: three, Folds: 4}, "3 gold tasks cannot be dealt into 4 folds"},
		{"one fold", calibrate.Gold{Base: base, Class: three, Folds: 1}, "3 gold tasks cannot be dealt into 1 folds"},
		{"class", calibrate.Gold{Base: base, Class: bad}, "task 0 has gold class 3 of 3 classes"},
	} {
		_, err := c.g.Fit(context.Background(), d, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func must(x float64, err error) float64 {
	if err != nil {
		panic(err)
	}
	return x
}
