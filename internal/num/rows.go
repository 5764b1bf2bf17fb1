package num

// checkRows panics unless every row [r, r+k) lies within [0, n).
func checkRows(n, k int, rows []int) {
	for _, r := range rows {
		if uint(r) > uint(n-k) || k > n {
			panic("num: row out of range")
		}
	}
}

// RespRows writes the responsibilities of rows of t under the
// distribution q, one row of r per row of t: for the i-th offset r_i in
// rows, with K = len(q),
//
//	m_i = Σ_z q(z) t[r_i+z],  r[i·K+z] = q(z) t[r_i+z] / m_i,
//
// and m[i] = m_i; each is Responsibilities(r[i·K:(i+1)·K], q,
// t[r_i:r_i+K]) bit for bit, the sum in the order of z. r must hold
// len(rows)·K numbers and m len(rows). It panics if a row does not lie
// within t. On amd64 with AVX2 four products are taken at a time.
func RespRows(r, q, t []float64, rows []int, m []float64) {
	k := len(q)
	checkRows(len(t), k, rows)
	r, m = r[:len(rows)*k], m[:len(rows)]
	if haveAVX2 && k >= 4 && len(rows) > 0 {
		respRowsAVX2(r, q, t, rows, m)
		return
	}
	for i, row := range rows {
		m[i] = Responsibilities(r[i*k:(i+1)*k], q, t[row:row+k])
	}
}

// AddRowsEach adds the rows of g, K numbers each, to rows of t and, if
// acc is not nil, all of them to acc, one after the other in the order of
// rows: for the i-th offset r_i in rows,
//
//	t[r_i+z] += g[i·K+z],  acc[z] += g[i·K+z],  z = 0, 1, ..., K-1.
//
// Two rows of t must be equal or not overlap. g must hold len(rows)·K
// numbers and acc, if not nil, K. It panics if a row does not lie within
// t. Each element's additions are those of the scalar loop in the same
// order, so the result is the same bit for bit on every build.
func AddRowsEach(t []float64, rows []int, g []float64, k int, acc []float64) {
	checkRows(len(t), k, rows)
	g = g[:len(rows)*k]
	if acc != nil {
		acc = acc[:k]
	}
	z := 0
	if haveAVX2 && k >= 4 && len(rows) > 0 {
		z = k &^ 3
		addRowsEachAVX2(t, rows, g, acc, k, z)
	}
	if z == k {
		return
	}
	for i, r := range rows {
		row, gi := t[r+z:r+k], g[i*k+z:(i+1)*k]
		for x, v := range gi {
			row[x] += v
			if acc != nil {
				acc[z+x] += v
			}
		}
	}
}
