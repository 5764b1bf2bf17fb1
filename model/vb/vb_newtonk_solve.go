package vb

import "math"

// newtonMinC is the least |c_z| = |1 + μ − S_z ψ'(γ_z)| for which solve
// takes the form of n×n: below it, C⁻¹ would magnify the rounding.
const newtonMinC = 1e-6

// solve writes into y Newton's step Δ of objectNewton, the solution of
// (I − A D + μI) Δ = G with A = diag(S) − Σ_i φ_i φ_iᵀ and D = diag(ψ'),
// from the numbers newtonEval left in nk (the weights φ_i, S, ψ', G), and
// reports whether H + μI was positive definite (if not, the step is not
// to be taken). With C = diag(c), c_z = 1 + μ − S_z ψ'_z, and Φ the n×K
// matrix of the weights, the matrix is C + Φᵀ Φ D. With fewer labels than
// classes and every |c_z| above newtonMinC, w = Φ D Δ solves the n×n
// system W w = Φ D C⁻¹ G, W = I + Φ D C⁻¹ Φᵀ, and Δ = C⁻¹ (G − Φᵀ w)
// (Woodbury's identity); by Haynsworth's inertia additivity H + μI is
// positive definite if and only if W has as many negative eigenvalues as
// C has negative c_z, counted by the signs of the pivots of W = Uᵀ D U.
// Otherwise, with d = √ψ', y = d∘Δ solves the K×K system (H + μI) y = d∘G,
// H + μI = diag(c) + Σ_i (d∘φ_i)(d∘φ_i)ᵀ, by Cholesky's factorisation.
func (nk *newtonScratch) solve(pj []float64, mu float64) bool {
	k := nk.k
	n := len(pj) / k
	u, s, t, g, y := nk.u[:n*k], nk.s[:k], nk.t[:k], nk.g[:k], nk.y[:k]
	c, r := nk.c[:k], nk.r[:k]
	small, neg := n < k, 0
	for z := range c {
		c[z] = 1 - s[z]*t[z] + mu
		r[z] = t[z] / c[z]
		small = small && math.Abs(c[z]) > newtonMinC
		if c[z] < 0 {
			neg++
		}
	}
	if small {
		h, b, w, v := nk.h[:n*n], nk.b[:n], nk.w[:n], nk.v[:k]
		for i := range n {
			ui := u[i*k : (i+1)*k]
			ui, r, g := ui[:k], r[:len(ui)], g[:len(ui)]
			var bi float64
			for z, x := range ui {
				vz := x * r[z]
				v[z] = vz
				bi += vz * g[z]
			}
			b[i] = bi
			row := h[i*n : (i+1)*n]
			wRow(row, v, u, i, n)
			row[i]++
		}
		if m, ok := ldlSolve(h, n, b, w); !ok || m != neg {
			return false
		}
		for z := range y {
			y[z] = g[z]
		}
		for i, wi := range w {
			ui := u[i*k : (i+1)*k]
			ui = ui[:len(y)]
			for z := range y {
				y[z] -= ui[z] * wi
			}
		}
		for z := range y {
			y[z] /= c[z]
		}
		return true
	}
	h, d, v := nk.h[:k*k], nk.r[:k], nk.v[:k]
	clear(h)
	for z := range d {
		d[z] = math.Sqrt(t[z])
		h[z*k+z] = c[z]
	}
	for i := range n {
		ui := u[i*k : (i+1)*k]
		for z, x := range ui {
			v[z] = x * d[z]
		}
		for z, vz := range v {
			row := h[z*k : (z+1)*k]
			for w := z; w < k; w++ {
				row[w] += vz * v[w]
			}
		}
	}
	for z := range v {
		v[z] = d[z] * g[z]
	}
	if !cholSolve(h, k, v, y) {
		return false
	}
	for z := range y {
		y[z] /= d[z]
	}
	return true
}

// wRow writes into row[j], j = i, …, n−1, the dot products of v with the
// rows u_j (K = len(v) numbers each) of u, four at a time (and then two
// and one), so that their sums do not wait on each other.
func wRow(row, v, u []float64, i, n int) {
	k := len(v)
	j := i
	for ; j+4 <= n; j += 4 {
		u0, u1, u2, u3 := u[j*k:(j+1)*k], u[(j+1)*k:(j+2)*k], u[(j+2)*k:(j+3)*k], u[(j+3)*k:(j+4)*k]
		u0, u1, u2, u3 = u0[:k], u1[:k], u2[:k], u3[:k]
		var d0, d1, d2, d3 float64
		for z, x := range v {
			d0 += x * u0[z]
			d1 += x * u1[z]
			d2 += x * u2[z]
			d3 += x * u3[z]
		}
		row[j], row[j+1], row[j+2], row[j+3] = d0, d1, d2, d3
	}
	for ; j+2 <= n; j += 2 {
		u0, u1 := u[j*k:(j+1)*k], u[(j+1)*k:(j+2)*k]
		u0, u1 = u0[:k], u1[:k]
		var d0, d1 float64
		for z, x := range v {
			d0 += x * u0[z]
			d1 += x * u1[z]
		}
		row[j], row[j+1] = d0, d1
	}
	if j < n {
		uj := u[j*k : (j+1)*k]
		uj = uj[:k]
		var d float64
		for z, x := range v {
			d += x * uj[z]
		}
		row[j] = d
	}
}

// ldlSolve solves W x = b for the symmetric m×m matrix W given by its
// upper triangle in h (row-major), by W = Uᵀ D U (U unit upper triangular,
// without pivoting; h is overwritten by D U above its diagonal and D⁻¹ on
// it), and returns the number of negative pivots in D, W's number of
// negative eigenvalues (Sylvester's law of inertia), and whether every
// pivot was above 10⁻¹² of its diagonal element (and 10⁻¹²) in size; b is
// overwritten.
func ldlSolve(h []float64, m int, b, x []float64) (int, bool) {
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

// cholSolve solves H x = b for the symmetric m×m matrix H given by its
// upper triangle in h (row-major, overwritten by its Cholesky factor U,
// H = Uᵀ U), and reports whether H was positive definite (every pivot
// above 10⁻¹²); b is overwritten.
func cholSolve(h []float64, m int, b, x []float64) bool {
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
// the pivots, as ldlSolve and cholSolve leave it.
func lowerSolve(h []float64, m int, b []float64) {
	for z := range m {
		t := b[z]
		for i := range z {
			t -= h[i*m+z] * b[i]
		}
		b[z] = t * h[z*m+z]
	}
}
