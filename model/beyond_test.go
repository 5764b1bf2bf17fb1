package model

import (
	"context"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
	"github.com/consensuslab/consensus/sim"
)

func agree(a, b []int) float64 {
	n := 0
	for i := range a {
		if a[i] == b[i] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

func halfSq(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return s / float64(len(a))
}

// shrinkData has object 0 with one label of class 1 and object 1 with 100
// labels, 70 of class 0 and 30 of class 1, from distinct workers.
func shrinkData(t *testing.T) *data.Dataset {
	var task, worker []int32
	var label []uint16
	task, worker, label = append(task, 0), append(worker, 0), append(label, 1)
	for i := range 100 {
		task, worker = append(task, 1), append(worker, int32(i))
		label = append(label, uint16(i/70))
	}
	d, err := data.FromIndices(noisetest.Names("t", 2), noisetest.Names("w", 100), []string{"a", "b"}, task, worker, label)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestHierarchicalShrinkage checks that hierarchical DA shrinks a one-label
// object toward p, leaves a 100-label object near its frequencies, and is
// plain DA at α = 0 (workers fixed at accuracy σ(6) ≈ 0.998).
func TestHierarchicalShrinkage(t *testing.T) {
	d := shrinkData(t)
	p := []float64{0.8, 0.2}
	settings := func(m Model) *Settings {
		x := m.Init(d)
		fixed := make([]bool, len(x))
		lay := m.Layout(d)
		for i := lay.W[0]; i < lay.W[1]; i++ {
			x[i], fixed[i] = 6, true
		}
		return &Settings{Start: x, Fixed: fixed, Threads: 1}
	}
	fit := func(lat latent.Assumption) []float64 {
		m := Model{Noise: noise.OneCoin{}, Latent: lat}
		r, err := m.Fit(context.Background(), d, settings(m))
		if err != nil {
			t.Fatal(err)
		}
		return r.Probs
	}
	hda := fit(latent.Dirichlet{Alpha: 4, P: p})
	da := fit(latent.DA{})
	// One label b: q ≈ (e_b + 4p)/5 = (0.64, 0.36), far from DA's (0, 1).
	if math.Abs(hda[1]-0.36) > 0.02 || da[1] < 0.95 {
		t.Errorf("one-label object: hierarchical q(b) = %.3f (want ≈ 0.36), DA %.3f (want ≈ 1)", hda[1], da[1])
	}
	// 100 labels, 30% b: stays near 0.3.
	if math.Abs(hda[3]-0.3) > 0.02 {
		t.Errorf("100-label object: q(b) = %.3f, want ≈ 0.30", hda[3])
	}
	zero := fit(latent.Dirichlet{Alpha: 0})
	for i := range zero {
		if math.Abs(zero[i]-da[i]) > 1e-6 {
			t.Errorf("alpha = 0: q = %v, DA %v", zero, da)
			break
		}
	}
}

// TestWithGoldPins checks that gold objects come out one-hot, whatever
// their labels say, under LA and DA, and that the others are fitted.
func TestWithGoldPins(t *testing.T) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 60, Workers: 10, LabelsPerTask: 5, Noise: noise.DS{}, Latent: latent.LA{}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	gold := make([]int, d.NumTasks())
	for j := range gold {
		gold[j] = -1
		if j%4 == 0 {
			gold[j] = (j / 4) % 2
		}
	}
	for _, base := range []latent.Assumption{latent.LA{LearnPrior: true}, latent.DA{}, latent.Dirichlet{Alpha: 1}} {
		m := Model{Noise: noise.DS{}, Latent: latent.WithGold{Base: base, Class: gold}}
		r, err := m.Fit(context.Background(), d, &Settings{MaxIterations: 200, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		for j, c := range gold {
			q := r.Dist(j)
			if c >= 0 && q[c] != 1 {
				t.Errorf("%s: gold object %d (class %d) has %v", base.Name(), j, c, q)
			}
			if c < 0 && (math.IsNaN(q[0]) || math.Abs(q[0]+q[1]-1) > 1e-9) {
				t.Errorf("%s: object %d has %v", base.Name(), j, q)
			}
		}
	}
}

// TestRegMMEInitCentred checks that regularised minimax entropy starts from
// MME's probabilities with every row of every matrix centred: the same
// unpenalised log-likelihood as MME's start, rows summing to zero.
func TestRegMMEInitCentred(t *testing.T) {
	for _, k := range []int{2, 3, 5} {
		d, _, err := sim.Simulate(sim.Settings{Tasks: 40, Workers: 8, LabelsPerTask: 4, Classes: k, Noise: noise.DS{}, Latent: latent.LA{}, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		mme := Model{Noise: noise.MME{}, Latent: latent.LA{}}
		reg := Model{Noise: noise.RegMME{}, Latent: latent.LA{}}
		x0, x1 := mme.Init(d), reg.Init(d)
		g := make([]float64, len(x0))
		want, got := mme.LogLikelihood(d, x0, g, 1), mme.LogLikelihood(d, x1, g, 1)
		if math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("K=%d: log-likelihood at the start %v, MME's %v", k, got, want)
		}
		lay := reg.Layout(d)
		for i := lay.W[0]; i < lay.O[1]; i += k {
			var s float64
			for _, v := range x1[i : i+k] {
				s += v
			}
			if math.Abs(s) > 1e-12 {
				t.Errorf("K=%d: row at %d sums to %v", k, i, s)
				break
			}
		}
	}
}

// shippedData loads a shipped data set with its gold labels; it skips the
// test in short mode, as its callers fit the whole data set.
func shippedData(t *testing.T, name string) (*data.Dataset, *data.Gold) {
	t.Helper()
	if testing.Short() {
		t.Skip("fits the data set " + name)
	}
	d, gold, err := datasets.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return d, gold
}

// TestRegMMEDuchenne is the regression test for the label-switched fit of
// regularised minimax entropy on Duchenne (accuracy 0.23-0.26 from MME's
// uncentred start): the fits must agree with the gold labels about as well
// as the other models (≈ 0.75) and at least as well as majority vote less
// 0.05.
func TestRegMMEDuchenne(t *testing.T) {
	d, gold := shippedData(t, "duchenne")
	k := d.NumClasses()
	mv := must(metrics.Accuracy(d.Frequencies(), k, gold, 1))
	for _, lat := range []latent.Assumption{latent.LA{}, latent.DA{}} {
		m := Model{Noise: noise.RegMME{}, Latent: lat}
		r, err := m.Fit(context.Background(), d, &Settings{MaxIterations: 200, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		if acc := must(metrics.Accuracy(r.Probs, k, gold, 1)); acc < 0.7 || acc < mv-0.05 {
			t.Errorf("%s: accuracy %.4f on the gold tasks (majority vote %.4f): label-switched?", m.Name(), acc, mv)
		}
	}
}
