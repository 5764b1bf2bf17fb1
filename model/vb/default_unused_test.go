package vb_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/sim"
)

// TestDefaultAmbiguousUnusedClass checks that a class no worker uses does
// not change the default's answer where tasks are ambiguous: the regime
// "ambiguous" (K = 3) fitted with its three classes and again with a
// fourth that no label names. The distractor of an ambiguous task is drawn
// in proportion to the classes' shares of the labels, and the ambiguity
// model's sample is sized by the classes the tasks use, so the empty class
// changes almost nothing: both fits take the true class as ambiguous with
// ECE at most 0.02, their true-class probabilities differ by at most 0.01
// on average (0.005 measured) and their ECE by at most 0.005. With
// distractors uniform over the other classes and the sample sized by all
// pairs of classes, the fit with the empty class kept LA's posterior (ECE
// 0.044, mean change 0.024).
func TestDefaultAmbiguousUnusedClass(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a regime twice")
	}
	c, err := sim.Regime("ambiguous", 1)
	if err != nil {
		t.Fatal(err)
	}
	d, tr, err := sim.Simulate(c)
	if err != nil {
		t.Fatal(err)
	}
	wide := *d
	wide.Classes = append(slices.Clone(d.Classes), "unused")
	est, err := model.ByName(model.DefaultModel)
	if err != nil {
		t.Fatal(err)
	}
	gold := tr.Gold()
	var probs [2][]float64
	var eces [2]float64
	for i, ds := range []*struct {
		name string
		k    int
	}{{"three classes", 3}, {"an unused fourth", 4}} {
		in := d
		if ds.k == 4 {
			in = &wide
		}
		r, err := est.Fit(context.Background(), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The truth's three columns, the unused class's mass left out.
		p := make([]float64, 0, 3*d.NumTasks())
		for j := range d.NumTasks() {
			p = append(p, r.Probs[j*ds.k:j*ds.k+3]...)
		}
		probs[i] = p
		acc, ece := must(metrics.Accuracy(p, 3, gold, 1)), must(metrics.ECE(p, 3, gold, 10))
		eces[i] = ece
		t.Logf("%s: accuracy %.4f, ECE %.4f; %s", ds.name, acc, ece, r.Method)
		if ece > 0.02 {
			t.Errorf("%s: ECE %.4f, want at most 0.02", ds.name, ece)
		}
		if !strings.Contains(r.Method, "ambiguous around it") {
			t.Errorf("%s: the true class was not taken as ambiguous: %s", ds.name, r.Method)
		}
	}
	var mean, worst float64
	for i := range probs[0] {
		x := math.Abs(probs[0][i] - probs[1][i])
		mean += x / float64(len(probs[0]))
		worst = max(worst, x)
	}
	t.Logf("change of a true-class probability: mean %.4f, largest %.4f", mean, worst)
	if mean > 0.01 || math.Abs(eces[0]-eces[1]) > 0.005 {
		t.Errorf("the unused class moved the true-class probabilities by %.4f on average and the ECE from %.4f to %.4f, want at most 0.01 and 0.005",
			mean, eces[0], eces[1])
	}
}
