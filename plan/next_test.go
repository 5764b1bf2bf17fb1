package plan

import (
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestLookaheadByHand checks the expected accuracy and the probability of
// a change against sums done by hand, at K = 2 with a symmetric worker of
// accuracy 0.8 and a task at ρ = (0.9, 0.1).
func TestLookaheadByHand(t *testing.T) {
	pi := []float64{0.8, 0.2, 0.2, 0.8}
	la := newLookahead(pi, 2, 3)
	rho := []float64{0.9, 0.1}
	// One label: y = 0 leaves class 0 (0.72 vs 0.02); y = 1 gives 0.18 vs
	// 0.08, still class 0: A_1 = 0.72 + 0.18 = 0.9, no gain, no change.
	if c := la.change(rho); c != 0 {
		t.Errorf("change %v, want 0", c)
	}
	// Two labels: (0,2) gives 0.9·0.04 = 0.036 vs 0.1·0.64 = 0.064, a
	// change: A_2 = 0.9·(0.64 + 2·0.16) + 0.064 = 0.928; gain 0.028/2.
	// Three labels: counts (3,0), (2,1), (1,2), (0,3) of class 1 labels
	// 0, 1, 2, 3: A_3 = 0.9·(0.512 + 3·0.128) + max(0.9·3·0.032,
	// 0.1·3·0.128) + 0.1·0.512 = 0.8064 + 0.0864 + 0.0512 = 0.944, gain
	// 0.044/3, the largest per label.
	if g := la.gain(rho); math.Abs(g-0.044/3) > 1e-12 {
		t.Errorf("gain %v, want 0.044/3", g)
	}
	if g := newLookahead(pi, 2, 2).gain(rho); math.Abs(g-0.014) > 1e-12 {
		t.Errorf("gain looking two labels ahead %v, want 0.014", g)
	}
	if g := newLookahead(pi, 2, 1).gain(rho); g != 0 {
		t.Errorf("gain looking one label ahead %v, want 0", g)
	}
	// An even task changes with probability 1/2 on one label, whichever
	// class the tie goes to.
	if c := la.change([]float64{0.5, 0.5}); math.Abs(c-0.5) > 1e-12 {
		t.Errorf("change at a tie %v, want 0.5", c)
	}
}

// TestOutcomes checks the number of count vectors and the lookahead's
// bound with many classes.
func TestOutcomes(t *testing.T) {
	for _, tc := range []struct{ n, k, want int }{{1, 2, 2}, {3, 2, 4}, {3, 5, 35}, {2, 20, 210}, {3, 20, maxOutcomes + 1}} {
		if got := outcomes(tc.n, tc.k); got != tc.want {
			t.Errorf("outcomes(%d, %d) = %d, want %d", tc.n, tc.k, got, tc.want)
		}
	}
	pi := symmetricPrior(20, 0.5, 1)
	if la := newLookahead(pi, 20, 3); len(la.steps) != 2 {
		t.Errorf("K = 20: %d steps, want 2", len(la.steps))
	}
	if la := newLookahead(symmetricPrior(50, 0.5, 1), 50, 3); len(la.steps) != 1 {
		t.Errorf("K = 50: %d steps, want 1", len(la.steps))
	}
}

// TestInfoByHand checks the information of one label against sums done
// by hand: at an even task a symmetric worker of accuracy 0.8 carries
// ln 2 − H(0.8, 0.2), a spammer nothing, and an adversary of accuracy 0.2
// as much as the worker of 0.8.
func TestInfoByHand(t *testing.T) {
	h := -0.8*math.Log(0.8) - 0.2*math.Log(0.2)
	for _, c := range []struct {
		name string
		pi   []float64
		want float64
	}{
		{"reliable", []float64{0.8, 0.2, 0.2, 0.8}, math.Ln2 - h},
		{"spammer", []float64{0.7, 0.3, 0.7, 0.3}, 0},
		{"adversary", []float64{0.2, 0.8, 0.8, 0.2}, math.Ln2 - h},
	} {
		if got := newLookahead(c.pi, 2, 1).info([]float64{0.5, 0.5}); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: info %v, want %v", c.name, got, c.want)
		}
	}
}

// fixedTasks and fixedWorkers are a posterior given by hand: every task's
// class posterior, and every worker's pseudo-counts.
type (
	fixedTasks   [][]float64
	fixedWorkers [][]float64
)

func (f fixedTasks) ClassPosterior(j int, dst []float64) { copy(dst, f[j]) }

func (f fixedWorkers) Confusion(w int, dst []float64) { copy(dst, f[w]) }

func (f fixedWorkers) ConfusionPrior(dst []float64) {
	for i := range dst {
		dst[i] = 1
	}
}

// TestNextPoolPrefersInformative checks the choice of a worker for a task
// whose decision no label of the pool can change (every gain zero): the
// worker whose label carries the most information about the task's class,
// not the first of the pool.
func TestNextPoolPrefersInformative(t *testing.T) {
	d, err := data.FromIndices(names("t", 1), names("w", 3), names("c", 2), []int32{0}, []int32{0}, []uint16{0})
	if err != nil {
		t.Fatal(err)
	}
	p := &Posterior{
		Data:  d,
		Tasks: fixedTasks{{0.995, 0.005}},
		// Worker 1 is a spammer, worker 2 right 70% of the time.
		Workers: fixedWorkers{{8, 2, 2, 8}, {5, 5, 5, 5}, {7, 3, 3, 7}},
		Probs:   []float64{0.995, 0.005},
	}
	picks, err := Next(p, &Settings{Budget: 1, Stop: 0.999, Pool: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(picks) != 1 || picks[0].Worker != 2 || picks[0].Gain != 0 {
		t.Errorf("picks %+v, want worker 2 at gain 0", picks)
	}
}
