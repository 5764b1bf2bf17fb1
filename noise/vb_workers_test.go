package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// vbData is a data set of nw workers and k classes with random labels.
func vbData(t *testing.T, nw, k int, seed uint64) *data.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	workers := make([]string, nw)
	for w := range workers {
		workers[w] = fmt.Sprint("w", w)
	}
	classes := make([]string, k)
	for z := range classes {
		classes[z] = fmt.Sprint("c", z)
	}
	var tasks, ws []int32
	var labels []uint16
	for i := range 40 * nw {
		tasks, ws, labels = append(tasks, int32(i/4)), append(ws, int32(rng.IntN(nw))), append(labels, uint16(rng.IntN(k)))
	}
	names := make([]string, 10*nw)
	for j := range names {
		names[j] = fmt.Sprint("t", j)
	}
	d, err := data.FromIndices(names, workers, classes, tasks, ws, labels)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// badValue is a worker value at column i that SetWorkerPosterior refuses
// with a message containing want.
type badValue struct {
	i    int
	x    float64
	want string
}

// TestWorkerPosterior checks, for DS's and OneCoin's variational
// posteriors and GLAD's point posterior, that SetWorkerPosterior gives back the pseudo-counts whose
// WorkerValues it is given (to rounding), that Hold keeps the marked
// pseudo-counts bit for bit through Update and Load while the others move,
// and that values WorkerValues cannot report are refused.
func TestWorkerPosterior(t *testing.T) {
	for _, c := range []struct {
		m   WorkerPosteriorSetter
		k   int
		bad []badValue
	}{
		{DS{}, 3, []badValue{{0, 1.5, "p[c0,c0] = 1.5 is not a probability"}, {9, -1, "n[c0] = -1 is not a number of labels"}, {10, math.Inf(1), "n[c1] = +Inf is not"}, {11, 1e300, "n[c2] = 1e+300 is not a number of labels (0 to 2^53)"}}},
		{DS{PriorDiag: 4, PriorOff: 0.5}, 2, []badValue{{1, 2, "p[c0,c1] = 2 is not a probability"}, {0, 0, "the row of class c0 sums to"}}},
		{OneCoin{}, 4, []badValue{{0, -0.1, "accuracy = -0.1 is not a probability"}, {1, math.NaN(), "n = NaN is not a number of labels"}}},
		{GLAD{}, 2, []badValue{{0, math.NaN(), "ability = NaN is not a finite number"}}},
	} {
		t.Run(fmt.Sprintf("%s/K=%d", c.m.Name(), c.k), func(t *testing.T) {
			d := vbData(t, 6, c.k, 7)
			var v Variational
			switch m := c.m.(type) {
			case Conjugate:
				v = m.NewVariational(d)
			case MAPVariational:
				v = m.NewMAP(d)
			}
			v.Start(d.FrequencyWeights())
			rng := rand.New(rand.NewPCG(2, 9))
			acc := make([]float64, v.AccDim())
			for i := range acc {
				acc[i] = 20 * rng.Float64()
			}
			v.Update(acc)
			lam := v.Params(nil)
			dim := c.m.WorkerPosteriorDim(c.k)
			// The workers' blocks come first (GLAD's point posterior has
			// the objects' difficulties after them).
			if len(lam) < dim*d.NumWorkers() {
				t.Fatalf("%d parameters, want at least %d per worker", len(lam), dim)
			}
			got := make([]float64, dim*d.NumWorkers())
			for w := range d.NumWorkers() {
				vals := v.WorkerValues(w, nil)
				if len(vals) != len(v.WorkerColumns()) {
					t.Fatalf("%d values for the columns %v", len(vals), v.WorkerColumns())
				}
				if err := c.m.SetWorkerPosterior(d, vals, got[w*dim:(w+1)*dim]); err != nil {
					t.Fatal(err)
				}
			}
			for i := range got {
				if math.Abs(got[i]-lam[i]) > 1e-12*math.Abs(lam[i]) {
					t.Errorf("pseudo-count %d: %v from the values, %v before", i, got[i], lam[i])
				}
			}
			// Hold the first worker's pseudo-counts at other values.
			held := slices.Clone(lam)
			fixed := make([]bool, len(lam))
			for i := range dim {
				held[i] = lam[i] + 3
				fixed[i] = true
			}
			v.Load(held)
			v.(Holder).Hold(fixed)
			for i := range acc {
				acc[i] = 20 * rng.Float64()
			}
			v.Update(acc)
			v.Load(v.Params(nil))
			after := v.Params(nil)
			if !slices.Equal(after[:dim], held[:dim]) {
				t.Errorf("held pseudo-counts %v, want %v", after[:dim], held[:dim])
			}
			if slices.Equal(after[dim:], held[dim:]) {
				t.Error("the other workers' pseudo-counts did not move")
			}
			for _, b := range c.bad {
				vals := v.WorkerValues(1, nil)
				vals[b.i] = b.x
				err := c.m.SetWorkerPosterior(d, vals, make([]float64, dim))
				if err == nil || !strings.Contains(err.Error(), b.want) {
					t.Errorf("value %d = %v: error %v, want %q", b.i, b.x, err, b.want)
				}
			}
			if err := c.m.SetWorkerPosterior(d, v.WorkerValues(1, nil)[1:], make([]float64, dim)); err == nil || !strings.Contains(err.Error(), "worker values, want") {
				t.Errorf("a value short: error %v", err)
			}
		})
	}
}
