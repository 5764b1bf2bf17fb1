package num

import "math"

// LDLSolve solves W x = b for the symmetric m×m matrix W given by its
// upper triangle in h (row-major), by W = Uᵀ D U (U unit upper triangular,
// without pivoting; h is overwritten by D U above its diagonal and D⁻¹ on
// it), and returns the number of negative pivots in D, W's number of
// negative eigenvalues (Sylvester's law of inertia), and whether every
// pivot was above 10⁻¹² of its diagonal element (and 10⁻¹²) in size; b is
// overwritten.
func LDLSolve(h []float64, m int, b, x []float64) (int, bool) {
	h, b, x = h[:m*m], b[:m], x[:m]
	neg := 0
	for z := range m {
		row := h[z*m : (z+1)*m]
		tol := math.Abs(row[z])
		if tol < 1 {
			tol = 1
		}
		for i := range z {
			ri := h[i*m : (i+1)*m]
			f := ri[z] * ri[i] // (d_i U_iz) / d_i
			for w := z; w < m; w++ {
				row[w] -= f * ri[w]
			}
		}
		p := row[z]
		if !(math.Abs(p) > 1e-12*tol) {
			return neg, false
		}
		neg += int(math.Float64bits(p) >> 63)
		row[z] = 1 / p
	}
	// Uᵀ D c = b, then U x = c.
	lowerSolve(h, m, b)
	for z := m - 1; z >= 0; z-- {
		row := h[z*m : (z+1)*m]
		var t float64
		for w := z + 1; w < m; w++ {
			t += row[w] * x[w]
		}
		x[z] = b[z] - t*row[z]
	}
	return neg, true
}

// CholSolve solves H x = b for the symmetric m×m matrix H given by its
// upper triangle in h (row-major, overwritten by its Cholesky factor U,
// H = Uᵀ U), and reports whether H was positive definite (every pivot
// above 10⁻¹²); b is overwritten.
func CholSolve(h []float64, m int, b, x []float64) bool {
	h, b, x = h[:m*m], b[:m], x[:m]
	for z := range m {
		row := h[z*m : (z+1)*m]
		for i := range z {
			ri := h[i*m : (i+1)*m]
			f := ri[z]
			for w := z; w < m; w++ {
				row[w] -= f * ri[w]
			}
		}
		if !(row[z] > 1e-12) {
			return false
		}
		p := math.Sqrt(row[z])
		inv := 1 / p
		row[z] = inv // the inverse of the pivot, for the solves
		for w := z + 1; w < m; w++ {
			row[w] *= inv
		}
	}
	// Uᵀ b' = b, then U x = b'.
	lowerSolve(h, m, b)
	for z := m - 1; z >= 0; z-- {
		row := h[z*m : (z+1)*m]
		t := b[z]
		for w := z + 1; w < m; w++ {
			t -= row[w] * x[w]
		}
		x[z] = t * row[z]
	}
	return true
}

// lowerSolve overwrites b with the solution c of Uᵀ c = b for the upper
// triangle U in h (row-major, m×m) whose diagonal holds the inverses of
// the pivots, as LDLSolve and CholSolve leave it.
func lowerSolve(h []float64, m int, b []float64) {
	for z := range m {
		t := b[z]
		for i := range z {
			t -= h[i*m+z] * b[i]
		}
		b[z] = t * h[z*m+z]
	}
}
