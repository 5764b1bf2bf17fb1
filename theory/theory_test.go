package theory

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestPaperExample(t *testing.T) {
	// Section 2: 210 workers, a = 0.8, uniform prior, 110 ones, 100 zeros.
	p := LAPosterior(110, 210, 0.8, 0.5)
	if !(p > 1-math.Exp2(-20)) {
		t.Errorf("LAPosterior = %v, want > 1 - 2^-20", p)
	}
	a10, b10 := math.Pow(0.8, 10), math.Pow(0.2, 10)
	if want := a10 / (a10 + b10); math.Abs(p-want) > 1e-15 {
		t.Errorf("LAPosterior = %v, want a^10/(a^10+(1-a)^10) = %v", p, want)
	}
	q := DAEstimate(110, 210, 0.8)
	if got := math.Round(q*1e4) / 1e4; got != 0.5397 {
		t.Errorf("DAEstimate = %v, want 0.5397 to 4 decimals", q)
	}
	// Independently: the likelihood 110 log f(p) + 100 log(1 - f(p)) with
	// f(p) = 0.8p + 0.2(1-p) is maximal where its derivative
	// 0.6·(110/f - 100/(1-f)) vanishes; find that zero by bisection.
	lo, hi := 0.0, 1.0
	for range 100 {
		m := (lo + hi) / 2
		if f := 0.8*m + 0.2*(1-m); 110/f-100/(1-f) > 0 {
			lo = m
		} else {
			hi = m
		}
	}
	if math.Abs(q-lo) > 1e-14 {
		t.Errorf("DAEstimate = %v, likelihood maximum at %v", q, lo)
	}
}

// naivePosterior is the paper's formula evaluated directly.
func naivePosterior(n1, n int, a, r float64) float64 {
	num := r * math.Pow(a, float64(n1)) * math.Pow(1-a, float64(n-n1))
	return num / (num + (1-r)*math.Pow(1-a, float64(n1))*math.Pow(a, float64(n-n1)))
}

func TestLAPosteriorNaive(t *testing.T) {
	for _, a := range []float64{0.05, 0.3, 0.5, 0.6, 0.8, 0.99} {
		for _, r := range []float64{0.1, 0.5, 0.75} {
			for n := range 13 {
				for n1 := 0; n1 <= n; n1++ {
					got, want := LAPosterior(n1, n, a, r), naivePosterior(n1, n, a, r)
					if math.Abs(got-want) > 1e-13*math.Max(1, math.Abs(want)) {
						t.Errorf("LAPosterior(%d, %d, %v, %v) = %v, want %v", n1, n, a, r, got, want)
					}
				}
			}
		}
	}
}

func TestLAPosteriorSpecial(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n1, n int
		a, r  float64
		want  float64
	}{
		{"n=10000 balanced", 5000, 10000, 0.8, 0.5, 0.5},
		{"n=10000 one more one", 5001, 10000, 0.8, 0.5, 0.64 / 0.68},
		{"n=10000 balanced prior", 5000, 10000, 0.8, 0.3, 0.3},
		{"n=10000 mostly ones", 6000, 10000, 0.8, 0.5, 1},
		{"n=10000 mostly zeros", 4000, 10000, 0.8, 0.5, 0},
		{"n=10000 all ones", 10000, 10000, 0.6, 0.01, 1},
		{"no labels", 0, 0, 0.8, 0.3, 0.3},
		{"uninformative workers", 7, 9, 0.5, 0.2, 0.2},
		{"prior 0", 5, 5, 0.9, 0, 0},
		{"prior 1", 0, 5, 0.9, 1, 1},
		{"perfect workers, all ones", 4, 4, 1, 0.5, 1},
		{"perfect workers, all zeros", 0, 4, 1, 0.5, 0},
		{"adversarial workers, all zeros", 0, 4, 0, 0.5, 1},
		{"perfect workers disagree", 2, 4, 1, 0.5, math.NaN()},
		{"impossible under the prior", 4, 4, 1, 0, math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := LAPosterior(tc.n1, tc.n, tc.a, tc.r)
			if math.IsNaN(tc.want) != math.IsNaN(got) || math.Abs(got-tc.want) > 1e-15 {
				t.Errorf("LAPosterior(%d, %d, %v, %v) = %v, want %v", tc.n1, tc.n, tc.a, tc.r, got, tc.want)
			}
		})
	}
}

