package noisetest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/noise"
)

// Classes lists the numbers of classes Check tests a noise model with.
var Classes = []int{2, 3, 5}

// Data returns a data set of uniformly random labels: tasks objects named
// t0, t1, …, workers workers named w0, w1, … and k classes named c0, c1, …,
// with 1 to 6 labels per object from workers drawn with replacement (so a
// worker may label an object twice). The same arguments give the same data.
func Data(tb testing.TB, seed uint64, tasks, workers, k int) *data.Dataset {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var task, worker []int32
	var label []uint16
	for j := range tasks {
		for range 1 + rng.IntN(6) {
			task = append(task, int32(j))
			worker = append(worker, int32(rng.IntN(workers)))
			label = append(label, uint16(rng.IntN(k)))
		}
	}
	d, err := data.FromIndices(Names("t", tasks), Names("w", workers), Names("c", k), task, worker, label)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// Names returns n names: prefix followed by 0, 1, …, n-1.
func Names(prefix string, n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprint(prefix, i)
	}
	return s
}

// Params returns the worker and object blocks of m's parameters on d
// drawn with rng: from the model's own distribution if it is a
// noise.Sampler, otherwise the initialisation plus independent normal
// noise of standard deviation 0.5.
func Params(m noise.Model, d *data.Dataset, rng *rand.Rand) (w, o []float64) {
	k := d.NumClasses()
	w = make([]float64, d.NumWorkers()*m.WorkerDim(k))
	o = make([]float64, d.NumTasks()*m.TaskDim(k))
	if s, ok := m.(noise.Sampler); ok {
		s.SampleParams(rng, k, w, o)
		return w, o
	}
	m.Init(d, d.FrequencyWeights(), w, o)
	for _, b := range [][]float64{w, o} {
		for i := range b {
			b[i] += 0.5 * rng.NormFloat64()
		}
	}
	return w, o
}

// Weights returns random weights g_i(z) ≥ 0 for every label of d, each
// label's summing to 1, laid out as the l of noise.Evaluator.LogProb for
// the labels in data set order.
func Weights(d *data.Dataset, rng *rand.Rand) []float64 {
	k := d.NumClasses()
	g := make([]float64, d.NumLabels()*k)
	for i := 0; i < len(g); i += k {
		var s float64
		for z := range k {
			g[i+z] = rng.Float64()
			s += g[i+z]
		}
		for z := range k {
			g[i+z] /= s
		}
	}
	return g
}

// Check runs the conformance tests of the package documentation on m, as
// subtests named by the number of classes and the property.
func Check(t *testing.T, m noise.Model) {
	t.Helper()
	if _, ok := m.(noise.Describer); ok {
		t.Run("info", func(t *testing.T) { checkInfo(t, m, Data(t, 1, 15, 6, 2)) })
	}
	for _, k := range Classes {
		if noise.CheckClasses(m, k) != nil {
			continue // a number of classes the model declares it does not support
		}
		d := Data(t, uint64(k), 15, 6, k)
		t.Run(fmt.Sprintf("K=%d/init", k), func(t *testing.T) { checkInit(t, m, d) })
		t.Run(fmt.Sprintf("K=%d/conditional", k), func(t *testing.T) { checkConditional(t, m, d) })
		t.Run(fmt.Sprintf("K=%d/workers", k), func(t *testing.T) { checkWorkerValues(t, m, d) })
		t.Run(fmt.Sprintf("K=%d/gradient", k), func(t *testing.T) { checkGradient(t, m, d) })
		if _, ok := m.NewEvaluator(d).(noise.ProbEvaluator); ok {
			t.Run(fmt.Sprintf("K=%d/prob", k), func(t *testing.T) { checkProb(t, m, d) })
		}
		if _, ok := m.NewEvaluator(d).(noise.MStepper); ok {
			t.Run(fmt.Sprintf("K=%d/mstep", k), func(t *testing.T) { checkMStep(t, m, d) })
		}
		ev := m.NewEvaluator(d)
		if _, ok := ev.(noise.WorkerOnly); ok {
			t.Run(fmt.Sprintf("K=%d/worker-only", k), func(t *testing.T) { checkWorkerOnly(t, m, d) })
		}
		if _, ok := ev.(noise.SharedBackpropper); ok {
			t.Run(fmt.Sprintf("K=%d/shared-weights", k), func(t *testing.T) { checkShared(t, m, d) })
		}
		if _, ok := ev.(noise.Tabled); ok {
			t.Run(fmt.Sprintf("K=%d/table", k), func(t *testing.T) { checkTabled(t, m, d) })
		}
		if _, ok := ev.(noise.Threaded); ok {
			t.Run(fmt.Sprintf("K=%d/threads", k), func(t *testing.T) { checkThreaded(t, m, k) })
		}
		if _, ok := m.(noise.TaskReporter); ok {
			t.Run(fmt.Sprintf("K=%d/task-values", k), func(t *testing.T) { checkTaskReporter(t, m, d) })
		}
		if _, ok := m.(noise.WorkerSetter); ok {
			t.Run(fmt.Sprintf("K=%d/set-worker", k), func(t *testing.T) { checkWorkerSetter(t, m, d) })
		}
		if c, ok := m.(noise.Conjugate); ok {
			t.Run(fmt.Sprintf("K=%d/variational", k), func(t *testing.T) { CheckVariational(t, c, d) })
		}
		if mv, ok := m.(noise.MAPVariational); ok {
			t.Run(fmt.Sprintf("K=%d/map", k), func(t *testing.T) { checkMAP(t, mv, d) })
		}
		if _, ok := m.(noise.WorkerPosteriorSetter); ok {
			t.Run(fmt.Sprintf("K=%d/set-worker-posterior", k), func(t *testing.T) { checkWorkerPosterior(t, m, d) })
		}
		if v, _ := posterior(m, d, 1); v != nil {
			if _, ok := v.(noise.Holder); ok {
				t.Run(fmt.Sprintf("K=%d/hold", k), func(t *testing.T) { checkHold(t, m, d) })
			}
		}
	}
}

