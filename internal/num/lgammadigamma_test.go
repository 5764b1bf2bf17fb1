package num

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLgammaDigammaTo checks LgammaDigammaTo on arguments from 10⁻⁶ to
// 10⁶, log-uniform, and on the integers and half-integers around the
// shift: log Γ within 10⁻¹³ of max(1, |value|) of math.Lgamma's, ψ within
// 10⁻¹⁰ of Digamma's (gonum's series is accurate to about 5·10⁻¹¹), and ψ
// within 10⁻¹³ of its exact values at the integers and half-integers,
// ψ(n) = H_{n−1} − γ and ψ(n + ½) = 2 Σ_{i≤n} 1/(2i − 1) − γ − 2 log 2;
// and every value bit for bit its formulas' one argument at a time.
func TestLgammaDigammaTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var x []float64
	for range 20000 {
		x = append(x, math.Exp(rng.Float64()*math.Log(1e12))*1e-6)
	}
	for v := 0.5; v <= 12; v += 0.5 {
		x = append(x, v, math.Nextafter(v, 0), math.Nextafter(v, 20))
	}
	lg, ps := make([]float64, len(x)), make([]float64, len(x))
	LgammaDigammaTo(lg, ps, x)
	var worstL, worstP float64
	for i, v := range x {
		wl, _ := math.Lgamma(v)
		wp := Digamma(v)
		dl := math.Abs(lg[i]-wl) / max(1, math.Abs(wl))
		dp := math.Abs(ps[i]-wp) / max(1, math.Abs(wp))
		worstL, worstP = max(worstL, dl), max(worstP, dp)
		if dl > 1e-13 || dp > 1e-10 {
			t.Errorf("x = %g: log Γ %.17g (math.Lgamma %.17g), ψ %.17g (Digamma %.17g)", v, lg[i], wl, ps[i], wp)
		}
	}
	t.Logf("worst relative differences: log Γ %.2g, ψ %.2g", worstL, worstP)
	for i, v := range x {
		if wl, wp := lgammaDigammaOne(v); math.Float64bits(lg[i]) != math.Float64bits(wl) || math.Float64bits(ps[i]) != math.Float64bits(wp) {
			t.Errorf("x = %g: log Γ %.17g, ψ %.17g; one at a time %.17g, %.17g", v, lg[i], ps[i], wl, wp)
		}
	}
	const euler = 0.57721566490153286061
	h, odd := 0.0, 0.0 // H_{n−1} and Σ_{i≤n} 1/(2i − 1)
	for n := 1; n <= 30; n++ {
		odd += 1 / float64(2*n-1)
		args := []float64{float64(n), float64(n) + 0.5}
		want := []float64{h - euler, 2*odd - euler - 2*math.Ln2}
		LgammaDigammaTo(lg[:2], ps[:2], args)
		for i := range args {
			if math.Abs(ps[i]-want[i]) > 1e-13*max(1, math.Abs(want[i])) {
				t.Errorf("ψ(%g) = %.17g, want %.17g", args[i], ps[i], want[i])
			}
		}
		h += 1 / float64(n)
	}
}

// lgammaDigammaOne is LgammaDigammaTo's formulas for one argument, in
// their order, for the check that the batches give the same values bit
// for bit.
func lgammaDigammaOne(v float64) (lg, ps float64) {
	u, prod, inv := v, 1.0, 0.0
	for ; u < gammaShift; u++ {
		prod *= u
		inv += 1 / u
	}
	lu := math.Log(u)
	r := 1 / u
	r2 := r * r
	lg = (u-0.5)*lu - u + 0.5*math.Log(2*math.Pi) +
		r*(1.0/12-r2*(1.0/360-r2*(1.0/1260-r2*(1.0/1680-r2/1188)))) - math.Log(prod)
	ps = lu - 0.5*r - r2*(1.0/12-r2*(1.0/120-r2*(1.0/252-r2*(1.0/240-r2/132)))) - inv
	return lg, ps
}

// BenchmarkLgammaDigammaTo times LgammaDigammaTo on 20,000 arguments
// log-uniform from 0.3 to 60, most of them shifted up to 10 by the
// recurrences: the spread of the Dirichlet errors' pseudo-counts at 10
// classes (dirichlet.Errors.Fill).
func BenchmarkLgammaDigammaTo(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := make([]float64, 20000)
	for i := range x {
		x[i] = 0.3 * math.Exp(rng.Float64()*math.Log(200))
	}
	lg, ps := make([]float64, len(x)), make([]float64, len(x))
	for b.Loop() {
		LgammaDigammaTo(lg, ps, x)
	}
}
