package vb

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

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
		if m, ok := num.LDLSolve(h, n, b, w); !ok || m != neg {
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
	if !num.CholSolve(h, k, v, y) {
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
