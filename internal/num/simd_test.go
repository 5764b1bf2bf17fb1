package num

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sameBits reports whether a and b are the same number bit for bit, or
// both NaN.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// TestExpToGroups checks ExpTo against Exp bit for bit at every length up
// to 21 and with an argument that the four-at-a-time loop must leave to
// the scalar code (outside (-700, 700), infinite or NaN) at every
// position, so that every way of cutting a slice into groups is taken.
func TestExpToGroups(t *testing.T) {
	t.Logf("AVX2 loops: %v", haveAVX2)
	rng := rand.New(rand.NewPCG(5, 6))
	specials := []float64{math.NaN(), -700, 700, -745, 800, math.Inf(1), math.Inf(-1), 699.99, -699.99, 0, math.Copysign(0, -1)}
	checkGroups(t, "ExpTo", ExpTo, Exp, func() float64 { return (rng.Float64()*2 - 1) * 700 }, specials)
}

// TestLogToGroups checks LogTo against its scalar loop bit for bit: on a
// million arguments spread over every exponent (subnormals included) and
// on values at the table's entries, and at every length up to 21 with an
// argument that the four-at-a-time loop must leave to the scalar code
// (zero, subnormal, negative, infinite, NaN) at every position.
func TestLogToGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	scalar := func(v float64) float64 {
		d := []float64{v}
		logTo(d, d)
		return d[0]
	}
	x := make([]float64, 1<<20)
	for i := range x {
		switch i % 3 {
		case 0:
			x[i] = math.Float64frombits(rng.Uint64() &^ (1 << 63)) // any positive bits, NaN and Inf included
		case 1:
			x[i] = (1 + float64(rng.IntN(logN))/logN) * math.Ldexp(1, rng.IntN(64)-32) * (1 + (rng.Float64()-0.5)*1e-15)
		default:
			x[i] = rng.Float64() * math.Pow(2, float64(rng.IntN(2100)-1074))
		}
	}
	got := make([]float64, len(x))
	LogTo(got, x)
	for i, v := range x {
		if want := scalar(v); !sameBits(got[i], want) {
			t.Fatalf("LogTo(%v) = %v, its scalar loop %v", v, got[i], want)
		}
	}
	specials := []float64{0, math.Copysign(0, -1), -1, 5e-324, 0x1p-1022, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	checkGroups(t, "LogTo", LogTo, scalar, rng.ExpFloat64, specials)
}

// checkGroups checks the slice function f (ExpTo's signature) against the
// scalar function want bit for bit, at every length up to 21, with each
// special value at every position among arguments drawn by arg, into
// another slice and in place, and that f writes nothing past len(x): so
// that every way of cutting a slice into a vector loop's groups of four is
// taken, and every group that must go to the scalar code.
func checkGroups(t *testing.T, name string, f func(dst, x []float64), want func(float64) float64, arg func() float64, specials []float64) {
	t.Helper()
	for n := range 22 {
		for _, special := range specials {
			for p := range max(n, 1) {
				x := make([]float64, n)
				for i := range x {
					x[i] = arg()
				}
				if n > 0 {
					x[p] = special
				}
				dst := make([]float64, n+1)
				f(dst, x)
				in := slices.Clone(x)
				f(in, in)
				for i, v := range x {
					w := want(v)
					if !sameBits(dst[i], w) || !sameBits(in[i], w) {
						t.Fatalf("n=%d: %s(%v) = %v (in place %v), want %v", n, name, v, dst[i], in[i], w)
					}
				}
				if dst[n] != 0 {
					t.Fatalf("n=%d: %s wrote past len(x)", n, name)
				}
			}
		}
	}
}

