package pairwise

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// comparisons builds comparisons from rows of (left, right, label).
func comparisons(t *testing.T, rows ...[3]string) *Comparisons {
	t.Helper()
	c := &Comparisons{}
	for _, r := range rows {
		if err := c.Add("", r[0], r[1], r[2]); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestBTWorkedExample: a beats b three times and loses once, so the
// maximum likelihood has σ(θ_a − θ_b) = 3/4, θ_a = −θ_b = ln 3 / 2.
func TestBTWorkedExample(t *testing.T) {
	c := comparisons(t, [3]string{"a", "b", "a"}, [3]string{"b", "a", "a"}, [3]string{"a", "b", "a"}, [3]string{"a", "b", "b"})
	r, err := BradleyTerry{NoPrior: true}.Fit(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Log(3) / 2
	if !r.Converged || math.Abs(r.Scores[0]-want) > 1e-12 || math.Abs(r.Scores[1]+want) > 1e-12 {
		t.Errorf("scores %v (converged %v), want ±%v", r.Scores, r.Converged, want)
	}
	if p := r.WinProbability(0, 1); math.Abs(p-0.75) > 1e-12 {
		t.Errorf("P(a ≻ b) = %v, want 0.75", p)
	}
	if w := r.Weights(); math.Abs(w[0]-0.75) > 1e-12 || math.Abs(w[1]-0.25) > 1e-12 {
		t.Errorf("weights %v, want [0.75 0.25]", w)
	}
	if ll := 3*math.Log(0.75) + math.Log(0.25); math.Abs(r.LogLikelihood-ll) > 1e-12 || r.LogPosterior != r.LogLikelihood {
		t.Errorf("log-likelihood %v, log posterior %v, want both %v", r.LogLikelihood, r.LogPosterior, ll)
	}
	// With the prior the reference item's virtual games pull both
	// scores towards 0: a stays ahead, by less.
	p, err := BradleyTerry{}.Fit(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !(p.Scores[0] > 0 && p.Scores[0] < want && p.Scores[1] < 0 && p.Scores[1] > -want) {
		t.Errorf("scores with the prior %v, want inside ±%v", p.Scores, want)
	}
}

// TestBTTies: a beats b once and ties twice, two wins of three, so the
// maximum likelihood has σ(θ_a − θ_b) = 2/3, θ_a = −θ_b = ln 2 / 2.
func TestBTTies(t *testing.T) {
	c := comparisons(t, [3]string{"a", "b", "a"})
	for _, row := range [][2]string{{"a", "b"}, {"b", "a"}} {
		if err := c.AddTie("", row[0], row[1]); err != nil {
			t.Fatal(err)
		}
	}
	r, err := BradleyTerry{NoPrior: true}.Fit(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Log(2) / 2; math.Abs(r.Scores[0]-want) > 1e-12 || math.Abs(r.Scores[1]+want) > 1e-12 {
		t.Errorf("scores %v, want ±%v", r.Scores, want)
	}
	if !slices.Equal(r.Wins, []int{1, 0}) || !slices.Equal(r.Ties, []int{2, 2}) || !slices.Equal(r.Games, []int{3, 3}) {
		t.Errorf("wins %v, ties %v, games %v", r.Wins, r.Ties, r.Games)
	}
	if ll := 2*math.Log(2.0/3) + math.Log(1.0/3); math.Abs(r.LogLikelihood-ll) > 1e-12 {
		t.Errorf("log-likelihood %v, want %v", r.LogLikelihood, ll)
	}
	// Ties alone connect items both ways: the maximum exists (all
	// scores 0), where a win alone would not have one.
	d := &Comparisons{}
	if err := d.AddTie("", "x", "y"); err != nil {
		t.Fatal(err)
	}
	if r, err := (BradleyTerry{NoPrior: true}).Fit(context.Background(), d); err != nil || r.Scores[0] != 0 || r.Scores[1] != 0 {
		t.Errorf("a tie alone: %v, %v", err, r)
	}
	if _, err := (NoisyBT{}).Fit(context.Background(), d); err != ErrNoWorkers {
		t.Errorf("noisy, no workers: %v", err)
	}
	e := &Comparisons{}
	if err := e.AddTie("w", "x", "y"); err != nil {
		t.Fatal(err)
	}
	if _, err := (NoisyBT{}).Fit(context.Background(), e); err != ErrTies {
		t.Errorf("noisy with ties: %v", err)
	}
}

// simulateBT draws m comparisons of n items under the plain Bradley-Terry
// model with scores N(0, 1).
func simulateBT(t *testing.T, n, m int, seed uint64) (*Comparisons, []float64) {
	t.Helper()
	c, tr, err := Simulate(SimSettings{Items: n, Workers: 1, Comparisons: m, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	// Redraw every label with skill 1: plain Bradley-Terry.
	rng := rand.New(rand.NewPCG(seed, 1))
	for k, l := range c.Left {
		c.LeftWon[k] = rng.Float64() < sigmoid(tr.Scores[l]-tr.Scores[c.Right[k]])
	}
	return c, tr.Scores
}

// mmReference is Hunter's (2004) MM algorithm with the virtual games of the
// prior, run to a tight tolerance: an independent route to the maximum. A
// tie adds half a win to each item.
func mmReference(c *Comparisons, lambda float64) []float64 {
	iwins, _ := c.Wins()
	wins := make([]float64, len(iwins))
	for i, w := range iwins {
		wins[i] = float64(w)
	}
	for i, t := range c.Ties() {
		wins[i] += float64(t) / 2
	}
	p := make([]float64, len(c.Items))
	for i := range p {
		p[i] = 1
	}
	den := make([]float64, len(p))
	for range 200000 {
		for i, pi := range p {
			den[i] = 2 * lambda / (pi + 1)
		}
		for k, l := range c.Left {
			r := c.Right[k]
			s := 1 / (p[l] + p[r])
			den[l] += s
			den[r] += s
		}
		var step, logSum float64
		for i, pi := range p {
			q := (wins[i] + lambda) / den[i]
			step = max(step, math.Abs(math.Log(q/pi)))
			p[i] = q
			logSum += math.Log(q)
		}
		if lambda == 0 {
			g := math.Exp(logSum / float64(len(p)))
			for i := range p {
				p[i] /= g
			}
		}
		if step < 1e-13 {
			break
		}
	}
	theta := make([]float64, len(p))
	for i, pi := range p {
		theta[i] = math.Log(pi)
	}
	return theta
}

// withTies turns every fifth comparison of c into a tie.
func withTies(c *Comparisons) *Comparisons {
	d := *c
	d.Tie = make([]bool, c.Len())
	d.LeftWon = append([]bool(nil), c.LeftWon...)
	for k := 0; k < c.Len(); k += 5 {
		d.Tie[k], d.LeftWon[k] = true, false
	}
	return &d
}

func TestBTAgainstMM(t *testing.T) {
	plain, _ := simulateBT(t, 60, 600, 3)
	for _, c := range []*Comparisons{plain, withTies(plain)} {
		testBTAgainstMM(t, c)
	}
}

func testBTAgainstMM(t *testing.T, c *Comparisons) {
	for _, tc := range []struct {
		name string
		b    BradleyTerry
		l    float64
	}{
		{"default prior", BradleyTerry{}, 1},
		{"prior 0.25", BradleyTerry{Prior: 0.25}, 0.25},
		{"prior 10", BradleyTerry{Prior: 10}, 10},
		{"no prior", BradleyTerry{NoPrior: true}, 0},
	} {
		t.Run(fmt.Sprintf("%s/ties=%v", tc.name, c.HasTies()), func(t *testing.T) {
			r, err := tc.b.Fit(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			want := mmReference(c, tc.l)
			for i := range want {
				if math.Abs(r.Scores[i]-want[i]) > 1e-8 {
					t.Fatalf("item %d: score %v, MM's %v (converged %v in %d steps)", i, r.Scores[i], want[i], r.Converged, r.Iterations)
				}
			}
			if !r.Converged || r.Iterations > 20 {
				t.Errorf("converged %v in %d Newton steps", r.Converged, r.Iterations)
			}
		})
	}
}

// TestBTScoreEquations: at the fit every item's wins, virtual ones included,
// equal the wins the model expects of it.
func TestBTScoreEquations(t *testing.T) {
	c, _ := simulateBT(t, 3000, 60000, 4)
	r, err := BradleyTerry{}.Fit(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	expect := make([]float64, len(c.Items))
	for k, l := range c.Left {
		rt := c.Right[k]
		s := sigmoid(r.Scores[l] - r.Scores[rt])
		expect[l] += s
		expect[rt] += 1 - s
	}
	for i, th := range r.Scores {
		if d := float64(r.Wins[i]) + 1 - 2*sigmoid(th) - expect[i]; math.Abs(d) > 1e-8 {
			t.Fatalf("item %d: wins %d, expected %v, residual %v", i, r.Wins[i], expect[i], d)
		}
	}
}

// TestBTRecovery: with 200 comparisons an item the scores come back from
// simulated Bradley-Terry comparisons.
func TestBTRecovery(t *testing.T) {
	c, truth := simulateBT(t, 200, 20000, 5)
	r, err := BradleyTerry{}.Fit(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	var se float64
	for i, s := range r.Scores {
		se += (s - truth[i]) * (s - truth[i])
	}
	rmse := math.Sqrt(se / float64(len(truth)))
	if corr := stat.Correlation(r.Scores, truth, nil); corr < 0.97 || rmse > 0.25 {
		t.Errorf("correlation %.4f, RMSE %.4f with the true scores", corr, rmse)
	}
}

func TestBTGradientAndHessian(t *testing.T) {
	c, _ := simulateBT(t, 8, 40, 6)
	c = withTies(c)
	rng := rand.New(rand.NewPCG(7, 7))
	x := make([]float64, len(c.Items))
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	for _, lambda := range []float64{0, 0.5, 1} {
		f := func(x []float64) float64 { _, lp := btObjective(c, x, lambda, nil, nil, 0); return lp }
		g := make([]float64, len(x))
		btObjective(c, x, lambda, g, nil, 0)
		want := fd.Gradient(nil, f, x, &fd.Settings{Formula: fd.Central, Step: 1e-5})
		for i := range g {
			if math.Abs(g[i]-want[i]) > 1e-7 {
				t.Fatalf("λ = %v: ∂L/∂θ_%d = %v, finite differences %v", lambda, i, g[i], want[i])
			}
		}
		// The Newton system's matrix is the negative Hessian.
		nt := newNewton(c, lambda, 0)
		if _, err := nt.step(append([]float64(nil), x...)); err != nil {
			t.Fatal(err)
		}
		h := mat.NewSymDense(len(x), nil)
		fd.Hessian(h, f, x, &fd.Settings{Formula: fd.Central, Step: 1e-4})
		col, out := make([]float64, len(x)), make([]float64, len(x))
		for j := range x {
			clear(col)
			col[j] = 1
			nt.hessTimes(col, out)
			for i := range x {
				if want := -h.At(i, j); math.Abs(out[i]-want) > 1e-5 {
					t.Fatalf("λ = %v: H[%d][%d] = %v, finite differences %v", lambda, i, j, out[i], want)
				}
			}
		}
	}
}

func TestBTNoMaximumLikelihood(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows [][3]string
		err  string
	}{
		{"never wins", [][3]string{{"a", "b", "a"}, {"b", "a", "b"}, {"c", "a", "a"}}, `item "c" wins none of its 1 comparisons`},
		{"always wins", [][3]string{{"a", "b", "a"}, {"b", "a", "b"}, {"c", "a", "c"}}, `item "c" wins all of its 1 comparisons`},
		{"two groups", [][3]string{{"a", "b", "a"}, {"b", "a", "b"}, {"c", "d", "c"}, {"d", "c", "d"}, {"a", "c", "a"}}, `no chain of wins connects item "a" and item "c"`},
		{"two groups the other way", [][3]string{{"a", "b", "a"}, {"b", "a", "b"}, {"c", "d", "c"}, {"d", "c", "d"}, {"a", "c", "c"}}, `no chain of wins connects item "a" and item "c"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := comparisons(t, tc.rows...)
			_, err := BradleyTerry{NoPrior: true}.Fit(context.Background(), c)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
			// With the prior the same comparisons have a maximum.
			r, err := BradleyTerry{}.Fit(context.Background(), c)
			if err != nil || !r.Converged {
				t.Fatalf("with the prior: %v, converged %v", err, r != nil && r.Converged)
			}
		})
	}
}

func TestBTSettings(t *testing.T) {
	c := comparisons(t, [3]string{"a", "b", "a"})
	for _, b := range []BradleyTerry{{Prior: -1}, {Prior: math.NaN()}, {Prior: math.Inf(1)}, {Tol: -1}, {MaxIterations: -1}, {Threads: -1}} {
		if _, err := b.Fit(context.Background(), c); err == nil {
			t.Errorf("%+v: no error", b)
		}
	}
	if _, err := (BradleyTerry{}).Fit(context.Background(), &Comparisons{}); err != ErrNoComparisons {
		t.Errorf("no comparisons: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (BradleyTerry{}).Fit(ctx, c); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
	r, err := BradleyTerry{MaxIterations: 1}.Fit(context.Background(), comparisons(t, [3]string{"a", "b", "a"}, [3]string{"c", "b", "c"}))
	if err != nil || r.Converged || r.Iterations != 1 {
		t.Errorf("one step: %v, converged %v after %d", err, r != nil && r.Converged, r.Iterations)
	}
}

func TestResultRanking(t *testing.T) {
	r := &Result{Scores: []float64{0.5, 2, 0.5, -1}}
	if got := r.Ranking(); !slices.Equal(got, []int{1, 0, 2, 3}) {
		t.Errorf("ranking %v", got)
	}
}
