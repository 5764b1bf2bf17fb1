package num

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// a special value at every position of the last row.
func TestRespRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	specials := []float64{math.NaN(), math.Inf(1), -0.5, math.Copysign(0, -1), 0, 5e-324, 1e300}
	for k := 1; k <= 21; k++ {
		for nrows := range 7 {
			for _, special := range specials {
				for p := range k {
					tab := make([]float64, 8*k)
					for i := range tab {
						tab[i] = rng.Float64()
					}
					rows := make([]int, nrows)
					for i := range rows {
						rows[i] = rng.IntN(8) * k
					}
					if nrows > 2 {
						rows[2] = rows[0]
					}
					if nrows > 0 {
						tab[rows[nrows-1]+p] = special
					}
					q := make([]float64, k)
					for i := range q {
						q[i] = rng.Float64()
					}
					r := make([]float64, nrows*k+1)
					m := make([]float64, nrows+1)
					RespRows(r, q, tab, rows, m)
					want := make([]float64, k)
					for i, row := range rows {
						wm := Responsibilities(want, q, tab[row:row+k])
						if !sameBits(m[i], wm) {
							t.Fatalf("k=%d rows=%v: m[%d] = %v, want %v", k, rows, i, m[i], wm)
						}
						for z := range want {
							if !sameBits(r[i*k+z], want[z]) {
								t.Fatalf("k=%d rows=%v: r[%d][%d] = %v, want %v", k, rows, i, z, r[i*k+z], want[z])
							}
						}
					}
					if r[nrows*k] != 0 || m[nrows] != 0 {
						t.Fatalf("k=%d: RespRows wrote past its rows", k)
					}

					g := r[:nrows*k]
					acc := make([]float64, k)
					for i := range acc {
						acc[i] = rng.Float64()
					}
					noAcc := slices.Clone(tab)
					wantTab, wantAcc := slices.Clone(tab), slices.Clone(acc)
					for i, row := range rows {
						for z := range k {
							wantTab[row+z] += g[i*k+z]
							wantAcc[z] += g[i*k+z]
						}
					}
					AddRowsEach(tab, rows, g, k, acc)
					AddRowsEach(noAcc, rows, g, k, nil)
					for i := range tab {
						if !sameBits(tab[i], wantTab[i]) || !sameBits(noAcc[i], wantTab[i]) {
							t.Fatalf("k=%d rows=%v: AddRowsEach element %d = %v (without acc %v), want %v", k, rows, i, tab[i], noAcc[i], wantTab[i])
						}
					}
					for z := range acc {
						if !sameBits(acc[z], wantAcc[z]) {
							t.Fatalf("k=%d rows=%v: AddRowsEach acc[%d] = %v, want %v", k, rows, z, acc[z], wantAcc[z])
						}
					}
				}
			}
		}
	}
}

// TestRowsOutOfRange checks that a row reaching past the table panics in
// every function that reads or writes rows.
func TestRowsOutOfRange(t *testing.T) {
	calls := map[string]func(rows []int){
		"RespRows": func(rows []int) {
			RespRows(make([]float64, 8), make([]float64, 4), make([]float64, 10), rows, make([]float64, 2))
		},
		"AddRowsEach": func(rows []int) { AddRowsEach(make([]float64, 10), rows, make([]float64, 8), 4, make([]float64, 4)) },
	}
	for _, rows := range [][]int{{-1}, {0, 7}, {8}} {
		for name, call := range calls {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s with rows %v in a table of 10 did not panic", name, rows)
					}
				}()
				call(rows)
			}()
		}
	}
}
