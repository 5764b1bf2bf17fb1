package gibbs_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all"
	"github.com/consensuslab/consensus/model/gibbs"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// simulate returns the crowd c with its true classes.
func simulate(t testing.TB, c sim.Settings) (*data.Dataset, *data.Gold) {
	t.Helper()
	c.Noise, c.Latent = noise.DS{}, latent.LA{}
	d, tr, err := sim.Simulate(c)
	if err != nil {
		t.Fatal(err)
	}
	return d, tr.Gold()
}

// fit fits d by the model named name, or by g if name is empty.
func fit(t *testing.T, d *data.Dataset, name string, g gibbs.Kinds) *model.Result {
	t.Helper()
	var est model.Estimator = g
	if name != "" {
		var err error
		if est, err = model.ByName(name); err != nil {
			t.Fatal(err)
		}
	}
	r, err := est.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatalf("%s: %v", est.Name(), err)
	}
	return r
}

// TestKindsSpammersAdversaries checks gibbs-kinds where the mean-field
// default loses most to an oracle that knows how the crowd is drawn
// (crowd E of sim/unknownkinds_test.go, seed 1): K = 3, 4,000 tasks of 3
// labels among 1,000 Dawid-Skene workers of activity 1/rank^0.5, 20% of
// them spammers and 10% adversaries. The oracle gets 0.792 (Bayes limit
// 0.8485), the default 0.7480 (ECE 0.032), vb-la-ds 0.7448; gibbs-kinds
// 0.7805 (ECE 0.012). It must beat both by 1.5 points, with an ECE of at
// most 0.03.
func TestKindsSpammersAdversaries(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 12,000 labels three times")
	}
	d, gold := simulate(t, sim.Settings{Tasks: 4000, Workers: 1000, LabelsPerTask: 3, Classes: 3, Activity: 0.5,
		Spammers: 0.2, Adversaries: 0.1, Seed: 1})
	score := func(r *model.Result) (float64, float64) {
		a, err := metrics.Accuracy(r.Probs, 3, gold, 1)
		if err != nil {
			t.Fatal(err)
		}
		e, err := metrics.ECE(r.Probs, 3, gold, 10)
		if err != nil {
			t.Fatal(err)
		}
		return a, e
	}
	g := fit(t, d, "", gibbs.Kinds{Seed: 1})
	ga, ge := score(g)
	da, _ := score(fit(t, d, model.DefaultModel, gibbs.Kinds{}))
	la, _ := score(fit(t, d, "vb-la-ds", gibbs.Kinds{}))
	t.Logf("gibbs-kinds %.4f (ECE %.4f), default %.4f, vb-la-ds %.4f; %s", ga, ge, da, la, g.Method)
	if ga < da+0.015 || ga < la+0.015 || ge > 0.03 {
		t.Errorf("gibbs-kinds %.4f, ECE %.4f: want 0.015 above the default's %.4f and vb-la-ds's %.4f, ECE at most 0.03", ga, ge, da, la)
	}
}

// busyCrowd returns the crowd of TestKindsRecovery with its truth.
func busyCrowd(t *testing.T) (*data.Dataset, *sim.Truth) {
	t.Helper()
	d, tr, err := sim.Simulate(sim.Settings{Tasks: 600, Workers: 30, LabelsPerTask: 5, Classes: 4, Adversaries: 0.1, Seed: 2,
		Noise: noise.DS{}, Latent: latent.LA{}})
	if err != nil {
		t.Fatal(err)
	}
	return d, tr
}

