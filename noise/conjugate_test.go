package noise_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/noise"
)

// TestVariationalConformance checks every conjugate noise model's
// variational posterior on random data, for K = 2, 3 and 5: Prob, the
// exponential of the expected log probability, is positive and below the
// posterior mean (Jensen); Conditional is a distribution; Load(Params())
// restores the posterior; the KL divergence from the prior is zero with no
// counts and positive with some; and Accumulate adds as much weight as it
// is given (every label's weights sum to 1, so the counts sum to the
// number of labels).
func TestVariationalConformance(t *testing.T) {
	for _, m := range []noise.Conjugate{noise.DS{}, noise.OneCoin{}} {
		for _, k := range []int{2, 3, 5} {
			d := randomData(t, k)
			v := m.NewVariational(d)
			if kl := v.Update(make([]float64, v.AccDim())); math.Abs(kl) > 1e-12 {
				t.Errorf("%s K=%d: KL %g with no counts", m.Name(), k, kl)
			}
			v.Start(d.Frequencies())
			n := d.NumLabels()
			p := make([]float64, n*k)
			v.Prob(0, d.NumTasks(), p)
			// exp E[log P] is at most exp log E[P] = E[P] ≤ 1 (Jensen) and
			// positive; it is below the posterior mean Conditional gives.
			c0 := make([]float64, k)
			for i := 0; i < n; i++ {
				w, y := d.Worker[i], int(d.Label[i])
				for z := range k {
					v.Conditional(w, 0, z, c0)
					if got := p[i*k+z]; !(got > 0 && got <= c0[y]) {
						t.Fatalf("%s K=%d: exp E[log P(y|z)] %g, posterior mean %g", m.Name(), k, got, c0[y])
					}
				}
			}
			c := make([]float64, k)
			for z := range k {
				v.Conditional(d.Worker[0], 0, z, c)
				var s float64
				for _, x := range c {
					s += x
				}
				if math.Abs(s-1) > 1e-12 {
					t.Errorf("%s K=%d: conditional of z=%d sums to %g", m.Name(), k, z, s)
				}
			}
			rng := rand.New(rand.NewPCG(uint64(k), 9))
			g := make([]float64, n*k)
			for i := 0; i < n; i++ {
				var s float64
				for z := range k {
					g[i*k+z] = rng.Float64()
					s += g[i*k+z]
				}
				for z := range k {
					g[i*k+z] /= s
				}
			}
			acc := make([]float64, v.AccDim())
			v.Accumulate(0, d.NumTasks(), g, acc)
			var tot float64
			for _, x := range acc {
				tot += x
			}
			if math.Abs(tot-float64(n)) > 1e-9 {
				t.Errorf("%s K=%d: counts sum to %g for %d labels", m.Name(), k, tot, n)
			}
			if kl := v.Update(acc); !(kl > 0) {
				t.Errorf("%s K=%d: KL %g with counts", m.Name(), k, kl)
			}
			v.Prob(0, d.NumTasks(), p)
			w := m.NewVariational(d)
			w.Load(v.Params(nil))
			q := make([]float64, n*k)
			w.Prob(0, d.NumTasks(), q)
			for i := range p {
				if math.Abs(p[i]-q[i]) > 1e-12*p[i] {
					t.Fatalf("%s K=%d: Load(Params()) changes Prob %g to %g", m.Name(), k, p[i], q[i])
				}
			}
		}
	}
}