// naiveExpectedLA evaluates the second line of the paper's equation for
// E(q̂^LA) directly, with exact binomial coefficients.
func naiveExpectedLA(q, a, r float64, n int) float64 {
	f := q*a + (1-q)*(1-a)
	var sum float64
	for n1 := 0; n1 <= n; n1++ {
		c, _ := new(big.Float).SetInt(new(big.Int).Binomial(int64(n), int64(n1))).Float64()
		m1, m0 := float64(n1), float64(n-n1)
		w := c * math.Pow(f, m1) * math.Pow(1-f, m0)
		den := r*math.Pow(a, m1)*math.Pow(1-a, m0) + (1-r)*math.Pow(1-a, m1)*math.Pow(a, m0)
		sum += w / den * r * math.Pow(a, m1) * math.Pow(1-a, m0)
	}
	return sum
}

func TestExpectedLANaive(t *testing.T) {
	for _, n := range []int{1, 2, 5, 10, 20} {
		for _, a := range []float64{0.55, 0.7, 0.9} {
			for _, r := range []float64{0.5, 0.2} {
				for _, q := range []float64{0, 0.1, 0.35, 0.5, 0.8, 1} {
					got, want := ExpectedLA(q, a, r, n), naiveExpectedLA(q, a, r, n)
					if math.Abs(got-want) > 1e-13 {
						t.Errorf("ExpectedLA(%v, %v, %v, %d) = %v, want %v", q, a, r, n, got, want)
					}
				}
			}
		}
	}
}

// TestExpectedLAMonteCarlo simulates the DA generating process label by
// label: each worker draws a subjective label z ~ Ber(q) and reports it
// correctly with probability a.
func TestExpectedLAMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const reps = 200000
	for _, tc := range []struct {
		q, a, r float64
		n       int
	}{
		{0.3, 0.7, 0.5, 10},
		{0.65, 0.8, 0.3, 15},
	} {
		var sum float64
		for range reps {
			n1 := 0
			for range tc.n {
				z := rng.Float64() < tc.q
				if rng.Float64() >= tc.a {
					z = !z
				}
				if z {
					n1++
				}
			}
			sum += LAPosterior(n1, tc.n, tc.a, tc.r)
		}
		// The standard error is at most 0.5/√reps ≈ 0.0011.
		mc, got := sum/reps, ExpectedLA(tc.q, tc.a, tc.r, tc.n)
		if math.Abs(mc-got) > 0.005 {
			t.Errorf("ExpectedLA(%v, %v, %v, %d) = %v, Monte Carlo %v", tc.q, tc.a, tc.r, tc.n, got, mc)
		}
	}
}

// TestExpectedLABias checks Proposition 1 at n = 20: the LA estimate is
// pulled towards 0 below q = 1/2 and towards 1 above it.
func TestExpectedLABias(t *testing.T) {
	for _, q := range []float64{0.1, 0.3, 0.7, 0.9} {
		e := ExpectedLA(q, 0.8, 0.5, 20)
		if math.Abs(e-q) < 0.05 || (e-q)*(q-0.5) < 0 {
			t.Errorf("ExpectedLA(%v, 0.8, 0.5, 20) = %v, want pulled away from 1/2 by more than 0.05", q, e)
		}
	}
}

func TestExpectedLASymmetry(t *testing.T) {
	for _, n := range []int{1, 4, 5, 20, 301} {
		for _, a := range []float64{0.3, 0.6, 0.8, 0.95} {
			for _, q := range []float64{0, 0.05, 0.2, 0.45, 0.5} {
				e, f := ExpectedLA(q, a, 0.5, n), ExpectedLA(1-q, a, 0.5, n)
				if math.Abs(f-(1-e)) > 1e-12 {
					t.Errorf("n=%d a=%v: E(1-q=%v) = %v, 1 - E(q) = %v", n, a, 1-q, f, 1-e)
				}
			}
		}
	}
}

