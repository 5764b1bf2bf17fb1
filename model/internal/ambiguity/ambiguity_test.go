package ambiguity

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// bruteMarginal returns ML_c for every class c by enumeration of the
// subsets S of the labels whose subjective class is the distractor d:
// Σ_{d≠c} w_c(d) Σ_S Π_{i∈S} lk_i(d) Π_{i∉S} lk_i(c) · B(U+|S|,
// V+n−|S|)/B(U, V), with w_c(d) = π_d / (1 − π_c) for the class prior π.
func bruteMarginal(lk []float64, n, k int, pr Prior, prior []float64) []float64 {
	lb := func(a, b float64) float64 {
		x, _ := math.Lgamma(a)
		y, _ := math.Lgamma(b)
		z, _ := math.Lgamma(a + b)
		return x + y - z
	}
	ml := make([]float64, k)
	for c := range k {
		for d := range k {
			if d == c {
				continue
			}
			for set := range 1 << n {
				p, m := 1.0, 0
				for i := range n {
					if set>>i&1 == 1 {
						p *= lk[i*k+d]
						m++
					} else {
						p *= lk[i*k+c]
					}
				}
				w := 0.0
				if pr.U == 0 {
					if m == 0 {
						w = 1
					}
				} else {
					w = math.Exp(lb(pr.U+float64(m), pr.V+float64(n-m)) - lb(pr.U, pr.V))
				}
				ml[c] += p * w * prior[d] / (1 - prior[c])
			}
		}
	}
	return ml
}

// TestMarginal checks the pair sums and beta-binomial weights against the
// enumeration of bruteMarginal, for two to four classes, none to nine
// labels, several priors of λ, LA's among them, and a class prior drawn
// at random.
func TestMarginal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{2, 3, 4} {
		prior := make([]float64, k)
		var sum float64
		for c := range prior {
			prior[c] = 0.05 + rng.Float64()
			sum += prior[c]
		}
		for c := range prior {
			prior[c] /= sum
		}
		for n := range 10 {
			for _, pr := range []Prior{{}, {0.5, 3.5}, {2, 0.3}, {0.01, 100}} {
				lk := make([]float64, n*k)
				for i := range lk {
					lk[i] = rng.Float64()
				}
				e := pairSums(lk, n, k, nil)
				got := make([]float64, k)
				marginal(e, n, k, pr.weights(n, nil), distractors(prior), got)
				want := bruteMarginal(lk, n, k, pr, prior)
				for c := range k {
					if math.Abs(got[c]-want[c]) > 1e-12*max(1, want[c]) {
						t.Errorf("K %d, %d labels, %+v, class %d: %v, want %v", k, n, pr, c, got[c], want[c])
					}
				}
			}
		}
	}
}

// TestPairSumsScale checks that the pair sums of many labels whose
// probabilities are all small are rescaled on the way rather than lost:
// 400 labels of probabilities 0.01 and 0.02 give the same marginal,
// relative to each other, as their exact closed forms.
func TestPairSumsScale(t *testing.T) {
	const n, k = 400, 2
	lk := make([]float64, n*k)
	for i := range n {
		lk[i*k], lk[i*k+1] = 0.01, 0.02
	}
	e := pairSums(lk, n, k, nil)
	// ẽ_m = 0.01^(n−m) · 0.02^m: compare in logarithms.
	for _, m := range []int{0, 100, 400} {
		want := float64(n-m)*math.Log(0.01) + float64(m)*math.Log(0.02)
		if got := math.Log(e[m]); want > -700 && math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("log ẽ_%d = %v, want %v", m, got, want)
		}
	}
}

