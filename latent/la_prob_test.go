package latent_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
)

// TestLATaskProbUnderflow checks LA's probability-space path on one object
// whose label probabilities underflow, against the log-space path: where a
// class's product is lost but negligible the object stays in probability
// space with the same value and weights, otherwise TaskProb hands it to the
// log path.
func TestLATaskProbUnderflow(t *testing.T) {
	for _, tc := range []struct {
		name string
		k    int
		p    []float64 // P(y_i | z), label-major
		done int       // objects TaskProb is expected to handle
	}{
		{"K=2 no underflow", 2, []float64{0.9, 0.1, 0.8, 0.2}, 1},
		{"K=2 one class flushed to zero", 2, []float64{1, 0, 0.7, 0.3, 1, 0}, 1},
		{"K=2 one class underflows gradually", 2, []float64{1, 1e-200, 1, 1e-200, 0.6, 1e-200}, 1},
		{"K=2 other class flushed to zero", 2, []float64{0.3, 0.7, 0, 1}, 1},
		{"K=2 both classes flushed", 2, []float64{1, 0, 0, 1}, 0},
		{"K=2 lost but not negligible", 2, []float64{1, 1e-310, 1e-300, 1}, 0},
		{"K=2 NaN", 2, []float64{math.NaN(), 0.5}, 0},
		{"K=3 no underflow", 3, []float64{0.5, 0.25, 0.25, 0.1, 0.8, 0.1}, 1},
		{"K=3 two classes flushed", 3, []float64{1, 0, 0, 0.9, 0.05, 0.05}, 1},
		{"K=3 one class underflows gradually", 3, []float64{0.5, 0.4, 1e-300, 0.5, 0.4, 1e-300}, 1},
		{"K=3 all classes flushed", 3, []float64{1, 0, 0.5, 0, 1, 0}, 0},
		{"K=3 lost but not negligible", 3, []float64{1, 1e-310, 1e-300, 1e-300, 1, 1e-300}, 0},
		{"K=3 lost and negligible beside a third class", 3, []float64{1, 1e-310, 0.5, 1e-300, 1, 0.5}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.p) / tc.k
			d := labelsOfOneTask(t, n, tc.k)
			ev := evaluator(t, latent.LA{}, d)
			ev.SetParams(nil, nil)
			pe := ev.(latent.ProbEvaluator)
			gp := make([]float64, len(tc.p))
			m, e, done := pe.TaskProb(0, 1, tc.p, gp, nil, nil)
			if done != tc.done {
				t.Fatalf("TaskProb handled %d objects, want %d", done, tc.done)
			}
			if done == 0 {
				return
			}
			l := make([]float64, len(tc.p))
			for i, v := range tc.p {
				l[i] = math.Log(v)
			}
			gl := make([]float64, len(tc.p))
			want := ev.Task(0, l, gl, nil, nil)
			if got := math.Log(m) + float64(e)*math.Ln2; math.Abs(got-want) > 1e-13*(1+math.Abs(want)) {
				t.Errorf("term %.17g, log path %.17g", got, want)
			}
			for i := range gl {
				if math.Abs(gp[i]-gl[i]) > 1e-15 {
					t.Errorf("weight %d = %.17g, log path %.17g", i, gp[i], gl[i])
				}
			}
		})
	}
}

// labelsOfOneTask is a data set with one object labelled by n workers, with
// k classes.
func labelsOfOneTask(t *testing.T, n, k int) *data.Dataset {
	t.Helper()
	task, worker, label := make([]int32, n), make([]int32, n), make([]uint16, n)
	workers := make([]string, n)
	for i := range n {
		worker[i] = int32(i)
		workers[i] = fmt.Sprint("w", i)
	}
	classes := make([]string, k)
	for z := range classes {
		classes[z] = fmt.Sprint(z)
	}
	d, err := data.FromIndices([]string{"x"}, workers, classes, task, worker, label)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
