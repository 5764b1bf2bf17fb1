package compare

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestAutoPicksSimulated checks the recommendation (AutoModels by
// DefaultScorer) on simulated labels, where the worker model that
// generated them is known, on three data seeds each. Under LA, Dawid-Skene
// and one-coin workers give vb-ds, whose workers are each a full or a
// one-coin confusion matrix by their evidence (noise.DS.Averaged): on
// one-coin workers with 3 labels a task and three classes it is more
// accurate than vb-onecoin itself (0.868-0.877 against 0.853-0.864 on
// these seeds), whose accuracy prior is not learned. GLAD workers under
// LA give any of the three (all are 0.999-1 accurate). On the paper's
// synthetic DA design (DA-GLAD workers, 20 labels a task) the task
// difficulties matter, and vb-glad is chosen.
func TestAutoPicksSimulated(t *testing.T) {
	cases := []struct {
		name string
		c    sim.Settings
		want []string
	}{
		{"ds, K=3, 30 workers", sim.Settings{Tasks: 1000, Workers: 30, LabelsPerTask: 5, Classes: 3, Noise: noise.DS{}}, []string{"vb-ds"}},
		{"onecoin, K=5, 500 workers", sim.Settings{Tasks: 1000, Workers: 500, LabelsPerTask: 5, Classes: 5, Noise: noise.OneCoin{}}, []string{"vb-ds"}},
		{"onecoin, K=3, 300 workers", sim.Settings{Tasks: 1000, Workers: 300, LabelsPerTask: 3, Classes: 3, Noise: noise.OneCoin{}}, []string{"vb-ds"}},
		{"glad, K=3, 100 workers", sim.Settings{Tasks: 2000, Workers: 100, LabelsPerTask: 5, Classes: 3, Noise: noise.GLAD{}}, []string{"vb-ds", "vb-onecoin", "vb-glad"}},
		{"da-glad, K=2, 20 workers", sim.Settings{Tasks: 900, Workers: 20, LabelsPerTask: 20, Classes: 2, Noise: noise.GLAD{}, Latent: latent.DA{}}, []string{"vb-glad"}},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed %d", c.name, seed), func(t *testing.T) {
				cfg := c.c
				if cfg.Latent == nil {
					cfg.Latent = latent.LA{}
				}
				cfg.Seed = seed
				d, _, err := sim.Simulate(cfg)
				if err != nil {
					t.Fatal(err)
				}
				ch, err := Auto(context.Background(), d, AutoSettings{Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range ch.Candidates {
					t.Logf("%-10s %.4f converged %v", k.Model, k.Score, k.Converged)
				}
				if !slices.Contains(c.want, ch.Model) {
					t.Errorf("chose %s, want one of %v", ch.Model, c.want)
				}
				if ch.Criterion != DefaultScorer.Name() || ch.Splits != 3 || ch.Labels != d.NumLabels() || ch.Subsample {
					t.Errorf("choice %+v: wrong criterion, splits or size", ch)
				}
			})
		}
	}
}

// simulate returns 500 objects labelled by 30 workers, per of them per
// object, with k classes.
func simulate(lat latent.Assumption, n noise.Model, per, k int) (*data.Dataset, error) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 500, Workers: 30, LabelsPerTask: per, Classes: k, Noise: n, Latent: lat, Seed: 1})
	return d, err
}