// TestPosterior checks Posterior on a small data set: under LA (U = 0) it
// is the prior times the product of the labels' probabilities; under
// ambiguity it is softer on a split task than LA's; a task of known class
// is left as it was.
func TestPosterior(t *testing.T) {
	d, cond, prior, gold := smallTasks(t)
	l := NewLabels(d, cond, true, prior)
	probs := []float64{0, 0, 0, 0, 0, 1}
	Posterior(l, Prior{}, prior, gold, 0, probs)
	for j := range 2 {
		workers, labels := d.TaskLabels(j)
		var want [2]float64
		for z := range 2 {
			want[z] = prior[z]
			for i, w := range workers {
				p := make([]float64, 2)
				cond(w, j, z, p)
				want[z] *= p[labels[i]]
			}
		}
		s := want[0] + want[1]
		if got := probs[j*2]; math.Abs(got-want[0]/s) > 1e-12 {
			t.Errorf("LA, task %d: P(0) = %v, want %v", j, got, want[0]/s)
		}
	}
	la := probs[2:4]
	amb := []float64{0, 0, 0, 0, 0, 1}
	Posterior(l, Prior{1, 4}, prior, gold, 0, amb)
	if !(math.Abs(amb[2]-0.5) < math.Abs(la[0]-0.5)) {
		t.Errorf("split task: P(0) %v under ambiguity, not softer than LA's %v", amb[2], la[0])
	}
	if amb[4] != 0 || amb[5] != 1 || probs[4] != 0 || probs[5] != 1 {
		t.Errorf("the gold task's row changed: %v, %v", amb[4:], probs[4:])
	}
}

// TestPosteriorManyLabels checks that a task of more than MaxLabels labels
// keeps its row, and that the floor is mixed into the others.
func TestPosteriorManyLabels(t *testing.T) {
	n := MaxLabels + 1
	task := make([]int32, n+2)
	worker := make([]int32, n+2)
	label := make([]uint16, n+2)
	task[n], task[n+1] = 1, 1
	label[n+1] = 1
	d, err := data.FromIndices([]string{"big", "small"}, []string{"a"}, []string{"0", "1"}, task, worker, label)
	if err != nil {
		t.Fatal(err)
	}
	cond := func(_ int32, _ int, z int, p []float64) { p[z], p[1-z] = 0.8, 0.2 }
	probs := []float64{0.3, 0.7, 0, 0}
	Posterior(NewLabels(d, cond, true, []float64{0.5, 0.5}), Prior{1, 4}, []float64{0.5, 0.5}, nil, 0.01, probs)
	if probs[0] != 0.3 || probs[1] != 0.7 {
		t.Errorf("the task of %d labels changed: %v", n, probs[:2])
	}
	// One label of each class: P(0) = ½ by symmetry, and the floor keeps it there.
	if math.Abs(probs[2]-0.5) > 1e-12 || math.Abs(probs[2]+probs[3]-1) > 1e-12 {
		t.Errorf("the split task: %v, want (0.5, 0.5)", probs[2:])
	}
}

// TestDeconvolve checks that deconvolving F·P by μ gives P back where no
// probability hits the floor, with F the ambiguity's mixing of SetMean:
// at K = 2, and at K = 3 with uniform and with skewed class priors, the
// latter through the general inverse of Labels.deconvolve.
func TestDeconvolve(t *testing.T) {
	const mu = 0.1
	for _, tc := range []struct {
		prior, p []float64
	}{
		{[]float64{0.3, 0.7}, []float64{0.8, 0.2, 0.15, 0.85}},
		{[]float64{1. / 3, 1. / 3, 1. / 3}, []float64{0.8, 0.15, 0.05, 0.1, 0.85, 0.05, 0.1, 0.1, 0.8}},
		{[]float64{0.6, 0.38, 0.02}, []float64{0.8, 0.15, 0.05, 0.1, 0.85, 0.05, 0.1, 0.1, 0.8}},
	} {
		k := len(tc.prior)
		w := distractors(tc.prior)
		f := make([]float64, k*k)
		for z := range k {
			for x := range k {
				m := mu * w[z*k+x]
				if x == z {
					m = 1 - mu
				}
				for y := range k {
					f[z*k+y] += m * tc.p[x*k+y]
				}
			}
		}
		d, err := data.FromIndices([]string{"t"}, []string{"a"}, []string{"0", "1", "2"}[:k], []int32{0}, []int32{0}, []uint16{0})
		if err != nil {
			t.Fatal(err)
		}
		l := NewLabels(d, func(_ int32, _ int, z int, p []float64) { copy(p, f[z*k:(z+1)*k]) }, true, tc.prior)
		l.SetMean(mu)
		got := l.cache
		for i := range tc.p {
			if math.Abs(got[i]-tc.p[i]) > 1e-12 {
				t.Errorf("prior %v, entry %d: %v, want %v", tc.prior, i, got[i], tc.p[i])
			}
		}
		if k > 2 {
			continue
		}
		two := make([]float64, k*k)
		deconvolve(f, two, k, mu)
		for i := range two {
			if two[i] != got[i] {
				t.Errorf("K = 2, entry %d: closed form %v, Labels %v", i, two[i], got[i])
			}
		}
	}
}

