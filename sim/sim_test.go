package sim

import (
	"math"
	"reflect"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// mustSimulate simulates c or fails the test.
func mustSimulate(t *testing.T, c Settings) (*data.Dataset, *Truth) {
	t.Helper()
	d, tr, err := Simulate(c)
	if err != nil {
		t.Fatal(err)
	}
	return d, tr
}

// TestZeroParamsDrawAsTheNoiseModels checks that the zero values of
// DSParams and OneCoinParams draw the same data set as the noise models'
// own samplers, and a uniform class prior the same as none.
func TestZeroParamsDrawAsTheNoiseModels(t *testing.T) {
	for _, tc := range []struct {
		name      string
		base, alt Settings
	}{
		{"ds", Settings{Noise: noise.DS{}, Latent: latent.LA{}, Classes: 3, Tasks: 300, Workers: 9, LabelsPerTask: 4, Seed: 3},
			Settings{Params: DSParams{}, Latent: latent.LA{}, Classes: 3, Tasks: 300, Workers: 9, LabelsPerTask: 4, Seed: 3}},
		{"ds-one-range", Settings{Noise: noise.DS{}, Tasks: 300, Workers: 9, Seed: 4},
			Settings{Noise: noise.DS{}, Params: DSParams{Diag: []Range{{0.55, 0.95}}}, Tasks: 300, Workers: 9, Seed: 4}},
		{"onecoin", Settings{Noise: noise.OneCoin{}, Latent: latent.LA{}, Tasks: 300, Workers: 9, LabelsPerTask: 2, Seed: 5},
			Settings{Noise: noise.OneCoin{}, Params: OneCoinParams{}, Latent: latent.LA{}, Tasks: 300, Workers: 9, LabelsPerTask: 2, Seed: 5}},
		{"uniform-prior", Settings{Tasks: 300, Seed: 6},
			Settings{Tasks: 300, Seed: 6, ClassPrior: []float64{0.5, 0.5}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d1, tr1 := mustSimulate(t, tc.base)
			d2, tr2 := mustSimulate(t, tc.alt)
			if !reflect.DeepEqual(d1, d2) {
				t.Error("the data sets differ")
			}
			if !reflect.DeepEqual(tr1.Q, tr2.Q) || !reflect.DeepEqual(tr1.Worker, tr2.Worker) || !reflect.DeepEqual(tr1.Target, tr2.Target) {
				t.Error("the truths differ")
			}
		})
	}
}

// TestDeterminism checks that every regime gives the same data set and
// truth for the same seed, and another data set for another seed.
func TestDeterminism(t *testing.T) {
	for _, name := range Regimes() {
		t.Run(name, func(t *testing.T) {
			c, err := Regime(name, 7)
			if err != nil {
				t.Fatal(err)
			}
			c.Tasks = 500
			d1, tr1 := mustSimulate(t, c)
			d2, tr2 := mustSimulate(t, c)
			if !reflect.DeepEqual(d1, d2) || !reflect.DeepEqual(tr1, tr2) {
				t.Error("two simulations with the same seed differ")
			}
			c.Seed = 8
			d3, _ := mustSimulate(t, c)
			if reflect.DeepEqual(d1.Label, d3.Label) {
				t.Error("two simulations with different seeds have the same labels")
			}
		})
	}
}

// TestActivity checks the weighted draw of workers: with one label an
// object, worker w's share of labels is (w+1)^-a / Σ_v (v+1)^-a; with
// more, every object has distinct workers, also when the draw must fall
// back from rejection to a scan (a steep activity and all but one worker
// on every object).
func TestActivity(t *testing.T) {
	const tasks = 40000
	c := Settings{Tasks: tasks, Workers: 6, LabelsPerTask: 1, Activity: 1.2, Noise: noise.OneCoin{}, Latent: latent.LA{}, Seed: 1}
	d, _ := mustSimulate(t, c)
	counts := workerCounts(d)
	var sum float64
	for w := range counts {
		sum += math.Pow(float64(w+1), -c.Activity)
	}
	for w, n := range counts {
		p := math.Pow(float64(w+1), -c.Activity) / sum
		se := math.Sqrt(p * (1 - p) / tasks)
		if got := float64(n) / tasks; math.Abs(got-p) > 4*se {
			t.Errorf("worker %d: share %.4f, want %.4f ± %.4f", w, got, p, 4*se)
		}
	}

	for _, tc := range []struct {
		workers, per int
		activity     float64
	}{{6, 5, 12}, {50, 3, 0.9}, {10, 10, 1}, {30, 29, 3}} {
		c := Settings{Tasks: 500, Workers: tc.workers, LabelsPerTask: tc.per, Activity: tc.activity, Noise: noise.OneCoin{}, Seed: 2}
		d, _ := mustSimulate(t, c)
		for j := range d.Tasks {
			workers, _ := d.TaskLabels(j)
			if len(workers) != tc.per {
				t.Fatalf("%+v: object %d has %d labels, want %d", tc, j, len(workers), tc.per)
			}
			seen := map[int32]bool{}
			for _, w := range workers {
				if seen[w] {
					t.Fatalf("%+v: object %d has worker %d twice", tc, j, w)
				}
				seen[w] = true
			}
		}
	}
}

// workerCounts returns the number of labels of every worker of d.
func workerCounts(d *data.Dataset) []int {
	n := make([]int, d.NumWorkers())
	for _, w := range d.Worker {
		n[w]++
	}
	return n
}

// TestCheck checks that Simulate refuses invalid configurations.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Settings
	}{
		{"prior length", Settings{Classes: 3, ClassPrior: []float64{0.5, 0.5}}},
		{"prior zero", Settings{ClassPrior: []float64{1, 0}}},
		{"prior sum", Settings{ClassPrior: []float64{0.5, 0.6}}},
		{"prior NaN", Settings{ClassPrior: []float64{math.NaN(), 0.5}}},
		{"activity", Settings{Activity: -1}},
		{"activity NaN", Settings{Activity: math.NaN()}},
		{"activity Inf", Settings{Activity: math.Inf(1)}},
		{"spammers", Settings{Spammers: 1.5}},
		{"adversaries", Settings{Adversaries: -0.1}},
		{"shares", Settings{Spammers: 0.6, Adversaries: 0.5}},
		{"kinds and group", Settings{Workers: 10, Spammers: 0.6, Adversaries: 0.4, Correlated: Correlated{Workers: 1, Coverage: 1}}},
		{"group all", Settings{Workers: 4, Correlated: Correlated{Workers: 4, Coverage: 1}}},
		{"group labels", Settings{Workers: 10, LabelsPerTask: 2, Correlated: Correlated{Workers: 3, Coverage: 1}}},
		{"group coverage", Settings{Correlated: Correlated{Workers: 2}}},
		{"group subtype", Settings{Correlated: Correlated{Workers: 2, Coverage: 1, Subtype: 2}}},
		{"group classes", Settings{Correlated: Correlated{Workers: 2, Coverage: 1, From: 1, To: 1}}},
		{"group class range", Settings{Correlated: Correlated{Workers: 2, Coverage: 1, To: 2}}},
		{"group negative", Settings{Correlated: Correlated{Workers: -1}}},
		{"params model", Settings{Noise: noise.GLAD{}, Params: DSParams{}}},
		{"params diag", Settings{Params: DSParams{Diag: []Range{{0.9, 0.8}}}}},
		{"params diag count", Settings{Classes: 3, Params: DSParams{Diag: []Range{{0.5, 0.8}, {0.5, 0.8}}}}},
		{"params diag one", Settings{Params: DSParams{Diag: []Range{{0.5, 1}}}}},
		{"params decay", Settings{Params: DSParams{ErrorDecay: -1}}},
		{"params near", Settings{Params: OneCoinParams{NearRandom: 2}}},
		{"params near range", Settings{Params: OneCoinParams{NearRandom: 0.1, NearRandomAccuracy: Range{0, 0.5}}}},
		{"params accuracy", Settings{Params: OneCoinParams{Accuracy: Range{0.6, 0.5}}}},
		{"concentration", Settings{Concentration: -1}},
		{"ambiguity under DA", Settings{Ambiguity: Ambiguity{Vertex: 3, Base: 0.5}}},
		{"ambiguity base", Settings{Latent: latent.LA{}, Ambiguity: Ambiguity{Vertex: 3}}},
		{"ambiguity vertex", Settings{Latent: latent.LA{}, Ambiguity: Ambiguity{Vertex: -1, Base: 0.5}}},
		{"ambiguity NaN", Settings{Latent: latent.LA{}, Ambiguity: Ambiguity{Vertex: math.NaN(), Base: 0.5}}},
		{"ambiguity and group", Settings{Latent: latent.LA{}, Ambiguity: Ambiguity{Vertex: 3, Base: 0.5}, Correlated: Correlated{Workers: 2, Coverage: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			c.Tasks = 10
			if _, _, err := Simulate(c); err == nil {
				t.Errorf("Simulate(%+v) did not fail", tc.c)
			}
		})
	}
}

