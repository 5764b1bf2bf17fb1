package shared_test

import (
	"math"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/shared"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// crowd simulates 3,000 tasks of two classes with five labels each among
// 60 workers of accuracy 0.7 to 0.95, two of whom share a mistake on a
// share subtype of class 0's tasks (none: independent workers).
func crowd(t *testing.T, subtype float64, group int, seed uint64) *data.Dataset {
	t.Helper()
	return crowdOf(t, 3000, subtype, group, seed)
}

// crowdOf is crowd with n tasks.
func crowdOf(t *testing.T, n int, subtype float64, group int, seed uint64) *data.Dataset {
	t.Helper()
	c := sim.Settings{Tasks: n, Workers: 60, Classes: 2, LabelsPerTask: 5, Activity: 0.5, Seed: seed,
		Noise: noise.DS{}, Latent: latent.LA{}, Params: sim.DSParams{Diag: []sim.Range{{Lo: 0.7, Hi: 0.95}}}}
	if group > 0 {
		c.Correlated = sim.Correlated{Workers: group, Coverage: 0.8, Subtype: subtype, From: 0, To: 1}
	}
	d, _, err := sim.Simulate(c)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// start returns LA's fit of d from workers of accuracy 0.8, its posterior
// and the workers its Pairs flags.
func start(d *data.Dataset) (rows, prior []float64, flagged []int32) {
	k := d.NumClasses()
	rows = make([]float64, d.NumWorkers()*k*k)
	for r := 0; r < len(rows); r += k {
		for y := range k {
			rows[r+y] = 0.2 / float64(k-1)
			if y == (r/k)%k {
				rows[r+y] = 0.8
			}
		}
	}
	prior = make([]float64, k)
	for z := range prior {
		prior[z] = 1 / float64(k)
	}
	la := shared.Fit(d, rows, prior, nil, nil, false)
	probs := make([]float64, d.NumTasks()*k)
	la.Posterior(d, nil, 0, probs)
	for _, p := range shared.Pairs(d, probs, la.Cond, shared.Settings{}) {
		for _, w := range []int32{p.A, p.B} {
			if p.A != p.B && !slices.Contains(flagged, w) {
				flagged = append(flagged, w)
			}
		}
	}
	return la.Rows, la.Prior, flagged
}

// TestTrapRecovers checks that on a crowd whose two busiest workers share
// a mistake (they call 30% of class 0's tasks 1) Pairs flags them, and the
// trap model finds the trap rate, the two fooled workers, and a
// log-likelihood far above LA's.
func TestTrapRecovers(t *testing.T) {
	d := crowd(t, 0.3, 2, 7)
	rows, prior, flagged := start(d)
	var names []string
	for _, w := range flagged {
		names = append(names, d.Workers[w])
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"w0", "w1"}) {
		t.Fatalf("flagged %v, want [w0 w1]", names)
	}
	la := shared.Fit(d, rows, prior, nil, nil, false)
	tr := shared.Fit(d, rows, prior, flagged, nil, true)
	t.Logf("η %.3f, s %.3f, gain %.1f", tr.Eta, []float64{tr.Fool[flagged[0]], tr.Fool[flagged[1]]}, tr.LogLik-la.LogLik)
	// With two fooled workers only the rate of traps that fool both,
	// η(0, 1)·s_a·s_b, is identified: a trap that fools one of them looks
	// like its own mistake.
	if both := tr.Eta[0*2+1] * tr.Fool[flagged[0]] * tr.Fool[flagged[1]]; math.Abs(both-0.3) > 0.04 || tr.Eta[1*2+0] > 0.05 {
		t.Errorf("η(0, 1)·s_a·s_b = %.3f, η(1, 0) = %.3f: want 0.3 and 0", both, tr.Eta[2])
	}
	for w, s := range tr.Fool {
		if fooled := slices.Contains(flagged, int32(w)); fooled && s < 0.6 || !fooled && s > 0.1 {
			t.Errorf("worker %s fooled with chance %.3f", d.Workers[w], s)
		}
	}
	if gain := tr.LogLik - la.LogLik; gain < 100 {
		t.Errorf("log-likelihood %.1f above LA's, want at least 100", gain)
	}
}

// TestTrapIndependent checks that on crowds of independent workers Pairs
// flags no pair, and that the trap model, started with the two busiest
// workers fooled, gains less over LA than the price the default charges
// (½ log J for each of its extra parameters: two trap rates and two
// workers' chances).
func TestTrapIndependent(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		d := crowd(t, 0, 0, seed)
		rows, prior, flagged := start(d)
		if len(flagged) > 0 {
			t.Errorf("seed %d: flagged %v on independent workers", seed, flagged)
		}
		busy := []int32{0, 1} // the busiest workers, as the simulation ranks them
		la := shared.Fit(d, rows, prior, nil, nil, false)
		tr := shared.Fit(d, rows, prior, busy, nil, true)
		price := 0.5 * 4 * math.Log(float64(d.NumTasks()))
		if gain := tr.LogLik - la.LogLik; gain > price || gain < -1 {
			t.Errorf("seed %d: trap model %.2f above LA, want in [-1, %.2f]", seed, gain, price)
		}
	}
}