func TestExpectedLAConvergence(t *testing.T) {
	for _, a := range []float64{0.7, 0.8, 0.9, 0.2} {
		for _, r := range []float64{0.5, 0.2} {
			for _, q := range []float64{0, 0.1, 0.3, 0.7, 0.9, 1} {
				lim := LimitLA(q, a, r)
				far, near := ExpectedLA(q, a, r, 20), ExpectedLA(q, a, r, 2000)
				if math.Abs(near-lim) > 1e-3 {
					t.Errorf("ExpectedLA(%v, %v, %v, 2000) = %v, limit %v", q, a, r, near, lim)
				}
				if math.Abs(near-lim) > math.Abs(far-lim) {
					t.Errorf("q=%v a=%v r=%v: farther from the limit at n=2000 (%v) than at n=20 (%v)", q, a, r, near, far)
				}
			}
		}
	}
}

// TestLimitLAAtHalf documents that at q = 1/2 the paper's limit r is not
// the limit of the expectation: q̂^LA goes to 0 or 1 with probability 1/2
// each.
func TestLimitLAAtHalf(t *testing.T) {
	if got := LimitLA(0.5, 0.8, 0.3); got != 0.3 {
		t.Errorf("LimitLA(0.5, 0.8, 0.3) = %v, want the paper's r = 0.3", got)
	}
	e := ExpectedLA(0.5, 0.8, 0.3, 2001)
	if math.Abs(e-0.5) > 0.01 {
		t.Errorf("ExpectedLA(0.5, 0.8, 0.3, 2001) = %v, want about 1/2", e)
	}
	// Most of the mass of q̂^LA is near 0 or 1.
	extreme := Expectation(0.5, 0.8, 2000, func(n1 int) float64 {
		if p := LAPosterior(n1, 2000, 0.8, 0.3); p < 0.01 || p > 0.99 {
			return 1
		}
		return 0
	})
	if extreme < 0.9 {
		t.Errorf("P(q̂^LA < 0.01 or > 0.99) = %v at n = 2000, want > 0.9", extreme)
	}
}

func TestLimitLA(t *testing.T) {
	for _, tc := range []struct {
		q, a, r, want float64
	}{
		{0.2, 0.8, 0.5, 0},
		{0.49, 0.8, 0.9, 0},
		{0.51, 0.8, 0.1, 1},
		{1, 0.6, 0.5, 1},
		{0.5, 0.8, 0.7, 0.7},
		{0.2, 0.3, 0.5, 0}, // a < 1/2 known: same limit
		{0.9, 0.5, 0.4, 0.4},
		{0.9, 0.8, 0, 0},
		{0.1, 0.8, 1, 1},
	} {
		if got := LimitLA(tc.q, tc.a, tc.r); got != tc.want {
			t.Errorf("LimitLA(%v, %v, %v) = %v, want %v", tc.q, tc.a, tc.r, got, tc.want)
		}
	}
}

func TestDAUnbiased(t *testing.T) {
	for _, n := range []int{1, 2, 7, 50, 1000} {
		for _, a := range []float64{0.55, 0.8, 1, 0.2, 0} {
			for _, q := range []float64{0, 0.1, 0.37, 0.5, 0.9, 1} {
				got := Expectation(q, a, n, func(n1 int) float64 { return DAUnclipped(n1, n, a) })
				if math.Abs(got-q) > 1e-12 {
					t.Errorf("E[DAUnclipped] n=%d a=%v q=%v = %v, want q", n, a, q, got)
				}
			}
		}
	}
}

