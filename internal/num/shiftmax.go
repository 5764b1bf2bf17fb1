package num

import "math"

// ShiftMaxRows sets each row of k numbers of dst to the same row of b less
// the row's largest element,
//
//	dst[jk+z] = b[jk+z] - max_z' b[jk+z'],
//
// the first step of a softmax (or of a log-sum-exp) over each row, for the
// len(b)/k rows of b. The largest element is Go's max (a NaN makes it a
// NaN, +0 is taken over -0), taken in four chains, element z in chain
// z mod 4 for the row's first k rounded down to four and the rest in chain
// 0, the chains then combined as max(max(m₀, m₁), max(m₂, m₃)): the same
// number bit for bit on every build, NaN included; on amd64 with AVX2 and
// k ≥ 4 the chains are the lanes of one vector. dst may be b; it must hold
// len(b) numbers, and len(b) must be a multiple of k. It panics otherwise.
func ShiftMaxRows(dst, b []float64, k int) {
	if k <= 0 || len(b)%k != 0 || len(dst) < len(b) {
		panic("num: ShiftMaxRows: bad lengths")
	}
	if haveAVX2 && k >= 4 && len(b) > 0 {
		shiftMaxRowsAVX2(dst, b, k, len(b)/k)
		return
	}
	for j := 0; j+k <= len(b); j += k {
		row, out := b[j:j+k], dst[j:j+k]
		m := MaxOf(row)
		for z, v := range row {
			out[z] = v - m
		}
	}
}

// MaxOf returns the largest element of b, -Inf if b is empty, a NaN if one
// is NaN, +0 rather than -0: Go's max, which gives the same number whatever
// the order but for a NaN's bits, taken in ShiftMaxRows' four chains.
func MaxOf(b []float64) float64 {
	m0, m1, m2, m3 := math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)
	i := 0
	for ; i+4 <= len(b); i += 4 {
		c := b[i : i+4 : i+4]
		m0 = max(m0, c[0])
		m1 = max(m1, c[1])
		m2 = max(m2, c[2])
		m3 = max(m3, c[3])
	}
	for ; i < len(b); i++ {
		m0 = max(m0, b[i])
	}
	return max(max(m0, m1), max(m2, m3))
}

// SumRows sets sums[j] to the sum of row j of the len(x)/k rows of k
// numbers of x, added in the order of z from +0, as a loop over the row
// adds them: the same number bit for bit. It takes four rows at a time,
// whose sums are independent chains, so that a row's additions need not
// wait for the previous row's. sums must hold len(x)/k numbers.
func SumRows(sums, x []float64, k int) {
	if k <= 0 || len(x)%k != 0 || len(sums) < len(x)/k {
		panic("num: SumRows: bad lengths")
	}
	n := len(x) / k
	j := 0
	for ; j+4 <= n; j += 4 {
		r0 := x[j*k : (j+1)*k]
		r1 := x[(j+1)*k : (j+2)*k][:len(r0)]
		r2 := x[(j+2)*k : (j+3)*k][:len(r0)]
		r3 := x[(j+3)*k : (j+4)*k][:len(r0)]
		var s0, s1, s2, s3 float64
		for z := range r0 {
			s0 += r0[z]
			s1 += r1[z]
			s2 += r2[z]
			s3 += r3[z]
		}
		s := sums[j : j+4 : j+4]
		s[0], s[1], s[2], s[3] = s0, s1, s2, s3
	}
	for ; j < n; j++ {
		var s float64
		for _, v := range x[j*k : (j+1)*k] {
			s += v
		}
		sums[j] = s
	}
}
