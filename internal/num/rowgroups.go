package num

// PosteriorRows is PosteriorPairs for K ≥ 2 classes over a table of K×K
// numbers per worker read by label and class, K = len(p): label i reads
// the row t[r : r+K] at r = (w·K + y)·K for its worker w = worker[i] and
// class y = label[i], and the same row of gw. For each group j (the labels
// [ends[j-1], ends[j]), from 0 for the first) the products
//
//	s_z = p_z Π_i t[r_i + z],  z = 0, ..., K-1,
//
// are taken label by label, each element's products in the order of the
// labels; the posterior is g_z = s_z·(1/sum) with sum = s_0 + s_1 + ... +
// s_{K-1} in the order of z; g is added to the rows of gw of the group's
// labels in their order (a row given twice gets both), g - p to acc if acc
// is not nil, and sum multiplies prod (Product.Mul). It stops, having written nothing for it, at the
// first group that needs more care than that: a value read below 0 or
// above 1, or a product below 2⁻²⁵⁶ (or NaN) at the end of its labels,
// which a caller then takes by a checked loop. It returns the product and
// the number of groups done. s is scratch for K numbers.
//
// It panics if a label's row lies outside t, if gw is shorter than t, or
// if the slices are shorter than the groups need. The results are the
// scalar loop's bit for bit on every build; on amd64 with AVX2
// (Vectorised) and K ≥ 4 the loop is written in assembly, four classes
// per instruction, and it prefetches the rows of the labels ahead of the
// one it works on when t holds 2¹⁵ numbers or more.
func PosteriorRows(t, gw []float64, worker []int32, label []uint16, ends []int, p, s, acc []float64, prod Product) (Product, int) {
	if len(ends) == 0 {
		return prod, 0
	}
	k := len(p)
	n, _ := groupSpan(ends)
	if k == 0 || len(worker) < n || len(label) < n || len(s) < k || (acc != nil && len(acc) < k) || len(gw) < len(t) {
		panic("num: PosteriorRows: slices too short")
	}
	if haveAVX2 && k >= 4 {
		m, e, done := posteriorRowsAVX(t, gw, worker[:n], label[:n], ends, p, s[:k], acc, prod.M, prod.E)
		if done < 0 {
			panic("num: row out of range")
		}
		return Product{M: m, E: e}, done
	}
	return posteriorRows(t, gw, worker, label, ends, p, s[:k], acc, prod)
}

// posteriorRows is PosteriorRows' scalar loop.
func posteriorRows(t, gw []float64, worker []int32, label []uint16, ends []int, p, s, acc []float64, prod Product) (Product, int) {
	k := len(p)
	nrows := len(t) / k
	start := 0
	for j, end := range ends {
		copy(s, p)
		lo, hi := 1.0, 0.0
		for i := start; i < end; i++ {
			idx := int(worker[i])*k + int(label[i])
			if uint(idx) >= uint(nrows) {
				panic("num: row out of range")
			}
			for z, v := range t[idx*k : idx*k+k] {
				s[z] *= v
				lo = min(lo, v)
				hi = max(hi, v)
			}
		}
		if !(lo >= 0 && hi <= 1) {
			return prod, j
		}
		sum := 0.0
		for _, v := range s {
			if !(v >= 0x1p-256) {
				return prod, j
			}
			sum += v
		}
		inv := 1 / sum
		for z := range s {
			s[z] *= inv
		}
		for i := start; i < end; i++ {
			idx := int(worker[i])*k + int(label[i])
			row := gw[idx*k : idx*k+k]
			for z, v := range s {
				row[z] += v
			}
		}
		if acc != nil {
			for z, v := range s {
				acc[z] += v - p[z]
			}
		}
		prod.Mul(sum)
		start = end
	}
	return prod, len(ends)
}

