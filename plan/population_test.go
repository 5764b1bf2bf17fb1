package plan

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/internal/num"
	"gonum.org/v1/gonum/integrate/quad"
)

// exactMarginal2 returns the exact log marginal likelihood of a worker's
// labels at K = 2 under the prior p with independent rows: label i has
// probability r_i(0)·a + r_i(1)·(1 − b) if y_i = 0 and r_i(0)·(1 − a) +
// r_i(1)·b if 1, a = π(0, 0) and b = π(1, 1) drawn from Beta(mu·conc, (1
// − mu)·conc). The likelihood is a polynomial of positive coefficients in
// a, 1 − a, b and 1 − b, whose terms the Beta integrals give exactly.
func exactMarginal2(labels []int32, y []uint16, r []float64, p symmetric) float64 {
	// c[m]: the labels 0, m of them counted by a, the rest by 1 − b; e[m]:
	// the labels 1, m of them counted by 1 − a, the rest by b; both in logs.
	c, e := []float64{0}, []float64{0}
	for _, i := range labels {
		poly := &c
		if y[i] == 1 {
			poly = &e
		}
		next := make([]float64, len(*poly)+1)
		for m := range next {
			next[m] = math.Inf(-1)
		}
		for m, v := range *poly {
			next[m+1] = num.LogSumExp([]float64{next[m+1], v + math.Log(r[2*i])})
			next[m] = num.LogSumExp([]float64{next[m], v + math.Log(r[2*i+1])})
		}
		*poly = next
	}
	al, be := p.mu*p.conc, (1-p.mu)*p.conc
	lb := func(a, b float64) float64 { return logBeta([]float64{a, b}) - logBeta([]float64{al, be}) }
	n0, n1 := float64(len(c)-1), float64(len(e)-1)
	out := math.Inf(-1)
	for m, cv := range c {
		for q, ev := range e {
			fm, fq := float64(m), float64(q)
			// a^m (1 − a)^q under a's prior, b^(n1 − q) (1 − b)^(n0 − m)
			// under b's.
			out = num.LogSumExp([]float64{out, cv + ev + lb(al+fm, be+fq) + lb(al+n1-fq, be+n0-fm)})
		}
	}
	return out
}

// TestWorkerMarginals checks the log marginal likelihoods of a worker's
// labels that Flags weighs against the same integrals computed another
// way: a one-coin prior's grid sum against Gauss-Legendre quadrature, a
// full-matrix prior's importance sample (400 draws, or more where the
// prior is sharp) against the exact sum of exactMarginal2 at K = 2, a
// spammer's against quadrature of the label distribution.
func TestWorkerMarginals(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, tc := range []struct {
		name   string
		n      int
		acc    float64 // the worker's accuracy, or −d for a spammer with P(y = 0) = d
		prior  symmetric
		form   int
		within float64
		draws  int
	}{
		{"coin, reliable", 40, 0.75, symmetric{0.75, 16}, formCoin, 1e-3, 0},
		{"coin, sharp prior", 40, 0.7, symmetric{0.55, 64}, formCoin, 1e-3, 0},
		{"coin, many labels", 400, 0.8, symmetric{0.8, 16}, formCoin, 1e-3, 0},
		{"coin, adversary", 40, 0.1, symmetric{0.2, 8}, formCoin, 1e-3, 0},
		{"full, reliable", 40, 0.75, symmetric{0.75, 16}, formFull, 0.1, 0},
		// A sharp prior takes many draws: 400 are within a nat.
		{"full, sharp prior", 60, 0.8, symmetric{0.8, 64}, formFull, 0.1, 200000},
		{"spam", 50, -0.3, symmetric{conc: 1}, formSpam, 1e-6, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Labels of tasks whose class posteriors from their other labels
			// are r; the true class drawn from them.
			labels := make([]int32, tc.n)
			y := make([]uint16, tc.n)
			r := make([]float64, 2*tc.n)
			for i := range labels {
				labels[i] = int32(i)
				r[2*i] = 0.05 + 0.9*rng.Float64()
				r[2*i+1] = 1 - r[2*i]
				z := 1
				if rng.Float64() < r[2*i] {
					z = 0
				}
				switch {
				case tc.acc < 0:
					y[i] = uint16(b2u(rng.Float64() >= -tc.acc))
				case rng.Float64() < tc.acc:
					y[i] = uint16(z)
				default:
					y[i] = uint16(1 - z)
				}
			}
			c := make([]float64, 4)
			for i := range labels {
				c[int(y[i])] += r[2*i]
				c[2+int(y[i])] += r[2*i+1]
			}
			draws := tc.draws
			if draws == 0 {
				draws = 400
			}
			s := sampleWorker(labels, y, r, c, 2, draws, 1, 1)
			comp := component{prior: tc.prior, form: tc.form}
			if tc.form == formCoin {
				comp.nodes = coinPrior(tc.prior)
			}
			got := s.logMarginal(comp, 2)
			var want float64
			switch tc.form {
			case formFull:
				want = exactMarginal2(labels, y, r, tc.prior)
			default:
				// log L at the top of the grid, to keep exp in range.
				lik := func(x float64) float64 {
					var l float64
					for i := range labels {
						a := r[2*i+int(y[i])]
						if tc.form == formSpam {
							// x is P(y = 0).
							l += math.Log(map[uint16]float64{0: x, 1: 1 - x}[y[i]])
						} else {
							l += math.Log(a*x + (1-a)*(1-x))
						}
					}
					return l
				}
				shift := math.Inf(-1)
				for g := range 1000 {
					shift = max(shift, lik((float64(g)+0.5)/1000))
				}
				al, be := tc.prior.mu*tc.prior.conc, (1-tc.prior.mu)*tc.prior.conc
				if tc.form == formSpam {
					al, be = 1, 1
				}
				f := func(x float64) float64 {
					return math.Exp(lik(x) - shift + (al-1)*math.Log(x) + (be-1)*math.Log1p(-x) - logBeta([]float64{al, be}))
				}
				want = shift + math.Log(quad.Fixed(f, 0, 1, 2000, quad.Legendre{}, 0))
			}
			if math.Abs(got-want) > tc.within || math.IsNaN(got) {
				t.Errorf("log marginal %.5f, want %.5f within %g", got, want, tc.within)
			}
		})
	}
}

