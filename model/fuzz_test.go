package model

import (
	"context"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/noise/noisetest"
)

// fuzzModels are the six parametric models in registry order.
var fuzzModels = []string{"la-ds", "da-ds", "la-glad", "da-glad", "la-mme", "da-mme"}

// fuzzCase decodes fuzz input into a model, settings and a tiny data set.
//
// in[0] picks the model, in[1] the number of classes K (2..5), in[2] the
// number of workers (1..8), in[3] the solver (bit 0), a ridge (bit 1) and a
// perturbed start (bit 2, for GLAD: log difficulties far in overflow
// territory). Every following byte pair is one label: the task (first byte
// mod 12), the worker and the class (second byte). Tasks are renumbered
// densely in order of first appearance, as the readers do.
func fuzzCase(in []byte) (Model, *Settings, *data.Dataset, bool) {
	if len(in) < 6 {
		return Model{}, nil, nil, false
	}
	e, err := ByName(fuzzModels[int(in[0])%len(fuzzModels)])
	if err != nil {
		panic(err)
	}
	m := e.(Model)
	k := 2 + int(in[1])%4
	w := 1 + int(in[2])%8
	s := &Settings{MaxIterations: 25, Threads: 1}
	if in[3]&1 != 0 {
		s.Method = CG
	}
	if in[3]&2 != 0 {
		s.Ridge = 0.01
	}
	pairs := in[4:]
	taskOf := map[byte]int32{}
	var task, worker []int32
	var label []uint16
	for i := 0; i+1 < len(pairs) && len(task) < 64; i += 2 {
		t := pairs[i] % 12
		j, ok := taskOf[t]
		if !ok {
			j = int32(len(taskOf))
			taskOf[t] = j
		}
		task = append(task, j)
		worker = append(worker, int32(int(pairs[i+1])%w))
		label = append(label, uint16(int(pairs[i+1]>>3)%k))
	}
	d, err := data.FromIndices(noisetest.Names("t", len(taskOf)), noisetest.Names("w", w), noisetest.Names("c", k), task, worker, label)
	if err != nil {
		panic(err)
	}
	if in[3]&4 != 0 {
		x := m.Init(d)
		lay := m.Layout(d)
		for i := lay.O[0]; i < lay.O[1]; i++ {
			x[i] = 800 * float64(int(in[5+i%(len(in)-5)])-128) // far outside any sensible range
		}
		for i := lay.W[0]; i < lay.W[1]; i++ {
			x[i] += float64(int(in[4+i%(len(in)-4)]) - 128)
		}
		s.Start = x
	}
	return m, s, d, true
}

// checkResult fails t if a fitted result holds a NaN or an infinity, or a
// distribution that does not sum to 1.
func checkResult(t testing.TB, r *Result) {
	t.Helper()
	if math.IsNaN(r.LogLikelihood) || math.IsInf(r.LogLikelihood, 0) || r.LogLikelihood > 1e-9 {
		t.Fatalf("%s: log-likelihood %v", r.Model, r.LogLikelihood)
	}
	for i, v := range r.Params {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("%s: parameter %d is %v", r.Model, i, v)
		}
	}
	k := r.K()
	if len(r.Probs) != r.Data.NumTasks()*k {
		t.Fatalf("%s: %d probabilities for %d tasks and %d classes", r.Model, len(r.Probs), r.Data.NumTasks(), k)
	}
	for j := range r.Data.NumTasks() {
		var sum float64
		for z, p := range r.Dist(j) {
			if !(p >= 0 && p <= 1) {
				t.Fatalf("%s: task %d class %d has probability %v", r.Model, j, z, p)
			}
			sum += p
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("%s: task %d probabilities sum to %v", r.Model, j, sum)
		}
	}
}

// FuzzFit fits a random one of the six models on tiny random data sets with
// a small iteration limit and checks that the fit succeeds with finite
// parameters, a finite log-likelihood and distributions summing to 1.
func FuzzFit(f *testing.F) {
	for i := range 6 {
		f.Add([]byte{byte(i), 0, 3, 0, 0, 0, 1, 8, 2, 17, 2, 0})
		f.Add([]byte{byte(i), 3, 7, 1, 0, 9, 0, 9, 0, 9, 1, 9, 5, 200, 5, 201, 11, 255})
		f.Add([]byte{byte(i), 1, 0, 2, 4, 4, 4, 4})
		f.Add([]byte{byte(i), 0, 1, 4, 0, 255, 1, 0, 2, 8, 3, 0, 3, 8})
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		m, s, d, ok := fuzzCase(in)
		if !ok {
			return
		}
		r, err := m.Fit(context.Background(), d, s)
		if err != nil {
			t.Fatalf("%s on %d labels: %v", m.Name(), d.NumLabels(), err)
		}
		checkResult(t, r)
	})
}
