package pairwise

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/stat"
)

func TestNoisyGradient(t *testing.T) {
	c, _, err := Simulate(SimSettings{Items: 6, Workers: 3, Comparisons: 40, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for _, lambda := range []float64{0.5, 1} {
		o := noisyObjective{c: c, lambda: lambda}
		x := make([]float64, len(c.Items)+2*len(c.Workers))
		for i := range x {
			x[i] = 2 * rng.NormFloat64()
		}
		g := make([]float64, len(x))
		o.eval(x, g)
		want := fd.Gradient(nil, func(x []float64) float64 { return o.eval(x, nil) }, x, &fd.Settings{Formula: fd.Central, Step: 1e-5})
		for i := range g {
			if math.Abs(g[i]-want[i]) > 1e-7 {
				t.Fatalf("λ = %v: component %d of the gradient %v, finite differences %v", lambda, i, g[i], want[i])
			}
		}
	}
}

// TestNoisyRecovery: comparisons from workers of whom 30 % are spammers
// (skill 0.05): the noisy model finds the spammers, the skills and the
// scores, and ranks the items closer to the truth than Bradley-Terry.
func TestNoisyRecovery(t *testing.T) {
	c, tr, err := Simulate(SimSettings{Items: 300, Workers: 40, Comparisons: 40000, Spammers: 0.3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NoisyBT{}.Fit(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Converged {
		t.Errorf("not converged after %d iterations", r.Iterations)
	}
	bt, err := BradleyTerry{}.Fit(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	noisyCorr := stat.Correlation(r.Scores, tr.Scores, nil)
	btCorr := stat.Correlation(bt.Scores, tr.Scores, nil)
	if noisyCorr < 0.95 || noisyCorr <= btCorr {
		t.Errorf("correlation with the true scores: noisy %.4f, Bradley-Terry %.4f", noisyCorr, btCorr)
	}
	if corr := stat.Correlation(r.Skills, tr.Skills, nil); corr < 0.95 {
		t.Errorf("correlation of the skills %.4f", corr)
	}
	for w, s := range tr.Skills {
		if spam := s < 0.1; spam != (r.Skills[w] < 0.3) {
			t.Errorf("worker %s: skill %.3f, fitted %.3f", c.Workers[w], s, r.Skills[w])
		}
	}
	if r.LogPosterior < bt.LogPosterior || r.LogLikelihood < bt.LogLikelihood {
		t.Errorf("the noisy model's log posterior %v and log-likelihood %v are below Bradley-Terry's %v and %v", r.LogPosterior, r.LogLikelihood, bt.LogPosterior, bt.LogLikelihood)
	}
}

func TestNoisyErrors(t *testing.T) {
	c := comparisons(t, [3]string{"a", "b", "a"})
	if _, err := (NoisyBT{}).Fit(context.Background(), c); err != ErrNoWorkers {
		t.Errorf("no workers: %v", err)
	}
	for _, empty := range []*Comparisons{{}, nil} {
		if _, err := (NoisyBT{}).Fit(context.Background(), empty); err != ErrNoComparisons {
			t.Errorf("no comparisons (%v): noisy-bt %v", empty, err)
		}
		if _, err := (BradleyTerry{}).Fit(context.Background(), empty); err != ErrNoComparisons {
			t.Errorf("no comparisons (%v): bt %v", empty, err)
		}
	}
	for _, m := range []NoisyBT{{Prior: -1}, {MaxIterations: -1}, {GradTol: -1}, {FuncTol: -1}, {FuncTol: math.NaN()}, {Threads: -1}} {
		if _, err := m.Fit(context.Background(), c); err == nil {
			t.Errorf("%+v: no error", m)
		}
	}
}

// TestNoisyFuncTol: a function tolerance (Crowd-Kit's tol) stops the fit
// earlier, at an iteration whose objective changed by less than that
// fraction, and a smaller one later; both near the default fit's optimum.
func TestNoisyFuncTol(t *testing.T) {
	c, _, err := Simulate(SimSettings{Items: 50, Workers: 10, Comparisons: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	full, err := NoisyBT{}.Fit(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	prev := 0
	for _, tol := range []float64{1e-3, 1e-6} {
		r, err := NoisyBT{FuncTol: tol}.Fit(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Converged || r.Iterations <= prev || r.Iterations >= full.Iterations {
			t.Errorf("FuncTol %g: %d iterations (converged %v), want more than %d and fewer than the default's %d",
				tol, r.Iterations, r.Converged, prev, full.Iterations)
		}
		if gap := full.LogPosterior - r.LogPosterior; gap < 0 || gap > 10*tol*math.Abs(full.LogPosterior) {
			t.Errorf("FuncTol %g: log posterior %v, %v below the default fit's", tol, r.LogPosterior, gap)
		}
		prev = r.Iterations
	}
}

// TestDeterministic: the same comparisons give the same fits, bit for bit.
func TestDeterministic(t *testing.T) {
	c, _, err := Simulate(SimSettings{Items: 100, Workers: 10, Comparisons: 3000, Spammers: 0.2, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := Simulate(SimSettings{Items: 100, Workers: 10, Comparisons: 3000, Spammers: 0.2, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, fit := range []func(*Comparisons) (*Result, error){
		func(c *Comparisons) (*Result, error) { return BradleyTerry{}.Fit(context.Background(), c) },
		func(c *Comparisons) (*Result, error) { return NoisyBT{}.Fit(context.Background(), c) },
	} {
		a, err := fit(c)
		if err != nil {
			t.Fatal(err)
		}
		b, err := fit(d)
		if err != nil {
			t.Fatal(err)
		}
		for i := range a.Scores {
			if math.Float64bits(a.Scores[i]) != math.Float64bits(b.Scores[i]) {
				t.Fatalf("%s: item %d: %v and %v", a.Model, i, a.Scores[i], b.Scores[i])
			}
		}
	}
}

// TestThreadsSameFit: one, two and three goroutines give the same fits, bit
// for bit, on comparisons spanning several blocks.
func TestThreadsSameFit(t *testing.T) {
	c, _, err := Simulate(SimSettings{Items: 2000, Workers: 30, Comparisons: 3*blockSize + 123, Spammers: 0.2, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	fits := map[string]func(threads int) (*Result, error){
		"bt":       func(n int) (*Result, error) { return BradleyTerry{Threads: n}.Fit(context.Background(), c) },
		"noisy-bt": func(n int) (*Result, error) { return NoisyBT{Threads: n}.Fit(context.Background(), c) },
	}
	for name, fit := range fits {
		one, err := fit(1)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{2, 3} {
			r, err := fit(n)
			if err != nil {
				t.Fatal(err)
			}
			same := r.Iterations == one.Iterations && math.Float64bits(r.LogPosterior) == math.Float64bits(one.LogPosterior)
			for i := range r.Scores {
				same = same && math.Float64bits(r.Scores[i]) == math.Float64bits(one.Scores[i])
			}
			for w := range r.Skills {
				same = same && math.Float64bits(r.Skills[w]) == math.Float64bits(one.Skills[w]) && math.Float64bits(r.Biases[w]) == math.Float64bits(one.Biases[w])
			}
			if !same {
				t.Errorf("%s: %d goroutines gave another fit than one (%d against %d iterations)", name, n, r.Iterations, one.Iterations)
			}
		}
	}
}