// TestKinds checks the spammers' and adversaries' numbers and labels.
func TestKinds(t *testing.T) {
	c := Settings{Tasks: 20000, Workers: 40, LabelsPerTask: 5, Classes: 3, Noise: noise.OneCoin{}, Latent: latent.LA{},
		Params: OneCoinParams{Accuracy: Range{0.8, 0.9}}, Spammers: 0.1, Adversaries: 0.05, Seed: 9}
	d, tr := mustSimulate(t, c)
	count := map[Kind]int{}
	for _, k := range tr.Kind {
		count[k]++
	}
	if count[Spammer] != 4 || count[Adversary] != 2 || count[Normal] != 34 {
		t.Errorf("kinds %v, want 4 spammers, 2 adversaries and 34 normal workers", count)
	}
	// P(y = z) and P(y = z + 1) of each kind, against their expectations
	// at each worker's true accuracy a: a and (1 - a)/2 for a normal
	// worker, the other way round for an adversary, 1/3 for a spammer.
	var right, next, wantRight, wantNext, n [4]float64
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		z := tr.Class[j]
		for i, w := range workers {
			k := tr.Kind[w]
			a := 1 / (1 + math.Exp(-tr.Worker[w]))
			n[k]++
			switch k {
			case Normal:
				wantRight[k] += a
				wantNext[k] += (1 - a) / 2
			case Adversary:
				wantRight[k] += (1 - a) / 2
				wantNext[k] += a
			case Spammer:
				wantRight[k] += 1.0 / 3
				wantNext[k] += 1.0 / 3
			}
			if int(labels[i]) == z {
				right[k]++
			}
			if int(labels[i]) == (z+1)%3 {
				next[k]++
			}
		}
	}
	for _, k := range []Kind{Normal, Spammer, Adversary} {
		tol := 5 * math.Sqrt(0.25/n[k])
		if math.Abs(right[k]-wantRight[k])/n[k] > tol || math.Abs(next[k]-wantNext[k])/n[k] > tol {
			t.Errorf("%s: right %.3f, next class %.3f, want %.3f and %.3f ± %.3f", k, right[k]/n[k], next[k]/n[k], wantRight[k]/n[k], wantNext[k]/n[k], tol)
		}
	}
	if right[Adversary]/n[Adversary] > 0.2 {
		t.Errorf("adversaries are right on %.3f of their labels, want worse than chance", right[Adversary]/n[Adversary])
	}
}
