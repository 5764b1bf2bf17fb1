package noise

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distmv"

	"github.com/consensuslab/consensus/noise/internal/dirichlet"
	"github.com/consensuslab/consensus/noise/internal/dsmix"
)

// TestSymmetricUnlessSupported draws every worker's confusion rows from a
// Dirichlet prior β_z, K = 5, with errors that are symmetric or that fall
// on the neighbouring classes, and checks that learnPrior keeps the
// pattern of the second and not of the first: a symmetric crowd's learned
// rows have equal errors, a patterned crowd's keep their neighbours'
// errors at least twice the others'.
func TestSymmetricUnlessSupported(t *testing.T) {
	const k, workers, perRow = 5, 400, 12
	symmetric := func(z, y int) float64 {
		if y == z {
			return 6
		}
		return 1
	}
	for _, tc := range []struct {
		name    string
		prior   func(z, y int) float64
		pattern bool
	}{
		{"symmetric", symmetric, false},
		{"neighbours", neighbourRows, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acc := drawRowCounts(rand.New(rand.NewPCG(3, 4)), tc.prior, k, workers, perRow)
			v := DS{SharedPrior: true}.newSharedPosteriorForTest(k, workers)
			for range 20 {
				v.learnPrior(acc)
			}
			for z := range k {
				row := v.beta[z*k : (z+1)*k]
				lo, hi := math.Inf(1), 0.0
				for y, b := range row {
					if y != z {
						lo, hi = min(lo, b), max(hi, b)
					}
				}
				if kept := hi > lo*(1+1e-12); kept != tc.pattern {
					t.Errorf("row %d: β_z = %.3f: pattern kept %v, want %v", z, row, kept, tc.pattern)
				}
				if !tc.pattern {
					continue
				}
				for y, b := range row {
					if d := y - z; (d == 1 || d == -1) && b < 2*lo {
						t.Errorf("row %d: β_z = %.3f: neighbour %d not above twice the least error", z, row, y)
					}
				}
			}
		})
	}
}

// drawRowCounts draws every worker's confusion rows π_wz ~
// Dirichlet(prior(z, ·)) and then perRow labels a row from π_wz, and
// returns the counts in noise's accumulator layout (countAt).
func drawRowCounts(rng *rand.Rand, prior func(z, y int) float64, k, workers, perRow int) []float64 {
	acc := make([]float64, workers*k*k)
	beta := make([]float64, k)
	for w := range workers {
		for z := range k {
			for y := range k {
				beta[y] = prior(z, y)
			}
			pi := distmv.NewDirichlet(beta, rng).Rand(nil)
			for range perRow {
				u, y := rng.Float64(), 0
				for y < k-1 && u >= pi[y] {
					u -= pi[y]
					y++
				}
				acc[countAt(w*k*k, k, z, y)]++
			}
		}
	}
	return acc
}

// TestPatternOfBetterThanChance checks the rows the one-coin and
// per-class kinds take their pattern from (dsVB.pat): on a crowd of 360
// workers whose errors fall on both neighbouring classes alike and 40
// adversaries who report the class after the one they saw, rows learned
// from every worker raise the errors on the next class above those on the
// class before, and rows learned from the workers better than chance
// (dsmix.BetterThanChance) do not; it gives the adversaries weight
// near 0, the others near 1, and every worker 1 at K = 2.
func TestPatternOfBetterThanChance(t *testing.T) {
	const k, honest, adversaries, perRow = 5, 360, 40, 12
	next := func(z, y int) float64 {
		switch y {
		case (z + 1) % k:
			return 12
		case z:
			return 0.3
		}
		return 1
	}
	rng := rand.New(rand.NewPCG(5, 6))
	acc := append(drawRowCounts(rng, neighbourRows, k, honest, perRow),
		drawRowCounts(rng, next, k, adversaries, perRow)...)
	omega := dsmix.BetterThanChance(acc, k, honest+adversaries)
	for w, o := range omega {
		if adv := w >= honest; adv && o > 0.05 || !adv && o < 0.9 {
			t.Errorf("worker %d (adversary %t): weight %.3f", w, adv, o)
		}
	}
	for _, o := range dsmix.BetterThanChance(make([]float64, 3*4), 2, 3) {
		if o != 1 {
			t.Errorf("K = 2: weight %v, want 1", o)
		}
	}
	// The errors on the next class against those on the class before,
	// over the rows with both.
	skew := func(rows []float64) float64 {
		var after, before float64
		for z := 1; z < k-1; z++ {
			after += rows[z*k+z+1]
			before += rows[z*k+z-1]
		}
		return after / before
	}
	for _, tc := range []struct {
		name   string
		omega  []float64
		lo, hi float64
	}{
		{"every worker", nil, 1.2, math.Inf(1)},
		{"better than chance", omega, 0.85, 1.15},
	} {
		rows := startPrior(k, 2, 1)
		for range 20 {
			learnRows(rows, acc, k, honest+adversaries, tc.omega, make([]dirichlet.RowCounts, k))
		}
		s := skew(rows)
		t.Logf("%s: errors on the next class %.3f times those on the class before", tc.name, s)
		if s < tc.lo || s > tc.hi {
			t.Errorf("%s: errors on the next class %.3f times those on the class before, want in [%v, %v]", tc.name, s, tc.lo, tc.hi)
		}
	}
}

// neighbourRows is the prior of rows whose errors fall mostly on the
// neighbouring classes: pseudo-count 6 on the diagonal, 1.6 next to it,
// 0.2 elsewhere.
func neighbourRows(z, y int) float64 {
	switch d := y - z; {
	case d == 0:
		return 6
	case d == 1 || d == -1:
		return 1.6
	default:
		return 0.2
	}
}
