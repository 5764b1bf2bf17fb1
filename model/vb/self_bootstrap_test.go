package vb_test

import (
	"context"
	"flag"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
)

var selfBootstrap = flag.Bool("self-bootstrap", false, "run TestSelfBootstrap: the default on labels drawn from its own fit of adult and trec2010")

// goldLogLoss returns the log loss (base K, metrics.LogLoss) on gold of
// the true-class posteriors probs and of the add-one frequencies of d's
// labels (metrics.AddOne).
func goldLogLoss(t *testing.T, d *data.Dataset, probs []float64, gold *data.Gold) (ll, addOne float64) {
	t.Helper()
	k := d.NumClasses()
	ll, err := metrics.LogLoss(probs, k, gold)
	if err == nil {
		addOne, err = metrics.LogLoss(metrics.AddOne(d.Counts(), k), k, gold)
	}
	if err != nil {
		t.Fatal(err)
	}
	return ll, addOne
}

// TestSelfBootstrap asks whether the default's true-class log loss above
// the add-one frequencies' on the gold of adult and trec2010 is something
// the labels could reveal. It fits the default, then draws a data set of
// the same tasks, workers and design from that fit (every task's true
// class from its posterior, every label from its worker's fitted
// conditional), fits the default on it and scores it on the same gold
// tasks against the drawn classes. In that world, one the labels cannot
// tell from the real one by the held-out criterion on trec2010 (both
// tempered by 1), the default's log loss is far below add-one's, as the
// test asserts; on the real gold it is above (logged):
//
//	go test ./model/vb -run TestSelfBootstrap -v -args -self-bootstrap
func TestSelfBootstrap(t *testing.T) {
	if !*selfBootstrap {
		t.Skip("run with -self-bootstrap")
	}
	est, err := model.ByName(model.DefaultModel)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"adult", "trec2010"} {
		d, g, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := est.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		ll, a1 := goldLogLoss(t, d, r.Probs, g)
		t.Logf("%s, real gold: default %.4f, add-one %.4f (%s)", name, ll, a1, r.Method)
		k := d.NumClasses()
		for seed := uint64(1); seed <= 2; seed++ {
			rng := rand.New(rand.NewPCG(seed, 0xb007))
			b := *d
			b.Label = slices.Clone(d.Label)
			z := make([]uint16, d.NumTasks())
			p := make([]float64, k)
			for j := range d.NumTasks() {
				z[j] = uint16(latent.Draw(rng, r.Probs[j*k:(j+1)*k]))
				for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
					r.Conditional(d.Worker[i], j, int(z[j]), p)
					b.Label[i] = uint16(latent.Draw(rng, p))
				}
			}
			rb, err := est.Fit(context.Background(), &b, nil)
			if err != nil {
				t.Fatal(err)
			}
			gz := make([]uint16, len(g.Task))
			for i, j := range g.Task {
				gz[i] = z[j]
			}
			ll, a1 := goldLogLoss(t, &b, rb.Probs, &data.Gold{Task: g.Task, Label: gz})
			t.Logf("%s, drawn from the fit, seed %d: default %.4f, add-one %.4f (%s)", name, seed, ll, a1, rb.Method)
			if ll >= a1 {
				t.Errorf("%s, seed %d: on labels drawn from its own fit the default's log loss %.4f is not below add-one's %.4f", name, seed, ll, a1)
			}
		}
	}
}
