package latent

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
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
		e.MStepTasks(0, nt, gtask, got)
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

// TestTaskBlocksExact checks that DA's log-space Task, which takes a block
// of labels' log-sum-exps and softmaxes in one call each, gives bit for
// bit what the loop of LogSumExp and SoftmaxFrom gives label by label: the
// object's term, every weight and the object's gradient, for K from 2 to
// 130 (above the stack buffer) and objects of 1 to 200 labels (several
// blocks), with logits at the boundary and log-probabilities of -Inf.
func TestTaskBlocksExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, k := range []int{2, 3, 20, 64, 130} {
		sizes := []int{1, 5, 7, 63, 64, 65, 200}
		d := mstepData(t, k, len(sizes), func(j int) int { return sizes[j] })
		e := newDAEval(d)
		b := make([]float64, len(sizes)*k)
		for i := range b {
			b[i] = 3 * rng.NormFloat64()
			if rng.IntN(5) == 0 {
				b[i] = -700 + rng.Float64()
			}
		}
		e.SetParams(nil, b)
		for j, n := range sizes {
			l := make([]float64, n*k)
			for i := range l {
				l[i] = -5 * rng.Float64()
				if rng.IntN(9) == 0 {
					l[i] = math.Inf(-1)
				}
			}
			g := make([]float64, n*k)
			gtask := make([]float64, len(b))
			v := e.Task(j, l, g, nil, gtask)

			// The label-by-label loop.
			logq := make([]float64, k)
			num.LogSoftmax(logq, b[j*k:(j+1)*k])
			wantG := make([]float64, n*k)
			wantGT := make([]float64, k)
			tz := make([]float64, k)
			var want float64
			for i := range n {
				for z, lq := range logq {
					tz[z] = lq + l[i*k+z]
				}
				lse := num.LogSumExp(tz)
				want += lse
				num.SoftmaxFrom(wantG[i*k:(i+1)*k], tz, lse)
				for z, r := range wantG[i*k : (i+1)*k] {
					wantGT[z] += r
				}
			}
			for z, lq := range logq {
				wantGT[z] -= float64(n) * math.Exp(lq)
			}
			if math.Float64bits(v) != math.Float64bits(want) {
				t.Errorf("K=%d, %d labels: term %v, want %v", k, n, v, want)
			}
			for i := range g {
				if math.Float64bits(g[i]) != math.Float64bits(wantG[i]) {
					t.Errorf("K=%d, %d labels: weight %d %v, want %v", k, n, i, g[i], wantG[i])
					break
				}
			}
			for z := range k {
				if math.Float64bits(gtask[j*k+z]) != math.Float64bits(wantGT[z]) {
					t.Errorf("K=%d, %d labels: gradient %d %v, want %v", k, n, z, gtask[j*k+z], wantGT[z])
					break
				}
			}
		}
	}
}
