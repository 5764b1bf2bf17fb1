package noisetest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/noise"
)

// checkWorkerOnly checks the claim of a noise.WorkerOnly evaluator: every
// worker's Conditional is the same, bit for bit, on every object it
// labelled.
func checkWorkerOnly(t *testing.T, m noise.Model, d *data.Dataset) {
	k := d.NumClasses()
	ev, w, o, _ := fixture(m, d, 8)
	ev.SetParams(w, o)
	first := make(map[int32][]float64)
	p := make([]float64, k)
	for j := range d.Tasks {
		workers, _ := d.TaskLabels(j)
		for _, wk := range workers {
			for z := range k {
				ev.Conditional(wk, j, z, p)
				seen, ok := first[wk]
				if !ok || len(seen) < (z+1)*k {
					first[wk] = append(seen, p...)
					continue
				}
				for y, v := range p {
					if v != seen[z*k+y] {
						t.Fatalf("worker %d, object %d: P(%d|z=%d) = %.17g, %.17g on an earlier object", wk, j, y, z, v, seen[z*k+y])
					}
				}
			}
		}
	}
}

// checkShared checks the claim of a noise.SharedBackpropper: BackpropShared
// with one weight vector per object is bit for bit BackpropProb with that
// vector copied to each of the object's labels.
func checkShared(t *testing.T, m noise.Model, d *data.Dataset) {
	k := d.NumClasses()
	ev, w, o, _ := fixture(m, d, 9)
	sb := ev.(noise.SharedBackpropper)
	ev.SetParams(w, o)
	rng := rand.New(rand.NewPCG(10, uint64(k)))
	for _, r := range [][2]int{{0, d.NumTasks()}, {2, 9}} {
		lo, hi := r[0], r[1]
		base := d.Offsets[lo] * k
		p := make([]float64, (d.Offsets[hi]-d.Offsets[lo])*k)
		sb.Prob(lo, hi, p)
		shared := make([]float64, (hi-lo)*k)
		for i := range shared {
			shared[i] = rng.Float64()
		}
		perLabel := make([]float64, len(p))
		for j := lo; j < hi; j++ {
			for i := d.Offsets[j]*k - base; i < d.Offsets[j+1]*k-base; i += k {
				copy(perLabel[i:i+k], shared[(j-lo)*k:(j-lo+1)*k])
			}
		}
		sw, so := make([]float64, len(w)), make([]float64, len(o))
		sb.BackpropShared(lo, hi, p, shared, sw, so)
		pw, po := make([]float64, len(w)), make([]float64, len(o))
		sb.BackpropProb(lo, hi, p, perLabel, pw, po)
		want := append(pw, po...)
		for i, v := range append(sw, so...) {
			if v != want[i] {
				t.Fatalf("objects [%d, %d), parameter %d: BackpropShared %.17g, BackpropProb %.17g", lo, hi, i, v, want[i])
			}
		}
	}
}

// checkTabled checks the claim of a noise.Tabled evaluator: its Table
// holds P(y | z) of every label at [w·K² + y·K + z], as Prob writes it.
func checkTabled(t *testing.T, m noise.Model, d *data.Dataset) {
	k := d.NumClasses()
	ev, w, o, _ := fixture(m, d, 11)
	tb := ev.(noise.Tabled)
	ev.SetParams(w, o)
	p := make([]float64, d.NumLabels()*k)
	tb.Prob(0, d.NumTasks(), p)
	table := tb.Table()
	for i, wk := range d.Worker {
		y := int(d.Label[i])
		for z := range k {
			if got, want := table[int(wk)*k*k+y*k+z], p[i*k+z]; math.Abs(got-want) > 1e-15*want {
				t.Fatalf("label %d (worker %d, y=%d), z=%d: Table %.17g, Prob %.17g", i, wk, y, z, got, want)
			}
		}
	}
}

// checkTaskReporter checks a noise.TaskReporter: one finite value per
// TaskColumns entry for every object, at random parameters.
func checkTaskReporter(t *testing.T, m noise.Model, d *data.Dataset) {
	tr := m.(noise.TaskReporter)
	k := d.NumClasses()
	_, _, o, _ := fixture(m, d, 12)
	cols := tr.TaskColumns()
	if len(cols) == 0 {
		t.Fatal("TaskColumns is empty")
	}
	for j := range d.Tasks {
		vals := tr.TaskValues(o, k, j, nil)
		if len(vals) != len(cols) {
			t.Fatalf("object %d: %d values for %d columns %v", j, len(vals), len(cols), cols)
		}
		for i, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("object %d: %s = %v", j, cols[i], v)
			}
		}
	}
}

// checkWorkerSetter checks a noise.WorkerSetter: the parameters SetWorker
// writes from a worker's WorkerValues report the same values again, and
// values of another length are an error.
func checkWorkerSetter(t *testing.T, m noise.Model, d *data.Dataset) {
	ws := m.(noise.WorkerSetter)
	k := d.NumClasses()
	ev, w, o, _ := fixture(m, d, 13)
	ev.SetParams(w, o)
	dim := m.WorkerDim(k)
	set := make([]float64, len(w))
	var want [][]float64
	for wk := range d.Workers {
		vals := ev.WorkerValues(wk, nil)
		want = append(want, vals)
		if err := ws.SetWorker(d, vals, set[wk*dim:(wk+1)*dim]); err != nil {
			t.Fatalf("worker %d: SetWorker(%v): %v", wk, vals, err)
		}
	}
	if err := ws.SetWorker(d, append(want[0], 0.5), set[:dim]); err == nil {
		t.Errorf("SetWorker with %d values for %d columns: no error", len(want[0])+1, len(want[0]))
	}
	ev.SetParams(set, o)
	for wk := range d.Workers {
		for i, v := range ev.WorkerValues(wk, nil) {
			if math.Abs(v-want[wk][i]) > 1e-9*(1+math.Abs(want[wk][i])) {
				t.Fatalf("worker %d, column %d: %.17g after SetWorker, %.17g before", wk, i, v, want[wk][i])
			}
		}
	}
}
