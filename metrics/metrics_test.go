package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
)

func gold(tasks []int32, labels []uint16) *data.Gold {
	return &data.Gold{Task: tasks, Label: labels}
}

// must returns v; it panics, failing the test, if err is not nil.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// interval returns the bounds of Bootstrap; it panics, failing the test,
// if err is not nil.
func interval(lo, hi float64, err error) (float64, float64) {
	if err != nil {
		panic(err)
	}
	return lo, hi
}

func near(a, b, tol float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol
}

func TestAccuracy(t *testing.T) {
	for _, tc := range []struct {
		name string
		pred []float64
		k    int
		gold *data.Gold
		want float64
	}{
		{"two tasks one right", []float64{0.8, 0.2, 0.4, 0.6}, 2, gold([]int32{0, 1}, []uint16{0, 0}), 0.5},
		{"all right", []float64{0.8, 0.2, 0.4, 0.6}, 2, gold([]int32{0, 1}, []uint16{0, 1}), 1},
		{"subset of tasks", []float64{0.1, 0.2, 0.7, 1, 0, 0, 0.3, 0.3, 0.4}, 3, gold([]int32{2, 0}, []uint16{2, 1}), 0.5},
		{"repeated task", []float64{0.1, 0.9}, 2, gold([]int32{0, 0, 0}, []uint16{1, 1, 0}), 2.0 / 3},
		{"one class", []float64{1, 1}, 1, gold([]int32{1}, []uint16{0}), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range uint64(5) {
				if got := must(Accuracy(tc.pred, tc.k, tc.gold, seed)); got != tc.want {
					t.Errorf("seed %d: Accuracy = %v, want %v", seed, got, tc.want)
				}
			}
			if got := must(ExpectedAccuracy(tc.pred, tc.k, tc.gold)); !near(got, tc.want, 1e-15) {
				t.Errorf("ExpectedAccuracy = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAccuracyTies(t *testing.T) {
	// Task 0 ties classes 0 and 2 exactly; class 1 is below.
	pred := []float64{0.4, 0.2, 0.4}
	g := gold([]int32{0}, []uint16{2})
	const seeds = 4000
	hits := 0
	for seed := range uint64(seeds) {
		a := must(Accuracy(pred, 3, g, seed))
		if a != must(Accuracy(pred, 3, g, seed)) {
			t.Fatalf("seed %d: not deterministic", seed)
		}
		switch a {
		case 1:
			hits++
		case 0:
		default:
			t.Fatalf("seed %d: accuracy %v of one task", seed, a)
		}
	}
	// Binomial(4000, 1/2) has standard deviation 31.6; allow 5 of them.
	if math.Abs(float64(hits)-seeds/2) > 160 {
		t.Errorf("tie won %d of %d times, want about half", hits, seeds)
	}
	if got := must(ExpectedAccuracy(pred, 3, g)); got != 0.5 {
		t.Errorf("ExpectedAccuracy = %v, want 0.5", got)
	}
	// Nearly equal is not a tie.
	if got := must(Accuracy([]float64{0.5, math.Nextafter(0.5, 0)}, 2, gold([]int32{0}, []uint16{0}), 1)); got != 1 {
		t.Errorf("near tie: Accuracy = %v, want 1", got)
	}
}

func TestMeanAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const j, k = 200, 3
	pred := make([]float64, j*k)
	g := &data.Gold{}
	for i := range j {
		// Counts of 4 labels over 3 classes make frequent ties, as in RFE.
		for range 4 {
			pred[i*k+rng.IntN(k)] += 0.25
		}
		g.Task = append(g.Task, int32(i))
		g.Label = append(g.Label, uint16(rng.IntN(k)))
	}
	for seed := range uint64(3) {
		if got, want := must(MeanAccuracy(pred, k, g, seed, 1)), must(Accuracy(pred, k, g, seed)); got != want {
			t.Errorf("MeanAccuracy(draws=1) = %v, want Accuracy = %v", got, want)
		}
	}
	want := (must(Accuracy(pred, k, g, 7)) + must(Accuracy(pred, k, g, 8)) + must(Accuracy(pred, k, g, 9))) / 3
	if got := must(MeanAccuracy(pred, k, g, 7, 3)); !near(got, want, 1e-15) {
		t.Errorf("MeanAccuracy(draws=3) = %v, want %v", got, want)
	}
	if got, want := must(MeanAccuracy(pred, k, g, 0, 400)), must(ExpectedAccuracy(pred, k, g)); !near(got, want, 0.01) {
		t.Errorf("MeanAccuracy over 400 draws = %v, want about ExpectedAccuracy = %v", got, want)
	}
}

func TestLogLoss(t *testing.T) {
	for _, tc := range []struct {
		name string
		pred []float64
		k    int
		gold *data.Gold
		want float64
	}{
		{"worked example", []float64{0.8, 0.2, 0.4, 0.6}, 2, gold([]int32{0, 1}, []uint16{0, 0}), -(math.Log2(0.8) + math.Log2(0.4)) / 2},
		{"uniform k=2", []float64{0.5, 0.5, 0.5, 0.5}, 2, gold([]int32{0, 1}, []uint16{0, 1}), 1},
		{"uniform k=3", []float64{1. / 3, 1. / 3, 1. / 3}, 3, gold([]int32{0}, []uint16{1}), 1},
		{"uniform k=5", []float64{0.2, 0.2, 0.2, 0.2, 0.2}, 5, gold([]int32{0, 0}, []uint16{4, 0}), 1},
		{"certain and right", []float64{0, 1, 0}, 3, gold([]int32{0}, []uint16{1}), 0},
		{"base k", []float64{1. / 9, 8. / 9, 0, 0, 0, 1}, 3, gold([]int32{0, 1}, []uint16{0, 2}), 1},
		{"zero probability", []float64{0.5, 0.5, 1, 0}, 2, gold([]int32{0, 1}, []uint16{0, 1}), math.Inf(1)},
		{"all zero", []float64{1, 0, 1, 0}, 2, gold([]int32{0, 1}, []uint16{1, 1}), math.Inf(1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := must(LogLoss(tc.pred, tc.k, tc.gold))
			if math.IsNaN(got) || !near(got, tc.want, 1e-15) {
				t.Errorf("LogLoss = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAddOne(t *testing.T) {
	counts := []float64{3, 0, 0, 0, 2, 2}
	want := []float64{4. / 5, 1. / 5, 1. / 2, 1. / 2, 3. / 6, 3. / 6}
	got := AddOne(counts, 2)
	for i := range want {
		if !near(got[i], want[i], 1e-15) {
			t.Errorf("AddOne[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if counts[1] != 0 {
		t.Error("AddOne modified its argument")
	}
	// RFE of task 0 gives class 1 probability 0: infinite loss, finite
	// after smoothing: -(log2(1/5))/1.
	g := gold([]int32{0}, []uint16{1})
	if ll := must(LogLoss([]float64{1, 0}, 2, g)); !math.IsInf(ll, 1) {
		t.Errorf("unsmoothed LogLoss = %v, want +Inf", ll)
	}
	if ll := must(LogLoss(got, 2, g)); !near(ll, math.Log2(5), 1e-15) {
		t.Errorf("smoothed LogLoss = %v, want log2(5)", ll)
	}
}

func TestBrier(t *testing.T) {
	for _, tc := range []struct {
		name string
		pred []float64
		k    int
		gold *data.Gold
		want float64
	}{
		{"worked example", []float64{0.8, 0.2, 0.4, 0.6}, 2, gold([]int32{0, 1}, []uint16{0, 0}), 0.4},
		{"perfect", []float64{0, 1, 0, 1, 0, 0}, 3, gold([]int32{0, 1}, []uint16{1, 0}), 0},
		{"worst", []float64{0, 1, 0}, 3, gold([]int32{0}, []uint16{0}), 2},
		{"uniform k=4", []float64{0.25, 0.25, 0.25, 0.25}, 4, gold([]int32{0}, []uint16{3}), 0.75},
		{"three classes", []float64{0.5, 0.3, 0.2}, 3, gold([]int32{0}, []uint16{1}), 0.25 + 0.49 + 0.04},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := must(Brier(tc.pred, tc.k, tc.gold)); !near(got, tc.want, 1e-15) {
				t.Errorf("Brier = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMSE(t *testing.T) {
	// For k = 2, MSE is the paper's (1/N) Σ (q̂_j - q_j)² on class 1.
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 50
	var pred, truth []float64
	var paper float64
	for range n {
		p, q := rng.Float64(), rng.Float64()
		pred = append(pred, 1-p, p)
		truth = append(truth, 1-q, q)
		paper += (p - q) * (p - q)
	}
	paper /= n
	if got := must(MSE(pred, truth, 2)); !near(got, paper, 1e-14) {
		t.Errorf("MSE = %v, want paper's %v", got, paper)
	}
	// Hand case, k = 3: ((0.1² + 0.1² + 0) + (0.5² + 0.5² + 0))/2/2.
	got := must(MSE([]float64{0.5, 0.3, 0.2, 1, 0, 0}, []float64{0.4, 0.4, 0.2, 0.5, 0.5, 0}, 3))
	if want := (0.02 + 0.5) / 4; !near(got, want, 1e-15) {
		t.Errorf("MSE k=3 = %v, want %v", got, want)
	}
	if got := must(MSE([]float64{1, 0}, []float64{0, 1}, 2)); got != 1 {
		t.Errorf("MSE of opposite certain rows = %v, want 1", got)
	}
}

func TestECE(t *testing.T) {
	// Four samples, five bins [0,.2) [.2,.4) [.4,.6) [.6,.8) [.8,1]:
	//   (0.6, 0.4) true 0: conf 0.6, right, bin 3
	//   (0.7, 0.3) true 1: conf 0.7, wrong, bin 3
	//   (0.1, 0.9) true 1: conf 0.9, right, bin 4
	//   (0.5, 0.5) true 1: conf 0.5, argmax 0 (lowest), wrong, bin 2
	// ECE = 1/4·|0-0.5| + 2/4·|0.5-0.65| + 1/4·|1-0.9| = 0.125+0.075+0.025.
	pred := []float64{0.6, 0.4, 0.7, 0.3, 0.1, 0.9, 0.5, 0.5}
	g := gold([]int32{0, 1, 2, 3}, []uint16{0, 1, 1, 1})
	if got := must(ECE(pred, 2, g, 5)); !near(got, 0.225, 1e-15) {
		t.Errorf("ECE = %v, want 0.225", got)
	}
	bins := must(ReliabilityFromGold(pred, 2, g, TopClass, 5))
	want := []Bin{
		{Lo: 0.4, Hi: 0.6, N: 1, X: 0.5, Y: 0},
		{Lo: 0.6, Hi: 0.8, N: 2, X: 0.65, Y: 0.5},
		{Lo: 0.8, Hi: 1, N: 1, X: 0.9, Y: 1},
	}
	sameBins(t, bins, want)
	// One bin: |acc - mean conf| = |0.5 - 0.675|.
	if got := must(ECE(pred, 2, g, 1)); !near(got, 0.175, 1e-15) {
		t.Errorf("ECE one bin = %v, want 0.175", got)
	}
	// Worked example of the package documentation.
	if got := must(ECE([]float64{0.8, 0.2, 0.4, 0.6}, 2, gold([]int32{0, 1}, []uint16{0, 0}), 10)); !near(got, 0.4, 1e-15) {
		t.Errorf("worked example ECE = %v, want 0.4", got)
	}
	// Certain and right: 0.
	if got := must(ECE([]float64{0, 1, 1, 0}, 2, gold([]int32{0, 1}, []uint16{1, 0}), 10)); got != 0 {
		t.Errorf("perfect ECE = %v, want 0", got)
	}
}

func sameBins(t *testing.T, got, want []Bin) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d bins %+v, want %d %+v", len(got), got, len(want), want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.N != w.N || !near(g.Lo, w.Lo, 1e-15) || !near(g.Hi, w.Hi, 1e-15) || !near(g.X, w.X, 1e-15) || !near(g.Y, w.Y, 1e-15) {
			t.Errorf("bin %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestReliabilityFromGold(t *testing.T) {
	// Class 1 probabilities 0.1, 0.15, 0.9, 1 with truths 0, 1, 1, 1 in
	// four bins of width 0.25.
	pred := []float64{0.9, 0.1, 0.85, 0.15, 0.1, 0.9, 0, 1}
	g := gold([]int32{0, 1, 2, 3}, []uint16{0, 1, 1, 1})
	sameBins(t, must(ReliabilityFromGold(pred, 2, g, 1, 4)), []Bin{
		{Lo: 0, Hi: 0.25, N: 2, X: 0.125, Y: 0.5},
		{Lo: 0.75, Hi: 1, N: 2, X: 0.95, Y: 1},
	})
	sameBins(t, must(ReliabilityFromGold(pred, 2, g, 0, 4)), []Bin{
		{Lo: 0, Hi: 0.25, N: 2, X: 0.05, Y: 0},
		{Lo: 0.75, Hi: 1, N: 2, X: 0.875, Y: 0.5},
	})
	if b := must(ReliabilityFromGold(pred, 2, &data.Gold{}, 1, 4)); b != nil {
		t.Errorf("empty gold: %v, want nil", b)
	}
}

func TestCalibration(t *testing.T) {
	// True class-1 probabilities 0.05, 0.2, 0.3, 1 in two bins.
	truth := []float64{0.95, 0.05, 0.8, 0.2, 0.7, 0.3, 0, 1}
	pred := []float64{1, 0, 0.6, 0.4, 0.5, 0.5, 0.2, 0.8}
	sameBins(t, must(Calibration(pred, truth, 2, 1, 2)), []Bin{
		{Lo: 0, Hi: 0.5, N: 3, X: 0.55 / 3, Y: 0.9 / 3},
		{Lo: 0.5, Hi: 1, N: 1, X: 1, Y: 0.8},
	})
	sameBins(t, must(Calibration(pred, truth, 2, 0, 2)), []Bin{
		{Lo: 0, Hi: 0.5, N: 1, X: 0, Y: 0.2},
		{Lo: 0.5, Hi: 1, N: 3, X: 2.45 / 3, Y: 2.1 / 3},
	})
}

func TestEvaluate(t *testing.T) {
	pred := []float64{0.8, 0.2, 0.4, 0.6, 0.5, 0.5}
	g := gold([]int32{0, 1, 2}, []uint16{0, 0, 1})
	s := must(Evaluate(pred, 2, g, 3))
	want := Summary{
		Accuracy: must(Accuracy(pred, 2, g, 3)),
		LogLoss:  must(LogLoss(pred, 2, g)),
		Brier:    must(Brier(pred, 2, g)),
		ECE:      must(ECE(pred, 2, g, DefaultBins)),
		N:        3,
	}
	if s != want {
		t.Errorf("Evaluate = %+v, want %+v", s, want)
	}
	e := must(Evaluate(pred, 2, &data.Gold{}, 3))
	if e.N != 0 || !math.IsNaN(e.Accuracy) || !math.IsNaN(e.LogLoss) || !math.IsNaN(e.Brier) || !math.IsNaN(e.ECE) {
		t.Errorf("empty gold: %+v, want NaN scores and N = 0", e)
	}
	if n := must(Evaluate(pred, 2, nil, 3)); n.N != 0 || !math.IsNaN(n.Accuracy) {
		t.Errorf("nil gold: %+v", n)
	}
}

func TestBootstrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const j = 300
	pred := make([]float64, 2*j)
	g := &data.Gold{}
	for i := range j {
		p := rng.Float64()
		pred[2*i], pred[2*i+1] = 1-p, p
		var l uint16
		if rng.Float64() < p {
			l = 1
		}
		g.Task = append(g.Task, int32(i))
		g.Label = append(g.Label, l)
	}
	lo, hi := interval(Bootstrap(pred, 2, g, Brier, 500, 9, 0.95))
	lo2, hi2 := interval(Bootstrap(pred, 2, g, Brier, 500, 9, 0.95))
	if lo != lo2 || hi != hi2 {
		t.Errorf("not deterministic: [%v, %v] then [%v, %v]", lo, hi, lo2, hi2)
	}
	b := must(Brier(pred, 2, g))
	if !(lo < b && b < hi) || hi-lo > 0.1 {
		t.Errorf("interval [%v, %v] for Brier %v", lo, hi, b)
	}
	// A wider level gives a wider interval from the same replicates.
	lo3, hi3 := interval(Bootstrap(pred, 2, g, Brier, 500, 9, 0.99))
	if lo3 > lo || hi3 < hi {
		t.Errorf("99%% interval [%v, %v] inside 95%% [%v, %v]", lo3, hi3, lo, hi)
	}
	// A metric that is the same on every replicate.
	one := func([]float64, int, *data.Gold) (float64, error) { return 1, nil }
	if lo, hi := interval(Bootstrap(pred, 2, g, one, 10, 1, 0.9)); lo != 1 || hi != 1 {
		t.Errorf("constant metric: [%v, %v]", lo, hi)
	}
	// Replicates hold gold tasks only, with their own labels.
	check := func(p []float64, k int, r *data.Gold) (float64, error) {
		if r.Len() != j {
			t.Fatalf("replicate of %d tasks, want %d", r.Len(), j)
		}
		for i, task := range r.Task {
			if r.Label[i] != g.Label[task] {
				t.Fatalf("task %d resampled with label %d, want %d", task, r.Label[i], g.Label[task])
			}
		}
		return 0, nil
	}
	interval(Bootstrap(pred, 2, g, check, 5, 2, 0.9))
	// The first error of the metric is Bootstrap's.
	bad := func([]float64, int, *data.Gold) (float64, error) { return 0, ErrArgument }
	if _, _, err := Bootstrap(pred, 2, g, bad, 5, 2, 0.9); err != ErrArgument {
		t.Errorf("failing metric: error %v, want ErrArgument", err)
	}
	// Infinite log losses are ordered, not NaN.
	pred[1] = 0
	g.Label[0] = 1
	if lo, hi := interval(Bootstrap(pred, 2, g, LogLoss, 200, 4, 0.95)); math.IsNaN(lo) || !math.IsInf(hi, 1) {
		t.Errorf("log loss with one zero: [%v, %v], want finite lo and hi = +Inf", lo, hi)
	}
}

func TestEmptyGold(t *testing.T) {
	pred := []float64{0.5, 0.5}
	for name, v := range map[string]float64{
		"Accuracy":         must(Accuracy(pred, 2, &data.Gold{}, 0)),
		"ExpectedAccuracy": must(ExpectedAccuracy(pred, 2, &data.Gold{})),
		"LogLoss":          must(LogLoss(pred, 2, &data.Gold{})),
		"Brier":            must(Brier(pred, 2, nil)),
		"ECE":              must(ECE(pred, 2, &data.Gold{}, 10)),
		"MSE":              must(MSE(nil, nil, 2)),
	} {
		if !math.IsNaN(v) {
			t.Errorf("%s of nothing = %v, want NaN", name, v)
		}
	}
}

// TestErrors checks that every invalid argument gives an error wrapping
// the sentinel of its kind, with a message that names it, and no panic.
func TestErrors(t *testing.T) {
	pred := []float64{0.5, 0.5, 0.2, 0.8}
	g := gold([]int32{0, 1}, []uint16{0, 1})
	bootstrap := func(pred []float64, g *data.Gold, reps int, level float64) error {
		_, _, err := Bootstrap(pred, 2, g, Brier, reps, 0, level)
		return err
	}
	for _, tc := range []struct {
		name string
		err  error
		kind error
		msg  string
	}{
		{"k zero", second(Accuracy(pred, 0, g, 0)), ErrShape, "metrics: k = 0 classes, need at least 1"},
		{"ragged", second(Brier(pred, 3, g)), ErrShape, "metrics: length 4 is not a multiple of k = 3"},
		{"task out of range", second(Accuracy(pred, 2, gold([]int32{2}, []uint16{0}), 0)), ErrShape, "metrics: gold task 2 out of range [0, 2)"},
		{"negative task", second(Brier(pred, 2, gold([]int32{-1}, []uint16{0}))), ErrShape, "metrics: gold task -1 out of range [0, 2)"},
		{"class out of range", second(LogLoss(pred, 2, gold([]int32{0}, []uint16{2}))), ErrShape, "metrics: gold class 2 of task 0 out of range [0, 2)"},
		{"gold lengths", second(Brier(pred, 2, gold([]int32{0, 1}, []uint16{0}))), ErrShape, "metrics: gold has 2 tasks but 1 labels"},
		{"expected accuracy", second(ExpectedAccuracy(pred, 3, g)), ErrShape, "metrics: length 4 is not a multiple of k = 3"},
		{"NaN", second(Accuracy([]float64{math.NaN(), 1}, 2, gold([]int32{0}, []uint16{0}), 0)), ErrProbability, "metrics: NaN probability for task 0"},
		{"NaN log loss", second(LogLoss([]float64{math.NaN(), 1}, 2, gold([]int32{0}, []uint16{0}))), ErrProbability, "metrics: NaN probability for task 0"},
		{"negative probability", second(LogLoss([]float64{-0.1, 1.1}, 2, gold([]int32{0}, []uint16{0}))), ErrProbability, "metrics: negative probability -0.1 for task 0"},
		{"log loss k=1", second(LogLoss([]float64{1}, 1, gold([]int32{0}, []uint16{0}))), ErrShape, "metrics: log loss needs k ≥ 2 classes, have 1"},
		{"evaluate k=1", second(Evaluate([]float64{1}, 1, gold([]int32{0}, []uint16{0}), 0)), ErrShape, "metrics: log loss needs k ≥ 2 classes, have 1"},
		{"draws", second(MeanAccuracy(pred, 2, g, 0, 0)), ErrArgument, "metrics: draws = 0, need at least 1"},
		{"mean accuracy shape", second(MeanAccuracy(pred, 3, g, 0, 2)), ErrShape, "metrics: length 4 is not a multiple of k = 3"},
		{"bins", second(ECE(pred, 2, g, 0)), ErrArgument, "metrics: bins = 0, need at least 1"},
		{"reliability class", second(ReliabilityFromGold(pred, 2, g, 2, 5)), ErrArgument, "metrics: class 2 is neither TopClass nor in [0, 2)"},
		{"reliability bins", second(ReliabilityFromGold(pred, 2, g, 1, -1)), ErrArgument, "metrics: bins = -1, need at least 1"},
		{"calibration class", second(Calibration(pred, pred, 2, -1, 5)), ErrArgument, "metrics: class -1 out of range [0, 2)"},
		{"calibration bins", second(Calibration(pred, pred, 2, 1, 0)), ErrArgument, "metrics: bins = 0, need at least 1"},
		{"calibration lengths", second(Calibration(pred, pred[:2], 2, 1, 5)), ErrShape, "metrics: length mismatch: pred 4, truth 2"},
		{"MSE lengths", second(MSE(pred, pred[:2], 2)), ErrShape, "metrics: length mismatch: pred 4, truth 2"},
		{"MSE NaN", second(MSE([]float64{0, 1, math.NaN(), 1}, []float64{0, 1, 0, 1}, 2)), ErrProbability, "metrics: NaN probability for task 1"},
		{"bootstrap reps", bootstrap(pred, g, 0, 0.9), ErrArgument, "metrics: reps = 0, need at least 1"},
		{"bootstrap level", bootstrap(pred, g, 10, 1), ErrArgument, "metrics: level = 1, need 0 < level < 1"},
		{"bootstrap empty", bootstrap(pred, &data.Gold{}, 10, 0.9), ErrArgument, "metrics: bootstrap of an empty gold set"},
		{"bootstrap shape", bootstrap(pred[:3], g, 10, 0.9), ErrShape, "metrics: length 3 is not a multiple of k = 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.kind) {
				t.Errorf("error %v, want one wrapping %v", tc.err, tc.kind)
			}
			if tc.err != nil && tc.err.Error() != tc.msg {
				t.Errorf("message %q, want %q", tc.err, tc.msg)
			}
		})
	}
}

// second returns the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }

// TestAddOnePanics checks the documented precondition of AddOne.
func TestAddOnePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("AddOne of 4 counts with k = 3 did not panic")
		}
	}()
	AddOne([]float64{1, 2, 3, 4}, 3)
}
