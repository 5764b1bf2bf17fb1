package noisetest

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
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

// checkInfo checks the declaration of a noise.Describer against what the
// model is: a summary; the default solver "em" exactly for a model whose
// evaluator is a noise.MStepper, "lbfgs" otherwise; a conjugate prior
// described exactly for a noise.Conjugate model; and class bounds within
// 2 and data.MaxClasses that CheckClasses enforces.
func checkInfo(t *testing.T, m noise.Model, d *data.Dataset) {
	info := m.(noise.Describer).Info()
	if info.Summary == "" {
		t.Error("Info has no Summary")
	}
	_, em := m.NewEvaluator(d).(noise.MStepper)
	if want := map[bool]string{true: "em", false: "lbfgs"}[em]; info.Solver != want {
		t.Errorf("Info declares solver %q; an evaluator that is an MStepper: %v, want %q", info.Solver, em, want)
	}
	if _, conj := m.(noise.Conjugate); (info.ConjugatePrior != "") != conj {
		t.Errorf("Info declares the conjugate prior %q; the model is a noise.Conjugate: %v", info.ConjugatePrior, conj)
	}
	lo, hi := max(info.MinK, 2), info.MaxK
	if hi == 0 {
		hi = data.MaxClasses
	}
	if info.MinK < 0 || info.MaxK < 0 || lo > hi || hi > data.MaxClasses {
		t.Fatalf("Info declares %d to %d classes, want bounds within 2 and %d", info.MinK, info.MaxK, data.MaxClasses)
	}
	for _, k := range []int{lo - 1, lo, hi, hi + 1} {
		if err := noise.CheckClasses(m, k); (err == nil) != (k >= lo && k <= hi && k >= 2) {
			t.Errorf("CheckClasses(%d) = %v for a model of %d to %d classes", k, err, lo, hi)
		}
	}
}

// threadedValues is the number of worker values (workers times WorkerDim)
// of the data of checkThreaded: enough for package noise to split the
// per-worker work over goroutines.
const threadedValues = 1 << 15

// checkThreaded checks the claim of a noise.Threaded evaluator (and of its
// variational posterior, if it is one too): on a data set with enough
// workers to be split, SetParams, LogProb, Conditional, WorkerValues and a
// noise.MStepper's MStep (and the posterior's Update and Prob) give the
// same numbers, bit for bit, on 1, 2 and 5 goroutines.
func checkThreaded(t *testing.T, m noise.Model, k int) {
	d := Data(t, uint64(k), 500, threadedValues/max(m.WorkerDim(k), 1)+1, k)
	rng := rand.New(rand.NewPCG(uint64(k), 13))
	w, o := Params(m, d, rng)
	g := Weights(d, rng)
	run := func(threads int) []float64 {
		ev := m.NewEvaluator(d)
		ev.(noise.Threaded).SetThreads(threads)
		ev.SetParams(w, o)
		var out []float64
		l := make([]float64, 6*k)
		gw, gobj := make([]float64, len(w)), make([]float64, len(o))
		for j := range d.Tasks {
			n := d.Offsets[j+1] - d.Offsets[j]
			ev.LogProb(j, l[:n*k])
			out = append(out, l[:n*k]...)
			ev.Backprop(j, g[d.Offsets[j]*k:d.Offsets[j+1]*k], gw, gobj)
		}
		c := make([]float64, k)
		for wk := 0; wk < d.NumWorkers(); wk += 97 {
			ev.Conditional(int32(wk), 0, wk%k, c)
			out = ev.WorkerValues(wk, append(out, c...))
		}
		if ms, ok := ev.(noise.MStepper); ok {
			nw, no := make([]float64, len(w)), make([]float64, len(o))
			ms.MStep(gw, gobj, nw, no)
			out = append(append(out, nw...), no...)
		}
		if c, ok := m.(noise.Conjugate); ok {
			v := c.NewVariational(d)
			if th, ok := v.(noise.Threaded); ok {
				th.SetThreads(threads)
			}
			v.Start(d.FrequencyWeights())
			acc := make([]float64, v.AccDim())
			v.Accumulate(0, d.NumTasks(), g, acc)
			kl := v.Update(acc)
			p := make([]float64, d.NumLabels()*k)
			v.Prob(0, d.NumTasks(), p)
			out = append(append(out, kl), p...)
		}
		return out
	}
	one := run(1)
	for _, threads := range []int{2, 5} {
		got := run(threads)
		if len(got) != len(one) {
			t.Fatalf("%d goroutines: %d numbers, one goroutine %d", threads, len(got), len(one))
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(one[i]) {
				t.Fatalf("%d goroutines: number %d is %v, on one goroutine %v", threads, i, got[i], one[i])
			}
		}
	}
}

// posterior returns m's variational posterior on d (a noise.Conjugate's)
// or point posterior (a noise.MAPVariational's), started and updated with
// the counts of random weights, and those counts; nil for another model.
func posterior(m noise.Model, d *data.Dataset, seed uint64) (noise.Variational, []float64) {
	var v noise.Variational
	switch m := m.(type) {
	case noise.Conjugate:
		v = m.NewVariational(d)
	case noise.MAPVariational:
		v = m.NewMAP(d)
	default:
		return nil, nil
	}
	v.Start(d.FrequencyWeights())
	acc := make([]float64, v.AccDim())
	v.Accumulate(0, d.NumTasks(), Weights(d, rand.New(rand.NewPCG(seed, 17))), acc)
	v.Update(acc)
	return v, acc
}

