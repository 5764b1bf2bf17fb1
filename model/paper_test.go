package model

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
)

// oneObject returns one object labelled once by each of n workers, the
// first ones of them saying class 1 and the rest class 0.
func oneObject(t *testing.T, n, ones int) *data.Dataset {
	t.Helper()
	task := make([]int32, n)
	worker := make([]int32, n)
	label := make([]uint16, n)
	for i := range n {
		worker[i] = int32(i)
		if i < ones {
			label[i] = 1
		}
	}
	d, err := data.FromIndices([]string{"x"}, noisetest.Names("w", n), []string{"0", "1"}, task, worker, label)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// fitFixedDS fits m with every worker's DS confusion matrix fixed to the
// given one (row-major K×K probabilities).
func fitFixedDS(t *testing.T, m Model, d *data.Dataset, pi []float64) *Result {
	t.Helper()
	x := m.Init(d)
	lay := m.Layout(d)
	fixed := make([]bool, len(x))
	k2 := len(pi)
	for w := 0; w < d.NumWorkers(); w++ {
		for c, p := range pi {
			x[lay.W[0]+w*k2+c] = math.Log(p)
			fixed[lay.W[0]+w*k2+c] = true
		}
	}
	r, err := m.Fit(context.Background(), d, &Settings{Start: x, Fixed: fixed})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPaperExample is the paper's worked example (section 2): 210 workers
// of accuracy 0.8, 110 say 1 and 100 say 0. The LA posterior of class 1
// exceeds 1 - 2^-20; the DA estimate maximises
// 110 log(0.8 q + 0.2 (1 - q)) + 100 log(0.2 q + 0.8 (1 - q)), q ≈ 0.54.
func TestPaperExample(t *testing.T) {
	d := oneObject(t, 210, 110)
	pi := []float64{0.8, 0.2, 0.2, 0.8}
	la := fitFixedDS(t, Model{Noise: noise.DS{}, Latent: latent.LA{}}, d, pi)
	if p := la.Probs[1]; !(p > 1-math.Pow(2, -20)) {
		t.Errorf("LA posterior of class 1 = %v, want > 1 - 2^-20", p)
	}
	da := fitFixedDS(t, Model{Noise: noise.DS{}, Latent: latent.DA{}}, d, pi)
	// The closed form: q = (n1/n - (1 - a)) / (2a - 1).
	want := (110.0/210 - 0.2) / 0.6
	if q := da.Probs[1]; math.Abs(q-want) > 1e-5 {
		t.Errorf("DA estimate of class 1 = %.6f, want %.6f", q, want)
	}
	if math.Abs(want-0.5397) > 5e-5 {
		t.Fatalf("closed form %v is not the paper's 0.54", want)
	}
}

// TestDAIdentityIsRFE checks that DA-DS with every worker's confusion
// matrix fixed to (nearly) the identity returns the label frequencies.
func TestDAIdentityIsRFE(t *testing.T) {
	d := noisetest.Data(t, 11, 40, 6, 3)
	const eps = 1e-12
	pi := []float64{1 - 2*eps, eps, eps, eps, 1 - 2*eps, eps, eps, eps, 1 - 2*eps}
	r := fitFixedDS(t, Model{Noise: noise.DS{}, Latent: latent.DA{}}, d, pi)
	freq := d.Frequencies()
	for i, f := range freq {
		if math.Abs(r.Probs[i]-f) > 1e-4 {
			t.Fatalf("q[%d] = %v, want frequency %v", i, r.Probs[i], f)
		}
	}
}

// TestPropositions checks the paper's propositions 1 and 2 by simulation:
// objects with label distributions q_j ~ U[0.05, 0.95] receive n labels each
// from workers of known accuracy 0.8 (DA process). As n grows, the LA
// posterior sharpens toward 0 or 1 (its mean distance to the nearest of 0
// and 1 shrinks toward 0), so its error against q_j stays large, while the
// DA estimate converges to q_j.
func TestPropositions(t *testing.T) {
	const a, tasks = 0.8, 200
	rng := rand.New(rand.NewPCG(5, 5))
	q := make([]float64, tasks)
	for j := range q {
		q[j] = 0.05 + 0.9*rng.Float64()
	}
	pi := []float64{a, 1 - a, 1 - a, a}
	var prevSharp, prevDA float64
	for step, n := range []int{5, 50, 500} {
		var task, worker []int32
		var label []uint16
		for j := range tasks {
			for w := range n {
				z := 0
				if rng.Float64() < q[j] {
					z = 1
				}
				y := z
				if rng.Float64() > a {
					y = 1 - z
				}
				task = append(task, int32(j))
				worker = append(worker, int32(w))
				label = append(label, uint16(y))
			}
		}
		d, err := data.FromIndices(noisetest.Names("t", tasks), noisetest.Names("w", n), []string{"0", "1"}, task, worker, label)
		if err != nil {
			t.Fatal(err)
		}
		la := fitFixedDS(t, Model{Noise: noise.DS{}, Latent: latent.LA{}}, d, pi)
		da := fitFixedDS(t, Model{Noise: noise.DS{}, Latent: latent.DA{}}, d, pi)
		var sharp, errLA, errDA float64
		for j := range tasks {
			g := la.Probs[2*j+1]
			sharp += math.Min(g, 1-g) / tasks
			errLA += (g - q[j]) * (g - q[j]) / tasks
			errDA += (da.Probs[2*j+1] - q[j]) * (da.Probs[2*j+1] - q[j]) / tasks
		}
		t.Logf("n=%d: LA mean distance to {0,1} %.4f, LA MSE %.4f, DA MSE %.4f", n, sharp, errLA, errDA)
		if step > 0 && (sharp >= prevSharp || errDA >= prevDA) {
			t.Errorf("n=%d: LA sharpness %.4f (before %.4f), DA MSE %.4f (before %.4f): expected both to fall", n, sharp, prevSharp, errDA, prevDA)
		}
		if n == 500 && (sharp > 5e-3 || errDA > 0.005 || errLA < 0.05) {
			t.Errorf("n=500: LA distance to {0,1} %.4f (want < 5e-3), LA MSE %.4f (want > 0.05), DA MSE %.4f (want < 0.005)", sharp, errLA, errDA)
		}
		prevSharp, prevDA = sharp, errDA
	}
}
