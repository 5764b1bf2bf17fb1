package compare

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestRanksTrueModelFirst simulates data from a few models and checks that
// the held-out criterion ranks the generating model first among a few
// candidates.
func TestRanksTrueModelFirst(t *testing.T) {
	cases := []struct {
		truth  string
		noise  noise.Model
		latent latent.Assumption
		tasks  int
		per    int
		k      int
		models []string
	}{
		// DA's per-object q_j need many labels per object to predict
		// held-out labels well (with few, its maximum-likelihood q_j sit
		// on the boundary of the simplex and hierarchical DA is the
		// better predictor).
		{"da-ds", noise.DS{}, latent.DA{}, 100, 40, 2, []string{"rfe", "la-ds", "da-ds", "da-glad"}},
		{"la-ds", noise.DS{}, latent.LA{}, 400, 6, 3, []string{"rfe", "la-ds", "da-ds", "la-onecoin"}},
		{"da-mace", noise.MACE{}, latent.DA{}, 100, 40, 2, []string{"rfe", "la-mace", "da-mace", "da-onecoin"}},
	}
	for _, c := range cases {
		t.Run(c.truth, func(t *testing.T) {
			d, _, err := sim.Simulate(sim.Settings{Tasks: c.tasks, Workers: 40, LabelsPerTask: c.per, Classes: c.k, Noise: c.noise, Latent: c.latent, Seed: 11})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Run(context.Background(), d, Settings{
				Models: c.models, Splits: 2, Bootstrap: 50, Seed: 1,
				Fit: &model.Settings{MaxIterations: 300},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Rows {
				t.Logf("%-10s held-out log loss %.4f [%.4f, %.4f] first %.2f %v", r.Model, r.HeldOut.Value, r.HeldOut.Lo, r.HeldOut.Hi, r.First, r.Err)
			}
			if best, _ := rep.Top(); best != c.truth {
				t.Errorf("recommended %s, want %s", best, c.truth)
			}
		})
	}
}

// TestGoldCriterion checks the gold path: every metric has an interval
// around its value, and a perfect gold set ranks a sensible model first.
func TestGoldCriterion(t *testing.T) {
	d, truth, err := sim.Simulate(sim.Settings{Tasks: 120, Workers: 10, LabelsPerTask: 5, Noise: noise.DS{}, Latent: latent.LA{}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	g := &data.Gold{}
	for j, c := range model.Argmax(truth.Target, 2, 1) {
		g.Task = append(g.Task, int32(j))
		g.Label = append(g.Label, uint16(c))
	}
	rep, err := Run(context.Background(), d, Settings{Models: []string{"rfe", "la-ds", "da-ds"}, Gold: g, Bootstrap: 50})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Criterion != LogLoss || rep.N != 120 {
		t.Fatalf("criterion %s, N %d", rep.Criterion, rep.N)
	}
	for _, r := range rep.Rows {
		for _, iv := range []Interval{r.Accuracy, r.LogLoss, r.Brier, r.ECE} {
			if !(iv.Lo <= iv.Value+1e-9 && iv.Value <= iv.Hi+1e-9) {
				t.Errorf("%s: interval %+v does not hold its value", r.Model, iv)
			}
		}
	}
	if best, _ := rep.Top(); best != "la-ds" {
		t.Errorf("recommended %s, want la-ds", best)
	}
}

// TestSplit checks the hold-out rule: objects with one label keep it,
// others keep at least one and lose frac·n labels rounded at random, so
// that on average they lose frac·n: at frac 0.5 an object of two labels
// loses one, one of five two or three, 2.5 on average; at frac 0.2 an
// object of two labels loses one in 40% of the splits, so that most keep
// both and its workers can still be compared.
func TestSplit(t *testing.T) {
	task := []int32{0, 1, 1, 2, 2, 2, 2, 2}
	worker := []int32{0, 0, 1, 0, 1, 2, 3, 4}
	label := []uint16{0, 1, 0, 1, 1, 0, 1, 0}
	d, err := data.FromIndices([]string{"a", "b", "c"}, []string{"v", "w", "x", "y", "z"}, []string{"0", "1"}, task, worker, label)
	if err != nil {
		t.Fatal(err)
	}
	const splits = 2000
	for _, c := range []struct {
		frac float64
		mean []float64 // the mean number of held-out labels of each object
	}{
		{0.5, []float64{0, 1, 2.5}},
		{0.2, []float64{0, 0.4, 1}},
	} {
		sum := make([]float64, 3)
		for s := range splits {
			tr, held, err := Split(d, c.frac, 3, s)
			if err != nil {
				t.Fatal(err)
			}
			n := []int{0, 0, 0}
			for _, h := range held {
				n[h.Task]++
			}
			for j := range n {
				size := d.Offsets[j+1] - d.Offsets[j]
				if lo := int(c.frac * float64(size)); n[j] < min(lo, size-1) || n[j] > min(lo+1, size-1) || tr.Offsets[j+1]-tr.Offsets[j]+n[j] != size {
					t.Fatalf("frac %g, split %d: object %d of %d labels held %d", c.frac, s, j, size, n[j])
				}
				sum[j] += float64(n[j])
			}
		}
		for j, m := range c.mean {
			if got := sum[j] / splits; math.Abs(got-m) > 0.05 {
				t.Errorf("frac %g: object %d held %.3f labels on average, want %g", c.frac, j, got, m)
			}
		}
	}
}

// Settings.Estimators compares hand-built estimators, each in a row named
// by its Name, instead of Models: here the default model under two priors
// of q_j, whose held-out scores differ.
func TestEstimatorsOption(t *testing.T) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 150, Workers: 10, LabelsPerTask: 5, Noise: noise.DS{}, Latent: latent.DA{}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	ests := []model.Estimator{
		vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}},
		vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}, Prior: 2},
	}
	rep, err := Run(context.Background(), d, Settings{Models: []string{"la-ds"}, Estimators: ests, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	scores := map[string]float64{}
	for _, r := range rep.Rows {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Model, r.Err)
		}
		scores[r.Model] = r.Score.Value
	}
	a, okA := scores["vb-da-ds"]
	b, okB := scores["vb-da-ds (prior 2)"]
	if len(scores) != 2 || !okA || !okB || a == b {
		t.Errorf("scores %v: want vb-da-ds and vb-da-ds (prior 2), different", scores)
	}
}

// TestMaxMemory checks that a model whose fit is estimated beyond its
// share of Settings.MaxMemory is not fitted and says so in its row, while
// the others are ranked.
func TestMaxMemory(t *testing.T) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 150, Workers: 10, LabelsPerTask: 5, Noise: noise.DS{}, Latent: latent.DA{}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	small, _ := model.ByName("rfe")
	large, _ := model.ByName("da-mme")
	share := (model.FitMemory(small, d, nil) + model.FitMemory(large, d, nil)) / 2
	rep, err := Run(context.Background(), d, Settings{Models: []string{"rfe", "da-mme"}, Threads: 2, MaxMemory: 2 * share, Bootstrap: 10, Splits: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		switch {
		case r.Model == "rfe" && r.Err != nil:
			t.Errorf("rfe: %v, want a fit", r.Err)
		case r.Model == "da-mme" && (r.Err == nil || !strings.Contains(r.Err.Error(), "not fitted")):
			t.Errorf("da-mme: %v, want not fitted for want of memory", r.Err)
		}
	}
}
