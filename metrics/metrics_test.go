package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
)

func gold(tasks []int32, labels []uint16) *data.Gold {
	return &data.Gold{Task: tasks, Label: labels}
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
				if got := Accuracy(tc.pred, tc.k, tc.gold, seed); got != tc.want {
					t.Errorf("seed %d: Accuracy = %v, want %v", seed, got, tc.want)
				}
			}
			if got := ExpectedAccuracy(tc.pred, tc.k, tc.gold); !near(got, tc.want, 1e-15) {
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
		a := Accuracy(pred, 3, g, seed)
		if a != Accuracy(pred, 3, g, seed) {
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
	if got := ExpectedAccuracy(pred, 3, g); got != 0.5 {
		t.Errorf("ExpectedAccuracy = %v, want 0.5", got)
	}
	// Nearly equal is not a tie.
	if got := Accuracy([]float64{0.5, math.Nextafter(0.5, 0)}, 2, gold([]int32{0}, []uint16{0}), 1); got != 1 {
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
		if got, want := MeanAccuracy(pred, k, g, seed, 1), Accuracy(pred, k, g, seed); got != want {
			t.Errorf("MeanAccuracy(draws=1) = %v, want Accuracy = %v", got, want)
		}
	}
	want := (Accuracy(pred, k, g, 7) + Accuracy(pred, k, g, 8) + Accuracy(pred, k, g, 9)) / 3
	if got := MeanAccuracy(pred, k, g, 7, 3); !near(got, want, 1e-15) {
		t.Errorf("MeanAccuracy(draws=3) = %v, want %v", got, want)
	}
	if got, want := MeanAccuracy(pred, k, g, 0, 400), ExpectedAccuracy(pred, k, g); !near(got, want, 0.01) {
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
			got := LogLoss(tc.pred, tc.k, tc.gold)
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
	if ll := LogLoss([]float64{1, 0}, 2, g); !math.IsInf(ll, 1) {
		t.Errorf("unsmoothed LogLoss = %v, want +Inf", ll)
	}
	if ll := LogLoss(got, 2, g); !near(ll, math.Log2(5), 1e-15) {
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
			if got := Brier(tc.pred, tc.k, tc.gold); !near(got, tc.want, 1e-15) {
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
	if got := MSE(pred, truth, 2); !near(got, paper, 1e-14) {
		t.Errorf("MSE = %v, want paper's %v", got, paper)
	}
	// Hand case, k = 3: ((0.1² + 0.1² + 0) + (0.5² + 0.5² + 0))/2/2.
	got := MSE([]float64{0.5, 0.3, 0.2, 1, 0, 0}, []float64{0.4, 0.4, 0.2, 0.5, 0.5, 0}, 3)
	if want := (0.02 + 0.5) / 4; !near(got, want, 1e-15) {
		t.Errorf("MSE k=3 = %v, want %v", got, want)
	}
	if got := MSE([]float64{1, 0}, []float64{0, 1}, 2); got != 1 {
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
	if got := ECE(pred, 2, g, 5); !near(got, 0.225, 1e-15) {
		t.Errorf("ECE = %v, want 0.225", got)
	}
	bins := ReliabilityFromGold(pred, 2, g, TopClass, 5)
	want := []Bin{
		{Lo: 0.4, Hi: 0.6, N: 1, X: 0.5, Y: 0},
		{Lo: 0.6, Hi: 0.8, N: 2, X: 0.65, Y: 0.5},
		{Lo: 0.8, Hi: 1, N: 1, X: 0.9, Y: 1},
	}
	sameBins(t, bins, want)
	// One bin: |acc - mean conf| = |0.5 - 0.675|.
	if got := ECE(pred, 2, g, 1); !near(got, 0.175, 1e-15) {
		t.Errorf("ECE one bin = %v, want 0.175", got)
	}
	// Worked example of the package documentation.
	if got := ECE([]float64{0.8, 0.2, 0.4, 0.6}, 2, gold([]int32{0, 1}, []uint16{0, 0}), 10); !near(got, 0.4, 1e-15) {
		t.Errorf("worked example ECE = %v, want 0.4", got)
	}
	// Certain and right: 0.
	if got := ECE([]float64{0, 1, 1, 0}, 2, gold([]int32{0, 1}, []uint16{1, 0}), 10); got != 0 {
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
	sameBins(t, ReliabilityFromGold(pred, 2, g, 1, 4), []Bin{
		{Lo: 0, Hi: 0.25, N: 2, X: 0.125, Y: 0.5},
		{Lo: 0.75, Hi: 1, N: 2, X: 0.95, Y: 1},
	})
	sameBins(t, ReliabilityFromGold(pred, 2, g, 0, 4), []Bin{
		{Lo: 0, Hi: 0.25, N: 2, X: 0.05, Y: 0},
		{Lo: 0.75, Hi: 1, N: 2, X: 0.875, Y: 0.5},
	})
	if b := ReliabilityFromGold(pred, 2, &data.Gold{}, 1, 4); b != nil {
		t.Errorf("empty gold: %v, want nil", b)
	}
}

func TestCalibration(t *testing.T) {
	// True class-1 probabilities 0.05, 0.2, 0.3, 1 in two bins.
	truth := []float64{0.95, 0.05, 0.8, 0.2, 0.7, 0.3, 0, 1}
	pred := []float64{1, 0, 0.6, 0.4, 0.5, 0.5, 0.2, 0.8}
	sameBins(t, Calibration(pred, truth, 2, 1, 2), []Bin{
		{Lo: 0, Hi: 0.5, N: 3, X: 0.55 / 3, Y: 0.9 / 3},
		{Lo: 0.5, Hi: 1, N: 1, X: 1, Y: 0.8},
	})
	sameBins(t, Calibration(pred, truth, 2, 0, 2), []Bin{
		{Lo: 0, Hi: 0.5, N: 1, X: 0, Y: 0.2},
		{Lo: 0.5, Hi: 1, N: 3, X: 2.45 / 3, Y: 2.1 / 3},
	})
}

func TestEvaluate(t *testing.T) {
	pred := []float64{0.8, 0.2, 0.4, 0.6, 0.5, 0.5}
	g := gold([]int32{0, 1, 2}, []uint16{0, 0, 1})
	s := Evaluate(pred, 2, g, 3)
	want := Summary{
		Accuracy: Accuracy(pred, 2, g, 3),
		LogLoss:  LogLoss(pred, 2, g),
		Brier:    Brier(pred, 2, g),
		ECE:      ECE(pred, 2, g, DefaultBins),
		N:        3,
	}
	if s != want {
		t.Errorf("Evaluate = %+v, want %+v", s, want)
	}
	e := Evaluate(pred, 2, &data.Gold{}, 3)
	if e.N != 0 || !math.IsNaN(e.Accuracy) || !math.IsNaN(e.LogLoss) || !math.IsNaN(e.Brier) || !math.IsNaN(e.ECE) {
		t.Errorf("empty gold: %+v, want NaN scores and N = 0", e)
	}
	if n := Evaluate(pred, 2, nil, 3); n.N != 0 || !math.IsNaN(n.Accuracy) {
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
	lo, hi := Bootstrap(pred, 2, g, Brier, 500, 9, 0.95)
	lo2, hi2 := Bootstrap(pred, 2, g, Brier, 500, 9, 0.95)
	if lo != lo2 || hi != hi2 {
		t.Errorf("not deterministic: [%v, %v] then [%v, %v]", lo, hi, lo2, hi2)
	}
	b := Brier(pred, 2, g)
	if !(lo < b && b < hi) || hi-lo > 0.1 {
		t.Errorf("interval [%v, %v] for Brier %v", lo, hi, b)
	}
	// A wider level gives a wider interval from the same replicates.
	lo3, hi3 := Bootstrap(pred, 2, g, Brier, 500, 9, 0.99)
	if lo3 > lo || hi3 < hi {
		t.Errorf("99%% interval [%v, %v] inside 95%% [%v, %v]", lo3, hi3, lo, hi)
	}
	// A metric that is the same on every replicate.
	one := func([]float64, int, *data.Gold) float64 { return 1 }
	if lo, hi := Bootstrap(pred, 2, g, one, 10, 1, 0.9); lo != 1 || hi != 1 {
		t.Errorf("constant metric: [%v, %v]", lo, hi)
	}
	// Replicates hold gold tasks only, with their own labels.
	check := func(p []float64, k int, r *data.Gold) float64 {
		if r.Len() != j {
			t.Fatalf("replicate of %d tasks, want %d", r.Len(), j)
		}
		for i, task := range r.Task {
			if r.Label[i] != g.Label[task] {
				t.Fatalf("task %d resampled with label %d, want %d", task, r.Label[i], g.Label[task])
			}
		}
		return 0
	}
	Bootstrap(pred, 2, g, check, 5, 2, 0.9)
	// Infinite log losses are ordered, not NaN.
	pred[1] = 0
	g.Label[0] = 1
	if lo, hi := Bootstrap(pred, 2, g, LogLoss, 200, 4, 0.95); math.IsNaN(lo) || !math.IsInf(hi, 1) {
		t.Errorf("log loss with one zero: [%v, %v], want finite lo and hi = +Inf", lo, hi)
	}
}

func TestEmptyGold(t *testing.T) {
	pred := []float64{0.5, 0.5}
	for name, v := range map[string]float64{
		"Accuracy":         Accuracy(pred, 2, &data.Gold{}, 0),
		"ExpectedAccuracy": ExpectedAccuracy(pred, 2, &data.Gold{}),
		"LogLoss":          LogLoss(pred, 2, &data.Gold{}),
		"Brier":            Brier(pred, 2, nil),
		"ECE":              ECE(pred, 2, &data.Gold{}, 10),
		"MSE":              MSE(nil, nil, 2),
	} {
		if !math.IsNaN(v) {
			t.Errorf("%s of nothing = %v, want NaN", name, v)
		}
	}
}

func TestPanics(t *testing.T) {
	pred := []float64{0.5, 0.5, 0.2, 0.8}
	g := gold([]int32{0, 1}, []uint16{0, 1})
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"k zero", func() { Accuracy(pred, 0, g, 0) }},
		{"ragged", func() { Brier(pred, 3, g) }},
		{"task out of range", func() { Accuracy(pred, 2, gold([]int32{2}, []uint16{0}), 0) }},
		{"negative task", func() { Brier(pred, 2, gold([]int32{-1}, []uint16{0})) }},
		{"class out of range", func() { LogLoss(pred, 2, gold([]int32{0}, []uint16{2})) }},
		{"gold lengths", func() { Brier(pred, 2, gold([]int32{0, 1}, []uint16{0})) }},
		{"NaN", func() { Accuracy([]float64{math.NaN(), 1}, 2, gold([]int32{0}, []uint16{0}), 0) }},
		{"NaN log loss", func() { LogLoss([]float64{math.NaN(), 1}, 2, gold([]int32{0}, []uint16{0})) }},
		{"negative probability", func() { LogLoss([]float64{-0.1, 1.1}, 2, gold([]int32{0}, []uint16{0})) }},
		{"log loss k=1", func() { LogLoss([]float64{1}, 1, gold([]int32{0}, []uint16{0})) }},
		{"draws", func() { MeanAccuracy(pred, 2, g, 0, 0) }},
		{"bins", func() { ECE(pred, 2, g, 0) }},
		{"reliability class", func() { ReliabilityFromGold(pred, 2, g, 2, 5) }},
		{"calibration class", func() { Calibration(pred, pred, 2, -1, 5) }},
		{"MSE lengths", func() { MSE(pred, pred[:2], 2) }},
		{"MSE NaN", func() { MSE([]float64{math.NaN(), 1}, []float64{0, 1}, 2) }},
		{"bootstrap reps", func() { Bootstrap(pred, 2, g, Brier, 0, 0, 0.9) }},
		{"bootstrap level", func() { Bootstrap(pred, 2, g, Brier, 10, 0, 1) }},
		{"bootstrap empty", func() { Bootstrap(pred, 2, &data.Gold{}, Brier, 10, 0, 0.9) }},
		{"AddOne k", func() { AddOne(pred, 3) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tc.f()
		})
	}
}