// TestKindsRecovery checks gibbs-kinds on a small crowd of busy workers
// whose classes it should recover nearly as the posterior under the true
// parameters does: K = 4, 600 tasks of 5 labels among 30 workers, 10% of
// them adversaries; accuracy within 1.5 points of the Bayes limit.
func TestKindsRecovery(t *testing.T) {
	d, tr := busyCrowd(t)
	bayes, err := tr.BayesPosterior(d)
	if err != nil {
		t.Fatal(err)
	}
	gold := tr.Gold()
	g := fit(t, d, "", gibbs.Kinds{Seed: 3})
	ga, err := metrics.Accuracy(g.Probs, 4, gold, 1)
	if err != nil {
		t.Fatal(err)
	}
	ba, err := metrics.Accuracy(bayes, 4, gold, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("gibbs-kinds %.4f, Bayes limit %.4f; %s", ga, ba, g.Method)
	if ga < ba-0.015 {
		t.Errorf("gibbs-kinds accuracy %.4f, want within 0.015 of the Bayes limit %.4f", ga, ba)
	}
}

// TestKindsWorkers checks the workers a fit reports on the crowd of
// TestKindsRecovery: every row of a worker's posterior mean confusion sums
// to 1, and the adversaries, and no other worker, have a posterior
// probability of the adversary kind above 0.5.
func TestKindsWorkers(t *testing.T) {
	d, tr := busyCrowd(t)
	r := fit(t, d, "", gibbs.Kinds{Seed: 3})
	cols := r.WorkerColumns()
	adv := slices.Index(cols, "adversary")
	if len(cols) != 4*4+5 || adv < 0 {
		t.Fatalf("worker columns %v: want 16 p[z,y] and the five kinds", cols)
	}
	p := make([]float64, 4)
	for w := range d.NumWorkers() {
		for z := range 4 {
			r.Conditional(int32(w), 0, z, p)
			if s := p[0] + p[1] + p[2] + p[3]; math.Abs(s-1) > 1e-9 {
				t.Errorf("worker %d row %d sums to %v", w, z, s)
			}
		}
		v := r.WorkerValues(w, nil)
		if got, want := v[adv] > 0.5, tr.Kind[w] == sim.Adversary; got != want {
			t.Errorf("worker %d (%s): adversary probability %.3f", w, tr.Kind[w], v[adv])
		}
	}
}

// TestKindsDeterministic checks that a fit is a function of its data and
// seed: two fits with one seed give the same posteriors bit for bit, on
// one goroutine or several, and another seed gives others.
func TestKindsDeterministic(t *testing.T) {
	d, _ := simulate(t, sim.Settings{Tasks: 300, Workers: 40, LabelsPerTask: 3, Classes: 3, Spammers: 0.2, Seed: 4})
	for _, tc := range []struct {
		name  string
		a, b  gibbs.Kinds
		equal bool
	}{
		{"same seed", gibbs.Kinds{Seed: 5, Sweeps: 50}, gibbs.Kinds{Seed: 5, Sweeps: 50}, true},
		{"same seed, one chain", gibbs.Kinds{Seed: 5, Chains: 1}, gibbs.Kinds{Seed: 5, Chains: 1}, true},
		{"other seed", gibbs.Kinds{Seed: 5, Sweeps: 50}, gibbs.Kinds{Seed: 6, Sweeps: 50}, false},
	} {
		ra, rb := fit(t, d, "", tc.a), fit(t, d, "", tc.b)
		if got := slices.Equal(ra.Probs, rb.Probs); got != tc.equal {
			t.Errorf("%s: posteriors equal %v, want %v", tc.name, got, tc.equal)
		}
	}
	one, err := gibbs.Kinds{Seed: 5, Chains: 3}.Fit(context.Background(), d, &model.Settings{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r := fit(t, d, "", gibbs.Kinds{Seed: 5, Chains: 3}); !slices.Equal(one.Probs, r.Probs) {
		t.Errorf("three chains on one goroutine and on several differ")
	}
}

// TestKindsErrors checks that Fit refuses bad settings and a cancelled
// context with an error naming the model.
func TestKindsErrors(t *testing.T) {
	d, _ := simulate(t, sim.Settings{Tasks: 20, Workers: 5, LabelsPerTask: 3, Classes: 2, Seed: 1})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		g    gibbs.Kinds
		ctx  context.Context
		want string
	}{
		{"negative sweeps", gibbs.Kinds{Sweeps: -1}, context.Background(), "negative setting"},
		{"short init", gibbs.Kinds{Init: []float64{1, 0}}, context.Background(), "Init holds 2 values, want 20 tasks × 2 classes"},
		{"cancelled", gibbs.Kinds{}, cancelled, "context canceled"},
	} {
		_, err := tc.g.Fit(tc.ctx, d, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "model gibbs-kinds") {
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
		if tc.ctx == cancelled && !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v does not wrap context.Canceled", tc.name, err)
		}
	}
}