// TestPosteriorLA checks Posterior against the trap model's posterior with
// no traps (LA) at the same workers and class prior.
func TestPosteriorLA(t *testing.T) {
	d := crowd(t, 0.3, 2, 1)
	rows, prior, _ := start(d)
	la := shared.Fit(d, rows, prior, nil, nil, false)
	k := d.NumClasses()
	want, got := make([]float64, d.NumTasks()*k), make([]float64, d.NumTasks()*k)
	la.Posterior(d, nil, 0, want)
	for _, only := range []bool{false, true} {
		shared.Posterior(d, la.Prior, la.Cond, only, got)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-9 {
				t.Fatalf("worker-only %v, task %d, class %d: posterior %v, want %v", only, i/k, i%k, got[i], want[i])
			}
		}
	}
}

// TestPairsWorkerOnly checks that Pairs finds the same pairs, with the same
// numbers, whether it reads the workers' conditionals once (WorkerOnly) or
// at every pair of labels.
func TestPairsWorkerOnly(t *testing.T) {
	d := crowd(t, 0.3, 2, 7)
	rows, prior, _ := start(d)
	la := shared.Fit(d, rows, prior, nil, nil, false)
	probs := make([]float64, d.NumTasks()*d.NumClasses())
	la.Posterior(d, nil, 0, probs)
	each := shared.Pairs(d, probs, la.Cond, shared.Settings{})
	once := shared.Pairs(d, probs, la.Cond, shared.Settings{WorkerOnly: true})
	if len(each) == 0 || len(each) != len(once) {
		t.Fatalf("%d pairs read at every label, %d read once; want the same, at least one", len(each), len(once))
	}
	for i := range each {
		a, b := each[i], once[i]
		if a.A != b.A || a.B != b.B || a.Shared != b.Shared || math.Abs(a.Z-b.Z) > 1e-9 || math.Abs(a.Expected-b.Expected) > 1e-12 {
			t.Errorf("pair %d: %+v read at every label, %+v read once", i, a, b)
		}
	}
}

// TestTrapSample checks Fit on more than SampleTasks tasks: it reads a
// sample, finds the rate of traps that fool both workers there, and Refine
// then fits all the tasks, near the same rate, at a log-likelihood per
// task close to the sample's.
func TestTrapSample(t *testing.T) {
	d := crowdOf(t, 3*shared.SampleTasks, 0.3, 2, 7)
	rows, prior, flagged := start(d)
	if len(flagged) != 2 {
		t.Fatalf("flagged %v, want two workers", flagged)
	}
	tr := shared.Fit(d, rows, prior, flagged, nil, true)
	both := func() float64 { return tr.Eta[0*2+1] * tr.Fool[flagged[0]] * tr.Fool[flagged[1]] }
	if tr.Tasks > shared.SampleTasks || tr.Tasks >= d.NumTasks() {
		t.Fatalf("fit read %d tasks of %d, want at most %d", tr.Tasks, d.NumTasks(), shared.SampleTasks)
	}
	sample, perTask := both(), tr.LogLik/float64(tr.Tasks)
	tr.Refine(d, nil)
	t.Logf("sample of %d: η(0, 1)·s_a·s_b %.3f, %.4f a task; all: %.3f, %.4f", shared.SampleTasks, sample, perTask, both(), tr.LogLik/float64(tr.Tasks))
	if tr.Tasks != d.NumTasks() {
		t.Errorf("refined on %d tasks of %d", tr.Tasks, d.NumTasks())
	}
	for _, v := range []float64{sample, both()} {
		if math.Abs(v-0.3) > 0.04 {
			t.Errorf("η(0, 1)·s_a·s_b = %.3f, want 0.3", v)
		}
	}
	if all := tr.LogLik / float64(tr.Tasks); math.Abs(all-perTask) > 0.02*math.Abs(perTask) {
		t.Errorf("log-likelihood %.4f a task on all tasks, %.4f on the sample", all, perTask)
	}
}
