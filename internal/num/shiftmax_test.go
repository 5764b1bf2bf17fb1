package num

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestShiftMaxRows compares ShiftMaxRows with MaxOf and a subtraction per
// element, bit for bit, on rows of every length up to 21 with a special
// number (NaNs of two payloads and signs, zeros of both signs, infinities)
// at every position, alone or twice, written to another slice and in place.
func TestShiftMaxRows(t *testing.T) {
	t.Logf("AVX2 loops: %v", haveAVX2)
	rng := rand.New(rand.NewPCG(3, 4))
	nan2 := math.Float64frombits(0x7ff8_0000_0000_0123)
	negNaN := math.Float64frombits(0xfff8_0000_0000_0042)
	specials := []float64{math.NaN(), nan2, negNaN, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 1e308, -1e308}
	for k := 1; k <= 21; k++ {
		for _, rows := range []int{1, 3} {
			for _, special := range specials {
				for p := range k {
					for _, twice := range []bool{false, true} {
						b := make([]float64, rows*k)
						for i := range b {
							b[i] = rng.NormFloat64() * 3
						}
						if rng.IntN(3) == 0 { // a row of zeros of both signs
							for i := range k {
								b[i] = math.Copysign(0, float64(rng.IntN(2))-0.5)
							}
						}
						row := (rows - 1) * k
						b[row+p] = special
						if twice {
							b[row+(p*7+3)%k] = specials[(p+1)%len(specials)]
						}
						want := make([]float64, len(b))
						for j := 0; j < len(b); j += k {
							m := MaxOf(b[j : j+k])
							for z := range k {
								want[j+z] = b[j+z] - m
							}
						}
						got := make([]float64, len(b))
						ShiftMaxRows(got, b, k)
						inPlace := slices.Clone(b)
						ShiftMaxRows(inPlace, inPlace, k)
						for i := range want {
							if math.Float64bits(got[i]) != math.Float64bits(want[i]) || math.Float64bits(inPlace[i]) != math.Float64bits(want[i]) {
								t.Fatalf("k = %d, rows %d, row %v: element %d = %x (in place %x), want %x",
									k, rows, b[row:], i, math.Float64bits(got[i]), math.Float64bits(inPlace[i]), math.Float64bits(want[i]))
							}
						}
					}
				}
			}
		}
	}
}

// TestMaxOf checks MaxOf against Go's max taken in order, which it equals
// but for the bits of a NaN.
func TestMaxOf(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		b    []float64
		want float64
	}{
		{nil, math.Inf(-1)},
		{[]float64{negZero}, negZero},
		{[]float64{negZero, 0, negZero}, 0},
		{[]float64{1, 2, 3, 4, 5, -1, 7, 6, 2}, 7},
		{[]float64{-3, -2, -5, -7, -9}, -2},
		{[]float64{1, math.Inf(1), 3}, math.Inf(1)},
	} {
		got := MaxOf(c.b)
		if math.Float64bits(got) != math.Float64bits(c.want) {
			t.Errorf("MaxOf(%v) = %v, want %v", c.b, got, c.want)
		}
	}
	if got := MaxOf([]float64{1, 2, 3, 4, math.NaN(), 0}); !math.IsNaN(got) {
		t.Errorf("MaxOf with a NaN = %v, want NaN", got)
	}
}

func TestShiftMaxRowsPanics(t *testing.T) {
	for _, c := range []struct {
		dst, b []float64
		k      int
	}{
		{make([]float64, 4), make([]float64, 4), 0},
		{make([]float64, 5), make([]float64, 5), 4},
		{make([]float64, 3), make([]float64, 4), 4},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ShiftMaxRows(len %d, len %d, %d) did not panic", len(c.dst), len(c.b), c.k)
				}
			}()
			ShiftMaxRows(c.dst, c.b, c.k)
		}()
	}
}

func BenchmarkShiftMaxRows(b *testing.B) {
	const k, rows = 20, 4096
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, k*rows)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	dst := make([]float64, len(x))
	for b.Loop() {
		ShiftMaxRows(dst, x, k)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
}

// TestSumRows compares SumRows with a loop over each row, bit for bit, for
// every number of rows up to 9 (groups of four and the rest) and rows with
// -0, infinities and NaNs.
func TestSumRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	specials := []float64{math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e300}
	for k := 1; k <= 9; k++ {
		for n := range 10 {
			x := make([]float64, n*k)
			for i := range x {
				x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
				if rng.IntN(8) == 0 {
					x[i] = specials[rng.IntN(len(specials))]
				}
			}
			if n > 0 && rng.IntN(2) == 0 { // a row of -0: +0 + -0 is +0
				for i := range k {
					x[i] = math.Copysign(0, -1)
				}
			}
			got := make([]float64, n)
			SumRows(got, x, k)
			for j := range n {
				var want float64
				for _, v := range x[j*k : (j+1)*k] {
					want += v
				}
				if math.Float64bits(got[j]) != math.Float64bits(want) {
					t.Fatalf("k = %d, n = %d: row %d %v sums to %v, want %v", k, n, j, x[j*k:(j+1)*k], got[j], want)
				}
			}
		}
	}
}
