package num

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLinSolve checks LDLSolve and CholSolve against gonum's mat.Dense
// Solve on random symmetric matrices: positive definite ones (both
// solvers) and indefinite ones with a known number of negative
// eigenvalues (LDLSolve counts them; CholSolve reports failure).
func TestLinSolve(t *testing.T) {
	for _, c := range []struct {
		name string
		m    int
		neg  int // negative eigenvalues of the matrix
	}{
		{"spd-1", 1, 0},
		{"spd-4", 4, 0},
		{"spd-9", 9, 0},
		{"indefinite-5-2", 5, 2},
		{"indefinite-8-3", 8, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.m), uint64(c.neg)))
			// W = Q diag(λ) Qᵀ with c.neg eigenvalues in [−2, −1] and the
			// rest in [1, 2], Q orthogonal from a QR factorisation.
			g := mat.NewDense(c.m, c.m, nil)
			for i := range c.m {
				for j := range c.m {
					g.Set(i, j, rng.NormFloat64())
				}
			}
			var qr mat.QR
			qr.Factorize(g)
			var q mat.Dense
			qr.QTo(&q)
			lam := make([]float64, c.m)
			for i := range lam {
				lam[i] = 1 + rng.Float64()
				if i < c.neg {
					lam[i] = -lam[i]
				}
			}
			var w mat.Dense
			w.Mul(&q, mat.NewDiagDense(c.m, lam))
			w.Mul(&w, q.T())
			b := make([]float64, c.m)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			var want mat.VecDense
			if err := want.SolveVec(&w, mat.NewVecDense(c.m, append([]float64(nil), b...))); err != nil {
				t.Fatal(err)
			}
			upper := func() []float64 {
				h := make([]float64, c.m*c.m)
				for i := range c.m {
					for j := i; j < c.m; j++ {
						h[i*c.m+j] = w.At(i, j)
					}
				}
				return h
			}
			check := func(what string, x []float64) {
				t.Helper()
				for i, v := range x {
					if math.Abs(v-want.AtVec(i)) > 1e-9*(1+math.Abs(want.AtVec(i))) {
						t.Errorf("%s: x[%d] = %v, want %v", what, i, v, want.AtVec(i))
					}
				}
			}
			x := make([]float64, c.m)
			neg, ok := LDLSolve(upper(), c.m, append([]float64(nil), b...), x)
			if !ok || neg != c.neg {
				t.Fatalf("LDLSolve: %d negative pivots, ok %v; want %d, true", neg, ok, c.neg)
			}
			check("LDLSolve", x)
			ok = CholSolve(upper(), c.m, append([]float64(nil), b...), x)
			if ok != (c.neg == 0) {
				t.Fatalf("CholSolve: positive definite %v, want %v", ok, c.neg == 0)
			}
			if ok {
				check("CholSolve", x)
			}
		})
	}
}