// checkInit checks that the paper's initialisation gives finite
// parameters, even for classes a worker never uses.
func checkInit(t *testing.T, m noise.Model, d *data.Dataset) {
	k := d.NumClasses()
	w := make([]float64, d.NumWorkers()*m.WorkerDim(k))
	o := make([]float64, d.NumTasks()*m.TaskDim(k))
	m.Init(d, d.FrequencyWeights(), w, o)
	for i, v := range append(w, o...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("initial parameter %d is %v", i, v)
		}
	}
}

// checkConditional checks that Conditional is a distribution for every
// worker, object and z, and that LogProb is the logarithm of its entry at
// the observed label.
func checkConditional(t *testing.T, m noise.Model, d *data.Dataset) {
	k := d.NumClasses()
	ev := m.NewEvaluator(d)
	ev.SetParams(Params(m, d, rand.New(rand.NewPCG(2, uint64(k)))))
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
					if !(v >= 0 && v <= 1) {
						t.Fatalf("object %d, worker %d: P(·|z=%d) = %v has an entry outside [0, 1]", j, wk, z, p)
					}
					sum += v
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Fatalf("object %d, worker %d: P(·|z=%d) sums to %v", j, wk, z, sum)
				}
				if got, want := l[i*k+z], math.Log(p[labels[i]]); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
					t.Fatalf("object %d, label %d, z=%d: LogProb %v, log Conditional %v", j, i, z, got, want)
				}
			}
		}
	}
}

// checkWorkerValues checks that every worker has one finite value per
// column.
func checkWorkerValues(t *testing.T, m noise.Model, d *data.Dataset) {
	ev := m.NewEvaluator(d)
	ev.SetParams(Params(m, d, rand.New(rand.NewPCG(3, uint64(d.NumClasses())))))
	cols := ev.WorkerColumns()
	for w := range d.Workers {
		vals := ev.WorkerValues(w, nil)
		if len(vals) != len(cols) {
			t.Fatalf("worker %d: %d values for %d columns %v", w, len(vals), len(cols), cols)
		}
		for i, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("worker %d: %s = %v", w, cols[i], v)
			}
		}
	}
}

// weighted returns Σ_i Σ_z g_i(z) l_i(z) over every label of d at the
// evaluator's parameters w, o, minus the penalty of a noise.Penalizer.
func weighted(ev noise.Evaluator, d *data.Dataset, g, w, o []float64) float64 {
	ev.SetParams(w, o)
	k := d.NumClasses()
	l := make([]float64, d.NumLabels()*k)
	var s float64
	for j := range d.Tasks {
		lo, hi := d.Offsets[j]*k, d.Offsets[j+1]*k
		ev.LogProb(j, l[lo:hi])
		for i := lo; i < hi; i++ {
			if g[i] != 0 {
				s += g[i] * l[i]
			}
		}
	}
	if p, ok := ev.(noise.Penalizer); ok {
		s -= p.Penalty(w, o, make([]float64, len(w)), make([]float64, len(o)))
	}
	return s
}

// backprop returns the gradient of weighted at w, o: Backprop for every
// object, then FinishGrad, then a noise.Penalizer's penalty.
func backprop(ev noise.Evaluator, d *data.Dataset, g, w, o []float64) (gw, gobj []float64) {
	ev.SetParams(w, o)
	k := d.NumClasses()
	gw, gobj = make([]float64, len(w)), make([]float64, len(o))
	for j := range d.Tasks {
		ev.Backprop(j, g[d.Offsets[j]*k:d.Offsets[j+1]*k], gw, gobj)
	}
	ev.FinishGrad(gw, gobj)
	if p, ok := ev.(noise.Penalizer); ok {
		p.Penalty(w, o, gw, gobj)
	}
	return gw, gobj
}

