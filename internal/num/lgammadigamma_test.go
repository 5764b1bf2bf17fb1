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
// ψ(n) = H_{n−1} − γ and ψ(n + ½) = 2 Σ_{i≤n} 1/(2i − 1) − γ − 2 log 2.
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
