package num

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
)

func TestTrigamma(t *testing.T) {
	// Exact values: ψ'(1/2) = π²/2, ψ'(n + 1) = π²/6 − Σ_{k ≤ n} 1/k².
	exact := func(n int) float64 {
		v := math.Pi * math.Pi / 6
		for k := 1; k <= n; k++ {
			v -= 1 / float64(k*k)
		}
		return v
	}
	cases := []struct{ x, want float64 }{
		{0.5, math.Pi * math.Pi / 2}, {1, exact(0)}, {2, exact(1)}, {6, exact(5)}, {7, exact(6)}, {31, exact(30)},
	}
	for _, c := range cases {
		if got := Trigamma(c.x); math.Abs(got-c.want) > 1e-11*c.want {
			t.Errorf("Trigamma(%g) = %.16g, want %.16g", c.x, got, c.want)
		}
	}
	// Elsewhere, against a finite difference of gonum's digamma (itself
	// accurate to about 10⁻⁸).
	for _, x := range []float64{0.01, 0.3, 2.5, 5.9, 40, 1e4} {
		want := fd.Derivative(Digamma, x, &fd.Settings{Formula: fd.Central, Step: 1e-4 * x})
		if got := Trigamma(x); math.Abs(got-want) > 1e-5*math.Abs(want) {
			t.Errorf("Trigamma(%g) = %g, finite difference %g", x, got, want)
		}
	}
}

func TestInvDigamma(t *testing.T) {
	for _, x := range []float64{1e-3, 0.05, 0.5, 1, 3, 17, 1e3, 1e6} {
		if got := InvDigamma(Digamma(x)); math.Abs(got-x) > 1e-10*x {
			t.Errorf("InvDigamma(Digamma(%g)) = %.15g", x, got)
		}
	}
}

func TestDirichletKL(t *testing.T) {
	cases := []struct{ a, b []float64 }{
		{[]float64{1, 2, 3}, []float64{1, 2, 3}},
		{[]float64{0.5, 4}, []float64{1, 1}},
		{[]float64{10, 1, 1, 1}, []float64{2, 1, 1, 1}},
	}
	for _, c := range cases {
		elog := make([]float64, len(c.a))
		DirichletExpLog(elog, c.a)
		kl := DirichletKL(c.a, c.b, elog, DirichletLogNorm(c.b))
		same := true
		for i := range c.a {
			same = same && c.a[i] == c.b[i]
		}
		if same && math.Abs(kl) > 1e-12 || !same && !(kl > 0) {
			t.Errorf("KL(%v ‖ %v) = %g", c.a, c.b, kl)
		}
	}
	// Beta(2, 1) against Beta(1, 1): E[log 2x] under density 2x is log 2 - 1/2.
	a, b := []float64{2, 1}, []float64{1, 1}
	elog := make([]float64, 2)
	DirichletExpLog(elog, a)
	if kl := DirichletKL(a, b, elog, DirichletLogNorm(b)); math.Abs(kl-(math.Ln2-0.5)) > 1e-12 {
		t.Errorf("KL(Beta(2,1) ‖ Beta(1,1)) = %g, want %g", kl, math.Ln2-0.5)
	}
}

// The fixed point recovers a Dirichlet's parameters from its exact mean
// log-coordinates.
func TestDirichletFixedPoint(t *testing.T) {
	for _, want := range [][]float64{{0.2, 0.5}, {3, 1, 0.5}, {30, 60, 10, 5}} {
		s := make([]float64, len(want))
		DirichletExpLog(s, want)
		a := make([]float64, len(want))
		for i := range a {
			a[i] = 1
		}
		DirichletFixedPoint(a, s, 1e-3, 1e4)
		for i := range a {
			if math.Abs(a[i]-want[i]) > 1e-6*want[i] {
				t.Errorf("want %v, got %v", want, a)
				break
			}
		}
	}
}
