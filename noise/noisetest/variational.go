package noisetest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/noise"
)

// CheckVariational checks the variational posterior of conjugate noise
// model m on d: the KL divergence from the prior is zero with no counts
// and positive with some; Prob, the exponential of the expected log
// probability, is positive and at most the posterior mean Conditional
// gives (Jensen); Conditional is a distribution; Accumulate adds as much
// weight as it is given (every label's weights sum to 1, so the counts sum
// to the number of labels); a noise.WorkerOnly posterior's Prob is the
// same, bit for bit, for every label of one worker with one value; and
// Load(Params()) restores the posterior.
func CheckVariational(t *testing.T, m noise.Conjugate, d *data.Dataset) {
	k := d.NumClasses()
	v := m.NewVariational(d)
	if kl := v.Update(make([]float64, v.AccDim())); math.Abs(kl) > 1e-12 {
		t.Errorf("KL %g with no counts", kl)
	}
	v.Start(d.FrequencyWeights())
	n := d.NumLabels()
	p := make([]float64, n*k)
	v.Prob(0, d.NumTasks(), p)
	c := make([]float64, k)
	for i := range n {
		w, y := d.Worker[i], int(d.Label[i])
		for z := range k {
			v.Conditional(w, 0, z, c)
			if got := p[i*k+z]; !(got > 0 && got <= c[y]) {
				t.Fatalf("label %d, z=%d: exp E[log P(y|z)] %g, posterior mean %g", i, z, got, c[y])
			}
			var s float64
			for _, x := range c {
				s += x
			}
			if math.Abs(s-1) > 1e-12 {
				t.Fatalf("worker %d: posterior mean of P(·|z=%d) sums to %g", w, z, s)
			}
		}
	}
	g := Weights(d, rand.New(rand.NewPCG(uint64(k), 9)))
	acc := make([]float64, v.AccDim())
	v.Accumulate(0, d.NumTasks(), g, acc)
	var tot float64
	for _, x := range acc {
		tot += x
	}
	if math.Abs(tot-float64(n)) > 1e-9 {
		t.Errorf("expected counts sum to %g for %d labels", tot, n)
	}
	if kl := v.Update(acc); !(kl > 0) {
		t.Errorf("KL %g with counts", kl)
	}
	v.Prob(0, d.NumTasks(), p)
	if _, ok := v.(noise.WorkerOnly); ok {
		checkProbWorkerOnly(t, d, p)
	}
	w := m.NewVariational(d)
	w.Load(v.Params(nil))
	q := make([]float64, n*k)
	w.Prob(0, d.NumTasks(), q)
	for i := range p {
		if math.Abs(p[i]-q[i]) > 1e-12*p[i] {
			t.Fatalf("Load(Params()) changes Prob[%d] from %g to %g", i, p[i], q[i])
		}
	}
}

// checkProbWorkerOnly checks that p, Prob of every label of d, holds the
// same row for every label of one worker with one value.
func checkProbWorkerOnly(t *testing.T, d *data.Dataset, p []float64) {
	k := d.NumClasses()
	type key struct {
		w int32
		y int
	}
	first := make(map[key]int)
	for i, w := range d.Worker {
		kk := key{w, int(d.Label[i])}
		f, ok := first[kk]
		if !ok {
			first[kk] = i
			continue
		}
		for z := range k {
			if p[i*k+z] != p[f*k+z] {
				t.Fatalf("worker %d, value %d: Prob of label %d is %.17g at z=%d, of label %d %.17g", w, kk.y, i, p[i*k+z], z, f, p[f*k+z])
			}
		}
	}
}
