package dsmix

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/consensuslab/consensus/noise/internal/dirichlet"
)

// classCounts returns the expected counts (laid out as dsVB's
// accumulator) of a crowd at K = 4 whose true classes are known: light
// one-coin workers of accuracy 0.8 with one label a class, then busy
// workers (perRow labels a class) whose accuracy depends on the class,
// 0.95 on classes 0 and 1 and 0.55 on 2 and 3, each with errors of its own
// (a row of weights drawn from Exp(1)), then busy adversaries who report
// the next class with probability 0.8.
func classCounts(light, class, adv, perRow int) (acc []float64, k int) {
	k = 4
	rng := rand.New(rand.NewPCG(5, 6))
	acc = make([]float64, (light+class+adv)*k*k)
	for w := range light + class + adv {
		base := w * k * k
		n := perRow
		if w < light {
			n = 1
		}
		for z := range k {
			// The worker's P(y | z) for this row.
			p := make([]float64, k)
			switch {
			case w < light:
				for y := range p {
					p[y] = 0.2 / float64(k-1)
				}
				p[z] = 0.8
			case w < light+class:
				var s float64
				for y := range p {
					if y != z {
						p[y] = rng.ExpFloat64()
						s += p[y]
					}
				}
				a := 0.95
				if z >= 2 {
					a = 0.55
				}
				for y := range p {
					p[y] *= (1 - a) / s
				}
				p[z] = a
			default:
				for y := range p {
					p[y] = 0.2 / float64(k-1)
				}
				p[(z+1)%k] = 0.8
			}
			for range n {
				u, y := rng.Float64(), 0
				for y < k-1 && u >= p[y] {
					u -= p[y]
					y++
				}
				acc[countAt(base, k, z, y)]++
			}
		}
	}
	return acc, k
}

// learned returns the mixture of classCounts's crowd after passes calls
// of learn: the fit carries the hyperparameters from one pass to the
// next.
func learned(passes int) *Mix {
	const light, class, adv = 200, 40, 10
	acc, k := classCounts(light, class, adv, 50)
	x := New(light+class+adv, k, DefaultPriorDiag, DefaultPriorOff)
	x.Counts(acc, k, func(z, y int) float64 { return 1 }, func(z, y int) float64 { return 1 })
	for range passes {
		x.Learn(k)
	}
	return x
}

// TestMixClassKind checks the kinds at K = 4 on a crowd of known classes:
// the busy workers whose accuracy depends on the class are of the
// per-class kind, the adversaries (whose errors follow no Dirichlet around
// the crowd's pattern) of the full kind, and the light workers not of the
// full kind. (With one label a class, a light worker's evidence hardly
// tells the one-coin kind from the per-class one, whose predictions for
// it are alike; here the shares make them mostly per-class.)
func TestMixClassKind(t *testing.T) {
	x := learned(20)
	mean := func(p []float64, lo, hi int) float64 {
		var s float64
		for _, v := range p[lo:hi] {
			s += v
		}
		return s / float64(hi-lo)
	}
	cl := x.cls
	light, class, full := mean(cl.m, 0, 200), mean(cl.m, 200, 240), mean(x.m, 240, 250)
	lightFull := mean(x.m, 0, 200)
	t.Logf("per-class: light %.3f, busy %.3f; full: light %.3f, adversaries %.3f; κ_o %.3g, κ_c %.3g", light, class, lightFull, full, cl.one.Kap, cl.cls.Kap)
	if class < 0.95 || full < 0.95 || lightFull > 0.1 {
		t.Errorf("kinds: busy per-class workers %.3f per-class, adversaries %.3f full, light workers %.3f per-class and %.3f full", class, full, light, lightFull)
	}
}

// TestMixClassPriorGradient checks that learn, carried over passes, ends
// at a stationary point of the Beta priors' joint objective
// (checkPriorsStationary) and of the likelihoods of the errors'
// precisions, Σ_w u_w E_w(κ) with u_w the worker's probability of the
// one-coin kind (κ_o) or of the per-class kind (κ_c), by their gradients
// in finite differences, for each value not at its bound.
func TestMixClassPriorGradient(t *testing.T) {
	x := learned(60)
	cl := x.cls
	k := cl.k
	coin := make([]float64, len(x.m))
	var scale float64
	for w, m := range x.m {
		coin[w] = 1 - m - cl.m[w]
		scale += 1
	}
	checkPriorsStationary(t, x)
	errs := func(u []float64) func([]float64) float64 {
		return func(p []float64) float64 {
			e := dirichlet.New(p[0], k, len(x.m))
			e.Fill(cl.counts(), x.lpat, &dirichlet.Scratch{})
			var l float64
			for w := range u {
				l += u[w] * e.Ev[w]
			}
			return l
		}
	}
	for _, c := range []struct {
		name string
		f    func([]float64) float64
		at   []float64
	}{
		{"κ_o", errs(coin), []float64{cl.one.Kap}},
		{"κ_c", errs(cl.m), []float64{cl.cls.Kap}},
	} {
		if sum(c.at) >= maxSharedConcentration*(1-1e-9) {
			t.Logf("%s = %.4g at the cap", c.name, c.at)
			continue
		}
		g := fd.Gradient(nil, c.f, c.at, &fd.Settings{Formula: fd.Central, Step: 1e-4})
		t.Logf("%s = %.4g, gradient %.3g", c.name, c.at, g)
		for i, v := range g {
			if math.Abs(v) > 1e-4*scale {
				t.Errorf("%s: gradient[%d] = %g at the learned value", c.name, i, v)
			}
		}
	}
}

// TestHoldPrecisions checks that Learn leaves the errors' precisions as
// they are while HoldPrecisions holds them, and learns the other values
// under them: on classCounts's crowd the precisions move from a start of
// 5 when free, and stay at 5 held while the kinds' shares are learned.
func TestHoldPrecisions(t *testing.T) {
	for _, held := range []bool{false, true} {
		const light, class, adv = 200, 40, 10
		acc, k := classCounts(light, class, adv, 50)
		x := New(light+class+adv, k, DefaultPriorDiag, DefaultPriorOff)
		x.cls.one.Kap, x.cls.cls.Kap = 5, 5
		x.Counts(acc, k, func(z, y int) float64 { return 1 }, func(z, y int) float64 { return 1 })
		x.HoldPrecisions(held)
		rho := x.rho
		for range 20 {
			x.Learn(k)
		}
		moved := x.cls.one.Kap != 5 || x.cls.cls.Kap != 5
		t.Logf("held %v: κ_o %.4g, κ_c %.4g, ρ %.3f → %.3f", held, x.cls.one.Kap, x.cls.cls.Kap, rho, x.rho)
		if moved == held {
			t.Errorf("held %v: precisions %.4g and %.4g, want them moved only when free", held, x.cls.one.Kap, x.cls.cls.Kap)
		}
		if x.rho == rho {
			t.Errorf("held %v: the full kind's share stayed at %.3f, want it learned", held, rho)
		}
	}
}