// TestSigmoidPairOf checks σ(s) and σ(-s) against math.Exp to full
// relative precision, and the exact 0 and 1 beyond SigmoidLimit.
func TestSigmoidPairOf(t *testing.T) {
	for _, s := range []float64{0, 1e-12, -1e-12, 0.5, -0.5, 3, -3, 40, -40, 700, -700, 708, -708} {
		a, na := SigmoidPairOf(s)
		wantA, wantNA := 1/(1+math.Exp(-s)), 1/(1+math.Exp(s))
		if math.Abs(a-wantA) > 4e-16*wantA || math.Abs(na-wantNA) > 4e-16*wantNA {
			t.Errorf("SigmoidPairOf(%v) = (%v, %v), want (%v, %v)", s, a, na, wantA, wantNA)
		}
	}
	for _, c := range []struct{ s, a, na float64 }{
		{709, 1, 0}, {-709, 0, 1}, {math.Inf(1), 1, 0}, {math.Inf(-1), 0, 1},
		{math.Nextafter(SigmoidLimit, 1000), 1, 0}, {-math.Nextafter(SigmoidLimit, 1000), 0, 1},
	} {
		if a, na := SigmoidPairOf(c.s); a != c.a || na != c.na {
			t.Errorf("SigmoidPairOf(%v) = (%v, %v), want (%v, %v)", c.s, a, na, c.a, c.na)
		}
	}
	if a, na := SigmoidPairOf(math.NaN()); !math.IsNaN(a) || !math.IsNaN(na) {
		t.Errorf("SigmoidPairOf(NaN) = (%v, %v), want NaNs", a, na)
	}
}

// TestSigmoidPairs checks SigmoidPairs and SigmoidPairsAt (with labels 0
// to 5, so both parities) against SigmoidPairOf bit for bit,
// into another slice and in place (s the first half of dst), at every
// length up to 41 (the scalar loop's blocks are 32), with special values
// at every position: both zeros, the limit and the numbers beside it, the
// ends of the exponential's fast range, infinities and NaN.
func TestSigmoidPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	lim := SigmoidLimit
	specials := []float64{0, math.Copysign(0, -1), lim, -lim, math.Nextafter(lim, 0), -math.Nextafter(lim, 1000),
		700, -700, 700.5, -700.5, 699.99, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN()}
	for n := range 42 {
		for _, special := range specials {
			for p := range max(n, 1) {
				s := make([]float64, n)
				for i := range s {
					s[i] = rng.NormFloat64() * []float64{1, 30, 500}[i%3]
				}
				if n > 0 {
					s[p] = special
				}
				y := make([]uint16, n)
				for i := range y {
					y[i] = uint16(rng.IntN(6))
				}
				for _, at := range []bool{false, true} {
					pairs := func(dst, s []float64) {
						if at {
							SigmoidPairsAt(dst, s, y)
						} else {
							SigmoidPairs(dst, s)
						}
					}
					dst := make([]float64, 2*n+1)
					pairs(dst[:2*n], s)
					in := make([]float64, 2*n)
					copy(in, s)
					pairs(in, in[:n])
					for i, v := range s {
						a, na := SigmoidPairOf(v)
						if at && y[i]&1 == 1 {
							a, na = na, a
						}
						for _, got := range [][2]float64{{dst[2*i], dst[2*i+1]}, {in[2*i], in[2*i+1]}} {
							if !sameBits(got[0], a) || !sameBits(got[1], na) {
								t.Fatalf("n=%d, by label %v: pair of %v = %v, want (%v, %v)", n, at, v, got, a, na)
							}
						}
					}
					if dst[2*n] != 0 {
						t.Fatalf("n=%d: SigmoidPairs wrote past 2·len(s)", n)
					}
				}
			}
		}
	}
}

// BenchmarkSlices measures ExpTo and SigmoidPairs per element on 256
// arguments (a batch of the pass), with the scalar loops beside them.
func BenchmarkSlices(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	x := make([]float64, 256)
	for i := range x {
		x[i] = rng.NormFloat64() * 3
	}
	dst := make([]float64, 2*len(x))
	y := make([]uint16, len(x))
	for i := range y {
		y[i] = uint16(rng.IntN(2))
	}
	pos := make([]float64, len(x)) // arguments of the logarithms
	for i := range pos {
		pos[i] = math.Exp(x[i])
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"ExpTo", func() { ExpTo(dst, x) }},
		{"expTo", func() { expTo(dst, x) }},
		{"SigmoidPairs", func() { SigmoidPairs(dst, x) }},
		{"sigmoidPairs", func() { sigmoidPairs(dst, x) }},
		{"SigmoidPairsAt", func() { SigmoidPairsAt(dst, x, y) }},
		{"LogTo", func() { LogTo(dst, pos) }},
		{"logTo", func() { logTo(dst, pos) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/element")
		})
	}
}
