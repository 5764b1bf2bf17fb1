package latent

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestMStepBlocksExact checks that the M-step for K > 2, which takes a
// block's exponentials and logarithms in one call each and an object's
// divisions four at a time, writes bit for bit what the loop of softmax,
// q_j + gtask_j/n_j and logNormalise gives object by object: for K from 3
// to 300, with objects without labels, objects whose weights are all 0
// (logNormalise's uniform case) and logits at the boundary.
func TestMStepBlocksExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, k := range []int{3, 4, 5, 7, 20, 64, 300} {
		const nt = 200
		d := mstepData(t, k, nt, func(j int) int { return j % 6 }) // objects 0, 6, 12, ... have no labels
		e := newDAEval(d)
		t0 := make([]float64, nt*k)
		gtask := make([]float64, nt*k)
		for j := range nt {
			n := float64(j % 6)
			for z := range k {
				i := j*k + z
				t0[i] = 3 * rng.NormFloat64()
				if rng.IntN(3) == 0 {
					t0[i] = -700 + rng.Float64() // q_j(z) near 0
				}
				gtask[i] = 0.5 * rng.NormFloat64()
			}
			if j%7 == 3 { // every weight q_j(z) + gtask_j(z)/n at most 0
				q := make([]float64, k)
				softmax(q, t0[j*k:(j+1)*k])
				for z := range k {
					gtask[j*k+z] = -q[z] * n * (1 + float64(z%2))
				}
			}
		}
		got := append([]float64(nil), t0...)
		e.MStepObjects(0, nt, gtask, got)
		want := append([]float64(nil), t0...)
		q := make([]float64, k)
		flats := 0
		for j := range nt {
			n := float64(j % 6)
			if n == 0 {
				continue
			}
			b := want[j*k : (j+1)*k]
			softmax(q, b)
			for z, qz := range q {
				b[z] = qz + gtask[j*k+z]/n
			}
			logNormalise(b)
			if b[0] == -math.Log(float64(k)) && b[k-1] == b[0] {
				flats++
			}
		}
		if flats == 0 {
			t.Errorf("K=%d: no object took logNormalise's uniform case", k)
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("K=%d: logit %d (object %d) is %v, the object-by-object loop gives %v", k, i, i/k, got[i], want[i])
			}
		}
	}
}

// mstepData returns nt objects of k classes in which object j has
// labels(j) labels, the i-th by worker i with class (i + j) mod k: the
// data of the DA M-step's tests and benchmark.
func mstepData(tb testing.TB, k, nt int, labels func(j int) int) *data.Dataset {
	tb.Helper()
	classes := make([]string, k)
	for z := range classes {
		classes[z] = fmt.Sprint(z)
	}
	names := make([]string, nt)
	for j := range names {
		names[j] = fmt.Sprint("t", j)
	}
	var task, worker []int32
	var label []uint16
	most := 0
	for j := range nt {
		n := labels(j)
		most = max(most, n)
		for i := range n {
			task = append(task, int32(j))
			worker = append(worker, int32(i))
			label = append(label, uint16((i+j)%k))
		}
	}
	workers := make([]string, max(most, 1))
	for i := range workers {
		workers[i] = fmt.Sprint("w", i)
	}
	d, err := data.FromIndices(names, workers, classes, task, worker, label)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
