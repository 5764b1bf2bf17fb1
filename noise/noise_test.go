package noise_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

func randomData(t *testing.T, k int) *data.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(k), 1))
	const tasks, workers = 15, 6
	var task, worker []int32
	var label []uint16
	for j := range tasks {
		for range 1 + rng.IntN(5) {
			task = append(task, int32(j))
			worker = append(worker, int32(rng.IntN(workers)))
			label = append(label, uint16(rng.IntN(k)))
		}
	}
	names := func(p string, n int) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint(p, i)
		}
		return s
	}
	d, err := data.FromIndices(names("t", tasks), names("w", workers), names("c", k), task, worker, label)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// registered returns the noise models of the registry of package model.
func registered() []noise.Model {
	var ms []noise.Model
	for _, m := range model.NoiseModels() {
		ms = append(ms, m)
	}
	return ms
}

// TestConditionalConsistent checks, for every noise model at random
// parameters, that Conditional is a distribution over y for every z and
// that LogProb is the log of its entry at the observed label.
func TestConditionalConsistent(t *testing.T) {
	for _, m := range registered() {
		for _, k := range []int{2, 3, 5} {
			t.Run(fmt.Sprintf("%s/K=%d", m.Name(), k), func(t *testing.T) {
				d := randomData(t, k)
				rng := rand.New(rand.NewPCG(2, uint64(k)))
				w := make([]float64, d.NumWorkers()*m.WorkerDim(k))
				o := make([]float64, d.NumTasks()*m.ObjectDim(k))
				m.(noise.Sampler).SampleParams(rng, k, w, o)
				ev := m.NewEvaluator(d)
				ev.SetParams(w, o)
				p := make([]float64, k)
				for j := range d.Tasks {
					workers, labels := d.TaskLabels(j)
					l := make([]float64, len(workers)*k)
					ev.LogProb(j, l)
					for i, wk := range workers {
						for z := range k {
							ev.Conditional(wk, j, z, p)
							var sum float64
							for _, v := range p {
								if v < 0 || v > 1 {
									t.Fatalf("P(y|z=%d) = %v outside [0,1]", z, p)
								}
								sum += v
							}
							if math.Abs(sum-1) > 1e-12 {
								t.Fatalf("P(.|z=%d) sums to %v", z, sum)
							}
							if got, want := l[i*k+z], math.Log(p[labels[i]]); math.Abs(got-want) > 1e-9 {
								t.Fatalf("task %d label %d z=%d: LogProb %v, log Conditional %v", j, i, z, got, want)
							}
						}
					}
				}
			})
		}
	}
}

// TestInitFinite checks that the paper's initialisation gives finite
// parameters, even for classes a worker never uses.
func TestInitFinite(t *testing.T) {
	for _, m := range registered() {
		d := randomData(t, 4)
		k := 4
		w := make([]float64, d.NumWorkers()*m.WorkerDim(k))
		o := make([]float64, d.NumTasks()*m.ObjectDim(k))
		m.Init(d, d.Frequencies(), w, o)
		for _, v := range append(w, o...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: initial parameter %v", m.Name(), v)
			}
		}
	}
}

// TestDSInitPaper checks DS's initialisation against a hand computation:
// one worker labels two objects whose label frequencies are (1, 0) and
// (0.5, 0.5), saying class 0 on both. The count matrix is column 0 =
// (1.5, 0.5), column 1 = 0, so with pseudo-count s = 0.01 the confusion rows
// are ((1.5+s)/(1.5+2s), s/(1.5+2s)) and ((0.5+s)/(0.5+2s), s/(0.5+2s)).
func TestDSInitPaper(t *testing.T) {
	d, err := data.FromIndices([]string{"a", "b"}, []string{"w", "v"}, []string{"0", "1"},
		[]int32{0, 1, 1}, []int32{0, 0, 1}, []uint16{0, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, 2*4)
	noise.DS{}.Init(d, d.Frequencies(), w, nil)
	const s = 0.01
	want := []float64{(1.5 + s) / (1.5 + 2*s), s / (1.5 + 2*s), (0.5 + s) / (0.5 + 2*s), s / (0.5 + 2*s)}
	for i, p := range want {
		if got := math.Exp(w[i]); math.Abs(got-p) > 1e-12 {
			t.Errorf("π(%d,%d) = %v, want %v", i/2, i%2, got, p)
		}
	}
}
