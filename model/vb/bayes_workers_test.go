package vb

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
)

// TestBayesFixedWorkers checks that a variational fit started from the
// workers of an earlier fit, with half of them held (Settings.Start and
// Fixed through the WorkerStarter methods), keeps the held pseudo-counts
// bit for bit and reports their values, and fits the others: DS's (with
// its prior learned from the workers too, as in the default) and
// one-coin's posteriors, and GLAD's point posterior.
func TestBayesFixedWorkers(t *testing.T) {
	d := noisetest.Data(t, 4, 120, 6, 3)
	for _, b := range []Bayes{
		{Noise: noise.DS{}, Latent: latent.DA{}},
		{Noise: noise.DS{}, Latent: latent.LA{}},
		{Noise: noise.DS{SharedPrior: true}, Latent: latent.LA{}, Both: true}, // vb-ds, the default
		{Noise: noise.DS{}, Latent: latent.DA{}, Hierarchical: true},
		{Noise: noise.DS{}, Latent: latent.DA{}, Staged: true},
		{Noise: noise.OneCoin{}, Latent: latent.DA{}},
		{Noise: noise.GLAD{}, Latent: latent.DA{}},
		{Noise: noise.GLAD{}, Latent: latent.LA{}},
	} {
		if !b.CanSetWorkers() || !b.Reads(model.SetStart) {
			t.Fatalf("%s: cannot set workers", b.Name())
		}
		first, err := b.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		x := b.Init(d)
		var even []int
		for w := 0; w < d.NumWorkers(); w += 2 {
			if err := b.SetWorker(d, x, w, first.WorkerValues(w, nil)); err != nil {
				t.Fatal(err)
			}
			even = append(even, w)
		}
		fixed := model.FixedWorkers(b, d, x, even)
		start := slices.Clone(x)
		r, err := b.Fit(context.Background(), d, &model.Settings{Start: x, Fixed: fixed})
		if err != nil {
			t.Fatal(err)
		}
		moved := false
		for i, f := range fixed {
			if f && r.Params[i] != start[i] {
				t.Fatalf("%s: held pseudo-count %d moved from %v to %v", b.Name(), i, start[i], r.Params[i])
			}
			moved = moved || !f && r.Params[i] != start[i]
		}
		if !moved {
			t.Errorf("%s: no free pseudo-count moved", b.Name())
		}
		for w := 0; w < d.NumWorkers(); w += 2 {
			want, got := first.WorkerValues(w, nil), r.WorkerValues(w, nil)
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-9*max(1, math.Abs(want[i])) {
					t.Errorf("%s: held worker %d's %s = %v, want %v", b.Name(), w, r.WorkerColumns()[i], got[i], want[i])
				}
			}
		}
	}
}