// checkWorkerPosterior checks a noise.WorkerPosteriorSetter: given the
// values a posterior's WorkerValues reports for a worker, SetWorkerPosterior
// writes parameters at which the posterior reports them again (to
// rounding), and it refuses values of another length.
func checkWorkerPosterior(t *testing.T, m noise.Model, d *data.Dataset) {
	ws := m.(noise.WorkerPosteriorSetter)
	v, _ := posterior(m, d, uint64(d.NumClasses()))
	if v == nil {
		t.Fatal("a WorkerPosteriorSetter that is neither Conjugate nor MAPVariational")
	}
	params := v.Params(nil)
	dim := ws.WorkerPosteriorDim(d.NumClasses())
	set := slices.Clone(params)
	want := make([][]float64, d.NumWorkers())
	for w := range want {
		want[w] = v.WorkerValues(w, nil)
		if err := ws.SetWorkerPosterior(d, want[w], set[w*dim:(w+1)*dim]); err != nil {
			t.Fatalf("worker %d: SetWorkerPosterior(%v): %v", w, want[w], err)
		}
	}
	noise.LoadStart(v, set)
	if sp, ok := m.(noise.SharedPriorer); ok && reflect.DeepEqual(sp.WithSharedPrior(), m) {
		// With the prior learned from all workers (DS.SharedPrior,
		// vb-ds) the values are reported again by workers held at
		// what SetWorkerPosterior wrote, whose mass is the static
		// prior's: loaded by LoadStart, then held, as fit
		// --init-workers --fix-workers does.
		h, ok := v.(noise.Holder)
		if !ok {
			t.Fatal("a posterior under a shared prior that is not a noise.Holder")
		}
		hold := make([]bool, len(set))
		for i := range hold {
			hold[i] = true
		}
		h.Hold(hold)
	}
	for w := range want {
		for i, x := range v.WorkerValues(w, nil) {
			if y := want[w][i]; math.Abs(x-y) > 1e-8*math.Max(1, math.Abs(y)) {
				t.Fatalf("worker %d: value %d (%s) is %v at the parameters SetWorkerPosterior wrote, %v before", w, i, v.WorkerColumns()[i], x, y)
			}
		}
	}
	if err := ws.SetWorkerPosterior(d, append(want[0], 0.5), set[:dim]); err == nil {
		t.Errorf("SetWorkerPosterior took %d values, want %d", len(want[0])+1, len(want[0]))
	}
}

// checkHold checks a noise.Holder posterior: the parameters it is told to
// hold keep their values through Update and Load, and the others move.
func checkHold(t *testing.T, m noise.Model, d *data.Dataset) {
	v, acc := posterior(m, d, 3)
	before := v.Params(nil)
	fixed := make([]bool, len(before))
	for i := range fixed {
		fixed[i] = i%3 == 0
	}
	v.(noise.Holder).Hold(fixed)
	for i := range acc {
		acc[i] = 2*acc[i] + 1
	}
	v.Update(acc)
	after := v.Params(nil)
	moved := false
	for i := range after {
		if fixed[i] && after[i] != before[i] {
			t.Fatalf("Update moved held parameter %d from %v to %v", i, before[i], after[i])
		}
		moved = moved || !fixed[i] && after[i] != before[i]
	}
	if !moved {
		t.Error("Update with other counts moved no parameter that is not held")
	}
	load := make([]float64, len(after))
	for i := range load {
		load[i] = after[i] + 1
	}
	v.Load(load)
	for i, x := range v.Params(nil) {
		if fixed[i] && x != before[i] {
			t.Fatalf("Load moved held parameter %d from %v to %v", i, before[i], x)
		}
	}
}

// checkMAP checks the point posterior of a noise.MAPVariational: its
// Conditional is a distribution; Prob writes P(y_i | z) at the point
// estimates, the Conditional of the label's worker and object at its
// label; Update after Accumulate returns a finite cost; and
// Load(Params()) restores Prob.
func checkMAP(t *testing.T, m noise.MAPVariational, d *data.Dataset) {
	k := d.NumClasses()
	v := m.NewMAP(d)
	v.Start(d.FrequencyWeights())
	p := make([]float64, d.NumLabels()*k)
	v.Prob(0, d.NumTasks(), p)
	c := make([]float64, k)
	for j := range d.Tasks {
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w, y := d.Worker[i], int(d.Label[i])
			for z := range k {
				v.Conditional(w, j, z, c)
				var s float64
				for _, x := range c {
					s += x
				}
				if math.Abs(s-1) > 1e-12 {
					t.Fatalf("worker %d, object %d: P(·|z=%d) sums to %g", w, j, z, s)
				}
				if got := p[i*k+z]; math.Abs(got-c[y]) > 1e-12*math.Max(1, c[y]) {
					t.Fatalf("label %d, z=%d: Prob %g, Conditional %g", i, z, got, c[y])
				}
			}
		}
	}
	acc := make([]float64, v.AccDim())
	v.Accumulate(0, d.NumTasks(), Weights(d, rand.New(rand.NewPCG(uint64(k), 19))), acc)
	if cost := v.Update(acc); math.IsNaN(cost) || math.IsInf(cost, 0) {
		t.Errorf("Update returns %v", cost)
	}
	v.Prob(0, d.NumTasks(), p)
	w := m.NewMAP(d)
	w.Load(v.Params(nil))
	q := make([]float64, len(p))
	w.Prob(0, d.NumTasks(), q)
	for i := range p {
		if math.Abs(p[i]-q[i]) > 1e-12*p[i] {
			t.Fatalf("Load(Params()) changes Prob[%d] from %g to %g", i, p[i], q[i])
		}
	}
}