func TestExpectedDA(t *testing.T) {
	// Against a direct sum with exact binomial coefficients.
	for _, n := range []int{1, 3, 10, 25} {
		for _, a := range []float64{0.6, 0.85} {
			for _, q := range []float64{0, 0.2, 0.5, 0.95} {
				f := q*a + (1-q)*(1-a)
				var want float64
				for n1 := 0; n1 <= n; n1++ {
					c, _ := new(big.Float).SetInt(new(big.Int).Binomial(int64(n), int64(n1))).Float64()
					est := math.Min(1, math.Max(0, (float64(n1)/float64(n)-(1-a))/(2*a-1)))
					want += c * math.Pow(f, float64(n1)) * math.Pow(1-f, float64(n-n1)) * est
				}
				if got := ExpectedDA(q, a, n); math.Abs(got-want) > 1e-13 {
					t.Errorf("ExpectedDA(%v, %v, %d) = %v, want %v", q, a, n, got, want)
				}
			}
		}
	}
	// Clipping biases the estimate near 0 and 1, symmetrically.
	for _, n := range []int{5, 20} {
		lo, hi := ExpectedDA(0, 0.8, n), ExpectedDA(1, 0.8, n)
		if !(lo > 0.01) || math.Abs(hi-(1-lo)) > 1e-12 {
			t.Errorf("n=%d: ExpectedDA(0) = %v, ExpectedDA(1) = %v, want a bias >0.01, symmetric", n, lo, hi)
		}
		if got := ExpectedDA(0.5, 0.8, n); math.Abs(got-0.5) > 1e-12 {
			t.Errorf("n=%d: ExpectedDA(0.5) = %v, want 0.5", n, got)
		}
	}
	// Away from the bounds the clipping almost never binds for large n.
	if got := ExpectedDA(0.3, 0.8, 2000); math.Abs(got-0.3) > 1e-9 {
		t.Errorf("ExpectedDA(0.3, 0.8, 2000) = %v, want 0.3", got)
	}
}

func TestDAEstimate(t *testing.T) {
	for _, tc := range []struct {
		n1, n int
		a     float64
		want  float64
	}{
		{5, 10, 0.8, 0.5},
		{0, 10, 0.8, 0},  // clipped from -1/3
		{1, 10, 0.8, 0},  // clipped from -1/6
		{10, 10, 0.8, 1}, // clipped from 4/3
		{8, 10, 0.8, 1},
		{7, 10, 1, 0.7},
		{7, 10, 0, 0.3},
		{2, 10, 0.2, 1},
	} {
		if got := DAEstimate(tc.n1, tc.n, tc.a); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("DAEstimate(%d, %d, %v) = %v, want %v", tc.n1, tc.n, tc.a, got, tc.want)
		}
	}
	if got := DAUnclipped(0, 10, 0.8); math.Abs(got+1./3) > 1e-15 {
		t.Errorf("DAUnclipped(0, 10, 0.8) = %v, want -1/3", got)
	}
}

func TestLabelProb(t *testing.T) {
	if got := LabelProb(0.25, 0.8); math.Abs(got-(0.2+0.15)) > 1e-15 {
		t.Errorf("LabelProb(0.25, 0.8) = %v, want 0.35", got)
	}
	for _, q := range []float64{0, 0.3, 1} {
		// f⁻¹(s) = (s - (1-a))/(2a - 1) undoes f.
		if got := (LabelProb(q, 0.8) - 0.2) / 0.6; math.Abs(got-q) > 1e-15 {
			t.Errorf("f⁻¹(f(%v)) = %v", q, got)
		}
	}
}

func TestPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"n1 > n", func() { LAPosterior(3, 2, 0.8, 0.5) }},
		{"n1 < 0", func() { LAPosterior(-1, 2, 0.8, 0.5) }},
		{"a > 1", func() { LAPosterior(1, 2, 1.1, 0.5) }},
		{"r NaN", func() { LAPosterior(1, 2, 0.8, math.NaN()) }},
		{"q < 0", func() { ExpectedLA(-0.1, 0.8, 0.5, 3) }},
		{"n < 0", func() { ExpectedLA(0.1, 0.8, 0.5, -1) }},
		{"ExpectedLA r", func() { ExpectedLA(0.1, 0.8, 2, 3) }},
		{"DA a = 1/2", func() { DAEstimate(1, 2, 0.5) }},
		{"DA n = 0", func() { DAEstimate(0, 0, 0.8) }},
		{"ExpectedDA a = 1/2", func() { ExpectedDA(0.3, 0.5, 5) }},
		{"ExpectedDA n = 0", func() { ExpectedDA(0.3, 0.8, 0) }},
		{"LimitLA a = 1", func() { LimitLA(0.3, 1, 0.5) }},
		{"LimitLA q", func() { LimitLA(1.5, 0.8, 0.5) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tc.f()
		})
	}
}