// b2u returns 1 for true and 0 for false.
func b2u(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestFitPopulationShares checks that the shares of the three kinds that
// Flags fits to a crowd are those of the crowd that drew the labels, on
// crowds where every worker gives many labels.
func TestFitPopulationShares(t *testing.T) {
	for _, tc := range []struct{ k, labels int }{{2, 10}, {3, 10}} {
		t.Run(fmt.Sprintf("K%d", tc.k), func(t *testing.T) {
			c := Crowd{Tasks: 3000, Workers: 60, Classes: tc.k, LabelsPerTask: tc.labels, Spammers: 0.3, Adversaries: 0.1, Seed: 3}
			s, p := fitCrowd(t, c)
			counts, r := workerCounts(p)
			byWorker := s.Data.LabelsByWorker()
			samples := make([]*workerSample, len(byWorker))
			for w := range samples {
				samples[w] = sampleWorker(byWorker[w], s.Data.Label, r, counts[w], tc.k, 400, 1, uint64(w))
			}
			pop := fitPopulation(samples, tc.k, 0)
			var got [3]float64
			for _, c := range pop.comps {
				got[c.kind] += c.share
			}
			want := [3]float64{0.3, 0.6, 0.1}
			for kind := range got {
				if math.Abs(got[kind]-want[kind]) > 0.05 {
					t.Errorf("shares of the kinds (spammer, reliable, adversarial) %.3f, want %.2f within 0.05", got, want)
					break
				}
			}
		})
	}
}

// TestPick checks pick's bisection against its definition, the first index
// whose cumulative weight exceeds u times the last, on cumulative weights
// with zero weights (repeated values) at the start, inside and at the end.
func TestPick(t *testing.T) {
	for _, cdf := range [][]float64{
		{1},
		{0.5, 1},
		{0, 0, 0.3, 0.3, 0.3, 0.9, 1, 1},
		{0.2, 0.2, 0.7, 0.7},
		{0, 2, 2, 2, 5},
	} {
		for _, u := range []float64{0, 1e-12, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.9, 0.999999} {
			want := len(cdf) - 1
			for i, c := range cdf {
				if u*cdf[len(cdf)-1] < c {
					want = i
					break
				}
			}
			if got := pick(cdf, u); got != want {
				t.Errorf("pick(%v, %v) = %d, want %d", cdf, u, got, want)
			}
		}
	}
}