// TestHeldOut checks the held-out predictions against bruteMarginal: for
// every label of the two tasks without gold, the log posterior of each
// class without the label and the label's probability given the class and
// the other labels, ML_c(y)/ML_c(y_{−i}), both up to a constant common to
// the classes; under LA (U = 0) the latter is the worker's conditional.
func TestHeldOut(t *testing.T) {
	d, cond, prior, gold := smallTasks(t)
	l := NewLabels(d, cond, true, prior)
	for _, pr := range []Prior{{}, {1, 4}, {0.3, 2}} {
		loo, pc := HeldOut(l, pr, prior, gold, 1000)
		if len(loo) != 8*2 || len(pc) != 8*2 {
			t.Fatalf("%v: %d and %d entries, want 16 (8 labels, the gold task's left out)", pr, len(loo), len(pc))
		}
		row := 0
		for j := range 2 {
			workers, labels := d.TaskLabels(j)
			n := len(workers)
			lk := make([]float64, n*2)
			for i, w := range workers {
				p := make([]float64, 2)
				for z := range 2 {
					cond(w, j, z, p)
					lk[i*2+z] = p[labels[i]]
				}
			}
			all := bruteMarginal(lk, n, 2, pr, prior)
			for i := range n {
				rest := append(append([]float64{}, lk[:i*2]...), lk[(i+1)*2:]...)
				without := bruteMarginal(rest, n-1, 2, pr, prior)
				wantLoo := math.Log(prior[0]*without[0]) - math.Log(prior[1]*without[1])
				wantPc := (all[0] / without[0]) / (all[1] / without[1])
				if pr.U == 0 {
					wantPc = lk[i*2] / lk[i*2+1]
				}
				gotLoo := loo[row*2] - loo[row*2+1]
				gotPc := pc[row*2] / pc[row*2+1]
				if math.Abs(gotLoo-wantLoo) > 1e-9 || math.Abs(gotPc/wantPc-1) > 1e-9 {
					t.Errorf("%v, task %d, label %d: log odds without it %v, want %v; predictive ratio %v, want %v",
						pr, j, i, gotLoo, wantLoo, gotPc, wantPc)
				}
				row++
			}
		}
	}
}

// smallTasks returns the data set of TestPosterior and TestHeldOut (task
// 0: three labels 0; task 1: labels 0, 0, 1, 1, 1; task 2: one label, of
// known class 1), its workers' conditionals (one accuracy each), a class
// prior and the gold classes.
func smallTasks(t *testing.T) (*data.Dataset, Cond, []float64, []int) {
	t.Helper()
	d, err := data.FromIndices([]string{"t0", "t1", "t2"}, []string{"a", "b", "c", "d", "e"}, []string{"0", "1"},
		[]int32{0, 0, 0, 1, 1, 1, 1, 1, 2}, []int32{0, 1, 2, 0, 1, 2, 3, 4, 0}, []uint16{0, 0, 0, 0, 0, 1, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	acc := []float64{0.9, 0.8, 0.7, 0.85, 0.75}
	cond := func(w int32, _ int, z int, p []float64) {
		p[z], p[1-z] = acc[w], 1-acc[w]
	}
	prior := []float64{0.6, 0.4}
	gold := []int{-1, -1, 1}
	return d, cond, prior, gold
}
