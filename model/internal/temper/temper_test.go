package temper

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/latent"
)

// rows returns n rows of K held-out log predictions loo (peaked on
// one class, some of them −∞ and ±0) and predictions pc.
func rows(n, k int) (loo, pc []float64) {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	loo, pc = make([]float64, n*k), make([]float64, n*k)
	for i := range n {
		var s float64
		for z := range k {
			v := -rng.ExpFloat64() * 8
			switch rng.IntN(50) {
			case 0:
				v = math.Inf(-1)
			case 1:
				v = 0
			case 2:
				v = math.Copysign(0, -1)
			}
			loo[i*k+z] = v
			// Tied to loo, flatter: a τ below 1 predicts them best.
			pc[i*k+z] = math.Exp(0.3*v) + 0.01*rng.Float64()
			s += pc[i*k+z]
		}
		for z := range k {
			pc[i*k+z] /= s
		}
	}
	return loo, pc
}

// scoreLoop is Score for K > 2 a row at a time, as it was
// before the exponentials were taken in one call: the reference its
// values must equal bit for bit.
func scoreLoop(loo, pc []float64, k int) func(tau float64) float64 {
	x := make([]float64, k)
	return func(tau float64) float64 {
		prod := num.NewProduct()
		for i := 0; i < len(loo); i += k {
			top := math.Inf(-1)
			for z := range k {
				x[z] = tau * loo[i+z]
				top = max(top, x[z])
			}
			var pred, den float64
			for z := range k {
				e := math.Exp(x[z] - top)
				den += e
				pred += e * pc[i+z]
			}
			prod.Mul(max(pred/den, 1e-300))
		}
		return prod.Log()
	}
}

// TestScore checks that Score's values at K = 3 and 10 are bit
// for bit those of the score taken a row at a time (scoreLoop), at
// τ from Min to 1, on 3,001 rows (three blocks, the last one short)
// with −∞ and signed zeros, some scaled so far that exponentials
// underflow.
func TestScore(t *testing.T) {
	for _, k := range []int{3, 10} {
		for _, scale := range []float64{1, 200} {
			loo, pc := rows(3001, k)
			for i := range loo {
				loo[i] *= scale
			}
			got, want := Score(loo, pc, k), scoreLoop(loo, pc, k)
			for _, tau := range []float64{Min, 0.1, 0.3, 0.7, Max} {
				if g, w := got(tau), want(tau); math.Float64bits(g) != math.Float64bits(w) {
					t.Errorf("K = %d, scale %g, τ = %g: score %v, a row at a time %v", k, scale, tau, g, w)
				}
			}
			t.Logf("K = %d, scale %g: Best's τ %v", k, scale, Best(loo, pc, k))
		}
	}
}

// BenchmarkScore times a score of Best's search on 40,000
// rows at K = 10, the default's calibration on the speed target's data:
// Score's, and a row at a time (scoreLoop).
func BenchmarkScore(b *testing.B) {
	loo, pc := rows(40000, 10)
	for _, c := range []struct {
		name  string
		score func(float64) float64
	}{{"Score", Score(loo, pc, 10)}, {"row at a time", scoreLoop(loo, pc, 10)}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.score(0.5)
			}
		})
	}
}

// TestRows checks Rows on three rows: tempered by τ and mixed with the
// floor, left alone where the task's class is known.
func TestRows(t *testing.T) {
	for _, c := range []struct {
		tau, floor float64
		want       []float64
	}{
		{1, 0, []float64{0.8, 0.2, 0.5, 0.5, 0, 1}},
		{0.5, 0, []float64{2.0 / 3, 1.0 / 3, 0.5, 0.5, 0, 1}},
		{1, 0.1, []float64{0.77, 0.23, 0.5, 0.5, 0, 1}},
	} {
		probs := []float64{0.8, 0.2, 0.5, 0.5, 0, 1}
		Rows(probs, 2, []int{-1, -1, 1}, c.tau, c.floor)
		for i, p := range probs {
			if math.Abs(p-c.want[i]) > 1e-12 {
				t.Errorf("τ %v, floor %v: %v, want %v", c.tau, c.floor, probs, c.want)
				break
			}
		}
	}
}

// TestBest checks that Best recovers the temperature τ₀ ≤ 1 at which
// classes were drawn from posteriors ρ_i, t_i ~ softmax(τ₀ log ρ_i), with
// one-hot rows pc (the gold classes of calibrate.Gold), at two and three
// classes.
func TestBest(t *testing.T) {
	for _, c := range []struct {
		k   int
		tau float64
	}{
		{2, 0.3}, {2, 0.6}, {2, 1},
		{3, 0.3}, {3, 0.6}, {3, 1},
	} {
		rng := rand.New(rand.NewPCG(uint64(c.k), uint64(100*c.tau)))
		const n = 20000
		loo, hot := make([]float64, n*c.k), make([]float64, n*c.k)
		p := make([]float64, c.k)
		for i := range n {
			row := loo[i*c.k : (i+1)*c.k]
			var s float64
			for z := range row {
				row[z] = 3 * rng.NormFloat64()
				p[z] = math.Exp(c.tau * row[z])
				s += p[z]
			}
			for z := range p {
				p[z] /= s
			}
			hot[i*c.k+latent.Draw(rng, p)] = 1
		}
		if got := Best(loo, hot, c.k); math.Abs(got/c.tau-1) > 0.1 {
			t.Errorf("K = %d, τ₀ = %g: Best = %.3f", c.k, c.tau, got)
		}
	}
}

// TestBestFewGold checks that a handful of gold tasks on which
// the consensus is right leaves τ at 1 rather than sharpening every
// posterior to the search's end.
func TestBestFewGold(t *testing.T) {
	loo, hot := make([]float64, 0, 10), make([]float64, 0, 10)
	for range 5 {
		loo = append(loo, math.Log(0.8), math.Log(0.2))
		hot = append(hot, 1, 0)
	}
	if got := Best(loo, hot, 2); got != 1 {
		t.Errorf("five right gold tasks: Best = %g, want 1", got)
	}
}
