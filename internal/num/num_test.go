package num

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSigmoidPair checks σ(s) and σ(-s) against math.Exp, both to full
// relative precision, including the far tails where 1 - σ(|s|) would
// cancel.
func TestSigmoidPair(t *testing.T) {
	for _, s := range []float64{0, 1e-12, -1e-12, 0.5, -0.5, 3, -3, 40, -40, 700, -700} {
		a, na := SigmoidPair(s, Exp(-math.Abs(s)))
		wantA := 1 / (1 + math.Exp(-s))
		wantNA := 1 / (1 + math.Exp(s))
		for _, c := range []struct{ got, want float64 }{{a, wantA}, {na, wantNA}} {
			if math.Abs(c.got-c.want) > 4e-16*c.want {
				t.Errorf("SigmoidPair(%v) = (%v, %v), want (%v, %v)", s, a, na, wantA, wantNA)
			}
		}
	}
}

// TestSoftmaxFromSumsToOne checks that a softmax of far-from-zero values
// sums to 1: LogSumExp is then rounded to the precision of its magnitude
// (2⁻⁵³·|lse|), which would otherwise show in every exp(x_i - lse).
func TestSoftmaxFromSumsToOne(t *testing.T) {
	for _, c := range []struct {
		name string
		x    []float64
	}{
		{"near zero", []float64{-0.3, -1.2, -2}},
		{"large negative", []float64{-1e10, -1e10 + 0.5, -1e10 - 1}},
		{"large positive", []float64{3.5e9, 3.5e9 - 0.25}},
		{"one class left", []float64{-7e12, -7e12 - 1e6}},
	} {
		dst := make([]float64, len(c.x))
		SoftmaxFrom(dst, c.x, LogSumExp(c.x))
		var sum float64
		for _, v := range dst {
			if !(v >= 0 && v <= 1) {
				t.Errorf("%s: softmax %v", c.name, dst)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-14 {
			t.Errorf("%s: softmax %v sums to 1%+g", c.name, dst, sum-1)
		}
	}
}

// TestLogSumExpRows compares LogSumExpRows with LogSumExp, ExpLessRows
// with math.Exp and SoftmaxRows with SoftmaxFrom row by row, bit for bit, for rows of 1 to 70 values
// (below and above LogSumExp's loop of four and its blocks of 64) and up
// to 130 rows (more than one block of logarithms), with ordinary values,
// values far from zero, and rows with -Inf, +Inf, NaN and every value
// -Inf.
func TestLogSumExpRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	special := []float64{math.Inf(-1), math.Inf(1), math.NaN(), 800, -800, 0}
	for _, k := range []int{1, 2, 3, 4, 5, 7, 20, 64, 65, 70} {
		for _, rows := range []int{1, 3, 64, 65, 130} {
			x := make([]float64, rows*k)
			for i := range x {
				x[i] = 30 * rng.NormFloat64()
			}
			for r := 0; r < rows; r++ {
				row := x[r*k : (r+1)*k]
				switch r % 7 {
				case 1: // one special value
					row[rng.IntN(k)] = special[rng.IntN(len(special))]
				case 2: // every value -Inf
					for i := range row {
						row[i] = math.Inf(-1)
					}
				case 3: // far from zero
					for i := range row {
						row[i] += 1e4
					}
				}
			}
			dst := make([]float64, rows)
			exps := make([]float64, rows*k)
			LogSumExpRows(dst, x, exps, k)
			for r := range dst {
				want := LogSumExp(x[r*k : (r+1)*k])
				if !sameBits(dst[r], want) {
					t.Errorf("k=%d rows=%d: row %d: LogSumExpRows %v, LogSumExp %v", k, rows, r, dst[r], want)
				}
			}
			less := append([]float64(nil), x...)
			ExpLessRows(less, dst, k)
			for i, v := range less {
				if want := math.Exp(x[i] - dst[i/k]); !sameBits(v, want) {
					t.Errorf("k=%d rows=%d: ExpLessRows[%d] %v, math.Exp %v", k, rows, i, v, want)
					break
				}
			}
			soft := append([]float64(nil), x...)
			SoftmaxRows(soft, dst, k)
			want := make([]float64, k)
			for r := range dst {
				SoftmaxFrom(want, x[r*k:(r+1)*k], dst[r])
				for i, v := range soft[r*k : (r+1)*k] {
					if !sameBits(v, want[i]) {
						t.Errorf("k=%d rows=%d: row %d: SoftmaxRows %v, SoftmaxFrom %v", k, rows, r, soft[r*k:(r+1)*k], want)
						break
					}
				}
			}
		}
	}
}

// TestDivideByMax checks DivideByMax on a table of vectors.
func TestDivideByMax(t *testing.T) {
	for _, tc := range []struct {
		x, want []float64
		top     float64
	}{
		{[]float64{1, 4, 2}, []float64{0.25, 1, 0.5}, 4},
		{[]float64{0, 0}, []float64{0, 0}, 0},
		{[]float64{-1, -2}, []float64{-1, -2}, 0},
		{nil, nil, 0},
	} {
		x := slices.Clone(tc.x)
		if top := DivideByMax(x); top != tc.top || !slices.Equal(x, tc.want) {
			t.Errorf("DivideByMax(%v) = %v, %v; want %v, %v", tc.x, top, x, tc.top, tc.want)
		}
	}
}