// TestAutoDeterministic checks that the choice and every score depend on
// the data, the options and the seed only, not on the number of fits run
// at once, and that a subsample is drawn when the data are larger than
// MaxLabels.
func TestAutoDeterministic(t *testing.T) {
	d, err := simulate(latent.DA{}, noise.DS{}, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	opt := AutoSettings{Models: []string{"rfe", "vb-da-ds", "vb-la-ds"}, MaxLabels: 2000, Splits: 2, Seed: 5}
	var first *AutoChoice
	for _, par := range []int{1, 2, 5} {
		opt.Threads = par
		ch, err := Auto(context.Background(), d, opt)
		if err != nil {
			t.Fatal(err)
		}
		if ch.Labels >= d.NumLabels() || ch.Labels < 2000 || ch.Labels >= 2000+8 || ch.Tasks != ch.Labels/8 {
			t.Errorf("subsample of %d tasks, %d labels; want about 2000 labels", ch.Tasks, ch.Labels)
		}
		if first == nil {
			first = ch
			continue
		}
		if ch.Model != first.Model {
			t.Errorf("parallel %d chose %s, parallel 1 %s", par, ch.Model, first.Model)
		}
		for i, k := range ch.Candidates {
			if k.Score != first.Candidates[i].Score || k.Iterations != first.Candidates[i].Iterations {
				t.Errorf("parallel %d: %s scores %v after %d iterations, parallel 1 %v after %d",
					par, k.Model, k.Score, k.Iterations, first.Candidates[i].Score, first.Candidates[i].Iterations)
			}
		}
	}
}

// TestAutoIterationLimit checks that a candidate whose fits stop at the
// choice's iteration limit counts as not converged and loses to one that
// converged, whatever their scores, and that the limit is the smaller of
// MaxIterations and the settings'.
func TestAutoIterationLimit(t *testing.T) {
	d, err := simulate(latent.DA{}, noise.DS{}, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := Auto(context.Background(), d, AutoSettings{Models: []string{"vb-la-ds", "rfe"}, MaxIterations: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	la, rfe := ch.Candidates[0], ch.Candidates[1]
	if la.Converged || la.Iterations != 2 || !rfe.Converged || ch.Model != "rfe" {
		t.Errorf("vb-la-ds converged %v after %d iterations, rfe converged %v, chose %s; want rfe over the stopped vb-la-ds",
			la.Converged, la.Iterations, rfe.Converged, ch.Model)
	}
	ch, err = Auto(context.Background(), d, AutoSettings{Models: []string{"vb-la-ds"}, Fit: &model.Settings{MaxIterations: 3}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if k := ch.Candidates[0]; k.Converged || k.Iterations != 3 || ch.Model != "vb-la-ds" {
		t.Errorf("with the settings' limit of 3: %+v, chose %s", k, ch.Model)
	}
}

// TestAutoErrors checks the refusals of bad options and a candidate that
// cannot be fitted.
func TestAutoErrors(t *testing.T) {
	d, err := simulate(latent.DA{}, noise.DS{}, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	bad := []AutoSettings{
		{Models: []string{}},
		{Models: []string{"no-such-model"}},
		{HoldOutFraction: 1},
		{Splits: -1},
		{MaxIterations: -1},
		{Models: []string{"kos"}}, // two classes only: every fit fails
	}
	for _, opt := range bad {
		if _, err := Auto(context.Background(), d, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
	ch, err := Auto(context.Background(), d, AutoSettings{Models: []string{"kos", "vb-da-ds"}, Splits: 1})
	if err != nil || ch.Model != "vb-da-ds" || ch.Candidates[0].Err == nil || !math.IsNaN(ch.Candidates[0].Score) {
		t.Errorf("kos and vb-da-ds: %+v, %v; want vb-da-ds and kos's error", ch, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Auto(ctx, d, AutoSettings{}); err == nil {
		t.Error("a cancelled context: no error")
	}
}

// TestWorkerReliability checks the two estimates of a worker's quality on
// labels simulated with known one-coin accuracies (uniform on [0.55,
// 0.95]): both follow the true accuracies closely, and the accuracy
// estimates are near the truth.
func TestWorkerReliability(t *testing.T) {
	d, truth, err := sim.Simulate(sim.Settings{Tasks: 2000, Workers: 12, LabelsPerTask: 6, Classes: 3, Noise: noise.OneCoin{}, Latent: latent.LA{}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	rel, err := WorkerReliability(d)
	if err != nil {
		t.Fatal(err)
	}
	acc, seen, err := WorkerAccuracy(d)
	if err != nil {
		t.Fatal(err)
	}
	trueAcc := make([]float64, d.NumWorkers())
	var worst float64
	for w, c := range truth.Worker {
		trueAcc[w] = 1 / (1 + math.Exp(-c))
		worst = max(worst, math.Abs(acc[w]-trueAcc[w]))
		if !seen[w] {
			t.Errorf("worker %d not seen", w)
		}
	}
	if r := stat.Correlation(rel, trueAcc, nil); r < 0.95 {
		t.Errorf("reliability: correlation %.3f with the true accuracies, want at least 0.95", r)
	}
	if r := stat.Correlation(acc, trueAcc, nil); r < 0.95 {
		t.Errorf("accuracy: correlation %.3f with the true accuracies, want at least 0.95", r)
	}
	t.Logf("largest error of the accuracy estimates: %.3f", worst)
	if worst > 0.05 {
		t.Errorf("accuracy: largest error %.3f, want at most 0.05\nestimated %.3f\ntrue      %.3f", worst, acc, trueAcc)
	}
}

// TestSubsampleTasks checks that a subsample is a valid data set of whole
// objects, the same for the same seed, with about the labels asked for.
func TestSubsampleTasks(t *testing.T) {
	d, err := simulate(latent.DA{}, noise.DS{}, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	a, b := subsampleTasks(d, 1000, 3), subsampleTasks(d, 1000, 3)
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	if a.NumLabels() != 1000 || a.NumTasks() != 125 || !slices.Equal(a.Tasks, b.Tasks) || !slices.Equal(a.Label, b.Label) {
		t.Errorf("subsample of %d tasks, %d labels, or not reproducible", a.NumTasks(), a.NumLabels())
	}
	if c := subsampleTasks(d, 1000, 4); slices.Equal(a.Tasks, c.Tasks) {
		t.Error("another seed gives the same subsample")
	}
	index := make(map[string]int)
	for j, n := range d.Tasks {
		index[n] = j
	}
	for j, n := range a.Tasks {
		w0, l0 := d.TaskLabels(index[n])
		w1, l1 := a.TaskLabels(j)
		if !slices.Equal(w0, w1) || !slices.Equal(l0, l1) {
			t.Errorf("task %s: labels differ from the data's", n)
		}
	}
}

// On the subsample of adult that --model auto fits (seed 1), vb-hda-ds's
// empirical Bayes prior takes the rare class's a_z to its lower bound,
// where exp ψ(γ_z) underflows; the bound must stay finite and every
// candidate must fit (the bound once became NaN there).
func TestAutoAdultSubsampleFits(t *testing.T) {
	if testing.Short() {
		t.Skip("fits three models to 20,000 labels three times")
	}
	d, _, err := datasets.Load("adult")
	if err != nil {
		t.Fatal(err)
	}
	ch, err := Auto(context.Background(), d, AutoSettings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ch.Candidates {
		if c.Err != nil || math.IsNaN(c.Score) {
			t.Errorf("%s: score %g, error %v", c.Model, c.Score, c.Err)
		}
	}
}