// checkGradient compares Backprop with central finite differences of
// Σ_i Σ_z g_i(z) l_i(z) at random parameters N(0, 1) and random weights.
func checkGradient(t *testing.T, m noise.Model, d *data.Dataset) {
	k := d.NumClasses()
	rng := rand.New(rand.NewPCG(4, uint64(k)))
	nw := d.NumWorkers() * m.WorkerDim(k)
	x := make([]float64, nw+d.NumTasks()*m.TaskDim(k))
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	g := Weights(d, rng)
	ev := m.NewEvaluator(d)
	gw, gobj := backprop(ev, d, g, x[:nw:nw], x[nw:])
	f := func(y []float64) float64 { return weighted(ev, d, g, y[:nw:nw], y[nw:]) }
	want := fd.Gradient(nil, f, x, &fd.Settings{Formula: fd.Central, Step: 1e-5})
	got := append(gw, gobj...)
	bad := 0
	for i := range want {
		if diff := math.Abs(got[i] - want[i]); !(diff <= 1e-6*(1+math.Abs(want[i]))) {
			if bad < 5 {
				t.Errorf("∂/∂θ[%d] = %.9g, finite difference %.9g", i, got[i], want[i])
			}
			bad++
		}
	}
}

// fixture returns an evaluator of m on d, random parameters and random
// weights, drawn with a generator seeded with seed and K.
func fixture(m noise.Model, d *data.Dataset, seed uint64) (ev noise.Evaluator, w, o, g []float64) {
	rng := rand.New(rand.NewPCG(seed, uint64(d.NumClasses())))
	w, o = Params(m, d, rng)
	return m.NewEvaluator(d), w, o, Weights(d, rng)
}

// checkProb compares the probability path of a noise.ProbEvaluator with
// its log path: Prob against exp(LogProb), BackpropProb against Backprop,
// on the whole data set and on a range of objects.
func checkProb(t *testing.T, m noise.Model, d *data.Dataset) {
	k := d.NumClasses()
	ev, w, o, g := fixture(m, d, 5)
	pe := ev.(noise.ProbEvaluator)
	ev.SetParams(w, o)
	for _, r := range [][2]int{{0, d.NumTasks()}, {3, 7}} {
		lo, hi := r[0], r[1]
		base := d.Offsets[lo] * k
		p := make([]float64, (d.Offsets[hi]-d.Offsets[lo])*k)
		pe.Prob(lo, hi, p)
		l := make([]float64, len(p))
		for j := lo; j < hi; j++ {
			ev.LogProb(j, l[d.Offsets[j]*k-base:d.Offsets[j+1]*k-base])
		}
		for i := range p {
			if want := math.Exp(l[i]); math.Abs(p[i]-want) > 1e-12*want {
				t.Fatalf("objects [%d, %d), entry %d: Prob %.17g, exp(LogProb) %.17g", lo, hi, i, p[i], want)
			}
		}
		gr := g[base : d.Offsets[hi]*k]
		fw, fo := make([]float64, len(w)), make([]float64, len(o))
		pe.BackpropProb(lo, hi, p, gr, fw, fo)
		lw, lo2 := make([]float64, len(w)), make([]float64, len(o))
		for j := lo; j < hi; j++ {
			ev.Backprop(j, gr[d.Offsets[j]*k-base:d.Offsets[j+1]*k-base], lw, lo2)
		}
		want := append(lw, lo2...)
		for i, v := range append(fw, fo...) {
			if math.Abs(v-want[i]) > 1e-10*(1+math.Abs(want[i])) {
				t.Fatalf("objects [%d, %d), parameter %d: BackpropProb %.17g, Backprop %.17g", lo, hi, i, v, want[i])
			}
		}
	}
}

// checkMStep checks that the M-step of a noise.MStepper, given the
// accumulations of random weights, does not decrease Σ_i Σ_z g_i(z) l_i(z)
// from the current parameters and reaches at least its value at other
// random parameters.
func checkMStep(t *testing.T, m noise.Model, d *data.Dataset) {
	k := d.NumClasses()
	ev, w, o, g := fixture(m, d, 6)
	rng := rand.New(rand.NewPCG(7, uint64(k)))
	before := weighted(ev, d, g, w, o)
	ev.SetParams(w, o)
	gw, gobj := make([]float64, len(w)), make([]float64, len(o))
	for j := range d.Tasks {
		ev.Backprop(j, g[d.Offsets[j]*k:d.Offsets[j+1]*k], gw, gobj)
	}
	nw, no := make([]float64, len(w)), make([]float64, len(o))
	ev.(noise.MStepper).MStep(gw, gobj, nw, no)
	after := weighted(ev, d, g, nw, no)
	if !(after >= before-1e-9*math.Abs(before)) {
		t.Errorf("the M-step lowered Σ g·l from %.12g to %.12g", before, after)
	}
	for range 3 {
		rw, ro := Params(m, d, rng)
		if other := weighted(ev, d, g, rw, ro); other > after+1e-9*math.Abs(after) {
			t.Errorf("Σ g·l is %.12g after the M-step, %.12g at random parameters", after, other)
		}
	}
}
