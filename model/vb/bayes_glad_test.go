package vb_test

import (
	"context"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/sim"
)

// gladOracle returns, for two classes, the exact posterior mean of every
// q_j ~ U[0, 1] given its labels and the true GLAD parameters (abilities e,
// log difficulties delta) under DA: with a_i = σ(e_w d_j), the likelihood
// Π_i (q P(y_i | 1) + (1 − q) P(y_i | 0)) = Σ_m c_m q^m (1 − q)^(n−m), whose
// coefficients a recursion over the labels gives, so that
// E[q_j] = Σ_m c_m B(m + 2, n − m + 1) / Σ_m c_m B(m + 1, n − m + 1).
// No estimator that does not know the parameters does better on average:
// it is the statistical limit of the synthetic experiment.
func gladOracle(d *data.Dataset, e, delta []float64) []float64 {
	out := make([]float64, d.NumTasks()*2)
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		dj := math.Exp(delta[j])
		c := []float64{1}
		for i, w := range workers {
			a := 1 / (1 + math.Exp(-e[w]*dj))
			p1, p0 := 1-a, a
			if labels[i] == 1 {
				p1, p0 = a, 1-a
			}
			next := make([]float64, len(c)+1)
			for m, x := range c {
				next[m+1] += x * p1
				next[m] += x * p0
			}
			c = next
		}
		n := len(c) - 1
		var z, mean float64
		for m, x := range c {
			b := x * math.Exp(logBeta(float64(m+1), float64(n-m+1)))
			z += b
			mean += b * float64(m+1) / float64(n+2)
		}
		out[2*j+1] = mean / z
		out[2*j] = 1 - mean/z
	}
	return out
}

func logBeta(a, b float64) float64 {
	x, _ := math.Lgamma(a)
	y, _ := math.Lgamma(b)
	z, _ := math.Lgamma(a + b)
	return x + y - z
}

// On the paper's synthetic design (DA-GLAD, q_j ~ U[0, 1], 20 workers who
// label every object, e_w ~ U[0, 4], log d_j ~ U[0, 3], 2000 objects),
// vb-hda-glad's MSE of q_j is within 15% of the statistical limit, the
// posterior mean given the true parameters, and well below that of the
// add-one smoothed frequencies.
func TestBayesGLADNearOracle(t *testing.T) {
	est, err := model.ByName("vb-hda-glad")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 2; seed++ {
		d, tr, err := sim.Simulate(sim.Settings{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		r, err := est.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Converged {
			t.Errorf("seed %d: stopped: %s after %d iterations", seed, r.Status, r.Iterations)
		}
		got := must(metrics.MSE(r.Probs, tr.Q, 2))
		limit := must(metrics.MSE(gladOracle(d, tr.Worker, tr.Task), tr.Q, 2))
		freq := must(metrics.MSE(metrics.AddOne(d.Counts(), 2), tr.Q, 2))
		t.Logf("seed %d: MSE %.5f, limit %.5f, add-one frequencies %.5f", seed, got, limit, freq)
		if !(got <= 1.15*limit && got < freq) {
			t.Errorf("seed %d: MSE %.5f, limit %.5f, add-one frequencies %.5f", seed, got, limit, freq)
		}
	}
}

// vb-hda-glad converges on the shipped binary data sets and on websearch,
// with every output probability inside (0, 1). On adult and trec2010 it
// stops at its iteration limit (docs/models.md), so they are not checked.
func TestBayesGLADShippedSets(t *testing.T) {
	names := []string{"rte", "temp", "duchenne", "websearch"}
	est, err := model.ByName("vb-hda-glad")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			fitShipped(t, est, name)
		})
	}
}

// The statistical limit of the paper's synthetic experiment, on the
// simulations of seeds 1 to 10: below the add-one smoothed frequencies on
// every one, and on average above 1/(6(n + 2)) for n = 20 labels, the
// limit if every label were correct (the design's workers are noisy).
// Run with -v for the table of docs/models.md.
func TestGLADStatisticalLimit(t *testing.T) {
	var mean float64
	for seed := uint64(1); seed <= 10; seed++ {
		d, tr, err := sim.Simulate(sim.Settings{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		limit := must(metrics.MSE(gladOracle(d, tr.Worker, tr.Task), tr.Q, 2))
		freq := must(metrics.MSE(metrics.AddOne(d.Counts(), 2), tr.Q, 2))
		t.Logf("seed %d: limit %.5f, add-one frequencies %.5f", seed, limit, freq)
		if !(limit < freq) {
			t.Errorf("seed %d: limit %.5f, add-one frequencies %.5f", seed, limit, freq)
		}
		mean += limit / 10
	}
	t.Logf("mean limit %.5f", mean)
	if perfect := 1.0 / (6 * 22); !(mean > perfect) {
		t.Errorf("mean limit %.5f, with every label correct %.5f", mean, perfect)
	}
}
