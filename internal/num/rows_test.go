package num

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRows checks MulRows and AddRows against the plain loop over rows
// and elements, bit for bit, at every row length up to 21, with up to six
// rows of k (equal or disjoint, a row given twice among them) and a special value (NaN, infinite,
// negative, -0, subnormal, above 1) at every position of a row.
func TestRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	specials := []float64{math.NaN(), math.Inf(1), -0.5, math.Copysign(0, -1), 0, 5e-324, 1.5, 1}
	for k := 1; k <= 21; k++ {
		for nrows := range 7 {
			for _, special := range specials {
				for p := range k {
					tab := make([]float64, 8*k+3)
					for i := range tab {
						tab[i] = rng.Float64()
					}
					rows := make([]int, nrows)
					for i := range rows {
						rows[i] = rng.IntN(8) * k // equal or disjoint, as AddRows requires
					}
					if nrows > 2 {
						rows[2] = rows[0]
					}
					if nrows > 0 {
						tab[rows[nrows-1]+p] = special
					}
					s := make([]float64, k)
					for i := range s {
						s[i] = rng.Float64() + 0.5
					}
					want := slices.Clone(s)
					wantLo, wantHi := math.Inf(1), math.Inf(-1)
					nan := false
					for _, r := range rows {
						for z := range want {
							x := tab[r+z]
							want[z] *= x
							wantLo, wantHi = min(wantLo, x), max(wantHi, x)
							nan = nan || math.IsNaN(x)
						}
					}
					lo, hi := MulRows(s, tab, rows)
					for z := range s {
						if !sameBits(s[z], want[z]) {
							t.Fatalf("k=%d rows=%v: MulRows element %d = %v, want %v", k, rows, z, s[z], want[z])
						}
					}
					if !nan && (!sameBits(lo, wantLo) || !sameBits(hi, wantHi)) {
						t.Fatalf("k=%d rows=%v: MulRows bounds (%v, %v), want (%v, %v)", k, rows, lo, hi, wantLo, wantHi)
					}

					g := make([]float64, k)
					for i := range g {
						g[i] = rng.Float64()
					}
					g[p] = special
					wantTab := slices.Clone(tab)
					for _, r := range rows {
						for z, v := range g {
							wantTab[r+z] += v
						}
					}
					AddRows(tab, rows, g)
					for i := range tab {
						if !sameBits(tab[i], wantTab[i]) {
							t.Fatalf("k=%d rows=%v: AddRows element %d = %v, want %v", k, rows, i, tab[i], wantTab[i])
						}
					}
				}
			}
		}
	}
}

// TestRowsOutOfRange checks that a row reaching past the table panics.
func TestRowsOutOfRange(t *testing.T) {
	for _, rows := range [][]int{{-1}, {0, 7}, {8}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("MulRows with rows %v in a table of 10 did not panic", rows)
				}
			}()
			MulRows(make([]float64, 4), make([]float64, 10), rows)
		}()
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AddRows with rows %v in a table of 10 did not panic", rows)
				}
			}()
			AddRows(make([]float64, 10), rows, make([]float64, 4))
		}()
	}
}

func BenchmarkRows(b *testing.B) {
	const k, w = 20, 500
	rng := rand.New(rand.NewPCG(1, 2))
	tab := make([]float64, w*k*k)
	for i := range tab {
		tab[i] = rng.Float64()
	}
	rows := make([]int, 4096)
	for i := range rows {
		rows[i] = rng.IntN(w*k) * k
	}
	s := make([]float64, k)
	b.Run("MulRows", func(b *testing.B) {
		for b.Loop() {
			for i := 0; i+5 <= len(rows); i += 5 {
				for z := range s {
					s[z] = 1
				}
				MulRows(s, tab, rows[i:i+5])
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(rows)/5*5), "ns/row")
	})
	b.Run("AddRows", func(b *testing.B) {
		for b.Loop() {
			for i := 0; i+5 <= len(rows); i += 5 {
				AddRows(tab, rows[i:i+5], s)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(rows)/5*5), "ns/row")
	})
}