// RespRowsGroups is RespPairs for K ≥ 2 classes over a table of K×K
// numbers per worker read by label and class, K = len(acc), with the
// groups' distributions given: group j (the labels [ends[j-1], ends[j]),
// from 0 for the first) has q_j = q[jK : (j+1)K]. Label i reads the row
// t[r_i : r_i+K] at r_i = (w·K + y)·K for its worker w = worker[i] and
// class y = label[i], and its responsibilities are those of RespRows,
//
//	m_i = Σ_z q_j(z) t[r_i+z],  ρ_i(z) = q_j(z) t[r_i+z] / m_i,
//
// the sum in the order of z, written to r[(i-s)K : (i-s+1)K] for the
// group's first label s. Once every m_i of the group is at least 2⁻⁶⁰⁰,
// each m_i multiplies prod in the order of the labels, which is kept from
// underflowing by math.Frexp whenever it falls below 2⁻²⁵⁶, its exponents
// added to scale; the ρ_i are added to the rows of gw of their labels and
// to their sum acc (from 0) as AddRowsEach adds them, and the group's
// gradient in its logits, acc - n_j q_j for its n_j labels, to
// gb[jK : (j+1)K]. At the first group with an m_i below 2⁻⁶⁰⁰ (or NaN) it
// stops, having written nothing for that group but r and acc, and returns
// prod and scale as they were before it and the number of groups done;
// otherwise prod, scale and len(ends). r is scratch for K numbers per label
// of the largest group.
//
// It panics if a label's row lies outside t, if gw is shorter than t, or
// if the slices are shorter than the groups need. The results are the
// scalar loop's bit for bit on every build; on amd64 with AVX2
// (Vectorised) and K ≥ 4 the loop is written in assembly, four classes
// per instruction, and it prefetches the rows of the labels ahead of the
// one it works on when t holds 2¹⁵ numbers or more.
func RespRowsGroups(t, gw []float64, worker []int32, label []uint16, ends []int, q, gb, r, acc []float64, prod float64, scale int) (float64, int, int) {
	if len(ends) == 0 {
		return prod, scale, 0
	}
	k := len(acc)
	n, most := groupSpan(ends)
	g := len(ends)
	if k == 0 || len(worker) < n || len(label) < n || len(q) < g*k || len(gb) < g*k || len(r) < most*k || len(gw) < len(t) {
		panic("num: RespRowsGroups: slices too short")
	}
	if haveAVX2 && k >= 4 {
		prod, scale, done := respRowsGroupsAVX(t, gw, worker[:n], label[:n], ends, q, gb, r, acc, prod, scale)
		if done < 0 {
			panic("num: row out of range")
		}
		return prod, scale, done
	}
	return respRowsGroups(t, gw, worker, label, ends, q, gb, r, acc, prod, scale)
}

// respRowsGroups is RespRowsGroups' scalar loop: Responsibilities for each
// label, then the checks and the sums of the table path in Go.
func respRowsGroups(t, gw []float64, worker []int32, label []uint16, ends []int, q, gb, r, acc []float64, prod float64, scale int) (float64, int, int) {
	k := len(acc)
	nrows := len(t) / k
	start := 0
	for j, end := range ends {
		qj := q[j*k : (j+1)*k]
		oprod, oscale := prod, scale
		for i := start; i < end; i++ {
			idx := int(worker[i])*k + int(label[i])
			if uint(idx) >= uint(nrows) {
				panic("num: row out of range")
			}
			m := Responsibilities(r[(i-start)*k:(i-start+1)*k], qj, t[idx*k:idx*k+k])
			if !(m >= 0x1p-600) {
				return oprod, oscale, j
			}
			prod, scale = mulScaled(prod, scale, m)
		}
		clear(acc)
		for i := start; i < end; i++ {
			idx := int(worker[i])*k + int(label[i])
			row, ri := gw[idx*k:idx*k+k], r[(i-start)*k:(i-start+1)*k]
			for z, v := range ri {
				row[z] += v
				acc[z] += v
			}
		}
		nf := float64(end - start)
		gbj := gb[j*k : (j+1)*k]
		for z, qz := range qj {
			gbj[z] += acc[z] - nf*qz
		}
		start = end
	}
	return prod, scale, len(ends)
}
