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
// "ambiguous" (K = 3; 3000 tasks, so that the ambiguity model reads every
// task at K = 3 and at K = 4) fitted with its three classes and again with
// a fourth that no label names. The distractor of an ambiguous task is
// drawn in proportion to the class prior, so the empty class takes almost
// none of the tasks' ambiguity: both fits take the true class as
// ambiguous, their true-class probabilities differ by at most 0.02 on
// every task, and their ECE by at most 0.005. With distractors uniform
// over the other classes, the empty class took a third of the ambiguity
// and the fit with it kept LA's posterior.
func TestDefaultAmbiguousUnusedClass(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a regime twice")
	}
	c, err := sim.Regime("ambiguous", 1)
	if err != nil {
		t.Fatal(err)
	}
	c.Tasks = 3000
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
		if !strings.Contains(r.Method, "ambiguous around it") {
			t.Errorf("%s: the true class was not taken as ambiguous: %s", ds.name, r.Method)
		}
	}
	var worst float64
	for i := range probs[0] {
		worst = max(worst, math.Abs(probs[0][i]-probs[1][i]))
	}
	t.Logf("largest change of a true-class probability: %.4f", worst)
	if worst > 0.02 || math.Abs(eces[0]-eces[1]) > 0.005 {
		t.Errorf("the unused class moved a true-class probability by %.4f and the ECE from %.4f to %.4f, want at most 0.02 and 0.005",
			worst, eces[0], eces[1])
	}
}
