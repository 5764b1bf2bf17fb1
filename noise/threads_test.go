package noise

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestThreadedIdentical checks that Dawid-Skene's per-worker work gives
// the same numbers, bit for bit, on one goroutine and on several: SetParams
// and MStep of the maximum-likelihood evaluator, and Update (its expected
// logarithms, transposed probabilities and KL divergence) of the
// variational posterior, on enough workers and classes (120 × 20², above
// parallelMin) to be split.
func TestThreadedIdentical(t *testing.T) {
	const nw, k = 120, 20
	rng := rand.New(rand.NewPCG(3, 5))
	workers := make([]string, nw)
	for w := range workers {
		workers[w] = fmt.Sprint("w", w)
	}
	classes := make([]string, k)
	for z := range classes {
		classes[z] = fmt.Sprint(z)
	}
	var tasks, ws []int32
	var labels []uint16
	for i := range 2000 {
		tasks, ws, labels = append(tasks, int32(i/4)), append(ws, int32(rng.IntN(nw))), append(labels, uint16(rng.IntN(k)))
	}
	names := make([]string, 500)
	for j := range names {
		names[j] = fmt.Sprint("t", j)
	}
	d, err := data.FromIndices(names, workers, classes, tasks, ws, labels)
	if err != nil {
		t.Fatal(err)
	}
	if nw*k*k < parallelMin {
		t.Fatal("too few values to be split")
	}
	x := make([]float64, nw*k*k)
	acc := make([]float64, nw*k*k)
	for i := range x {
		x[i] = rng.NormFloat64()
		acc[i] = 10 * rng.Float64()
	}
	type out struct{ logPi, piT, w, lam []float64 }
	run := func(threads int) (out, float64) {
		e := DS{}.NewEvaluator(d).(*dsEval)
		e.SetThreads(threads)
		e.SetParams(x, nil)
		w := make([]float64, len(x))
		e.MStep(acc, nil, w, nil)
		v := DS{}.NewVariational(d).(*dsVB)
		v.SetThreads(threads)
		kl := v.Update(acc)
		return out{slices.Clone(e.logPi), slices.Clone(e.piT), w, slices.Clone(v.lam)}, kl
	}
	one, kl1 := run(1)
	for _, threads := range []int{2, 3, 7} {
		got, kl := run(threads)
		if !slices.Equal(got.logPi, one.logPi) || !slices.Equal(got.piT, one.piT) || !slices.Equal(got.w, one.w) || !slices.Equal(got.lam, one.lam) || kl != kl1 {
			t.Errorf("%d goroutines: results differ from one goroutine's", threads)
		}
	}
}
