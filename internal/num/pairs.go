package num

import "math"

// RespPairs is the E-step of the latent distribution assumption at K = 2
// over a table of two-class rows, for consecutive groups of labels (the
// objects): group j holds the labels [ends[j-1], ends[j]) (from 0 for the
// first). Its distribution is q_j = (σ(-d_j), σ(d_j)) with d_j =
// b[2j+1] - b[2j], as SigmoidPair(d_j, ex[j]) gives it from ex[j] =
// e^-|d_j|. Label i reads the row p = t[4w + 2y : 4w + 2y + 2] for its
// worker w = worker[i] and class y = label[i] (of which only the lowest
// bit is read), and
//
//	t_z = q_j(z)·p_z,  m = t_0 + t_1,  r_z = t_z·(1/m);
//
// its responsibilities r_z are added to the same place of gw,
// gw[4w + 2y + z], and the group's gradient in its logits,
// Σ_i r_i(z) - n_j q_j(z) for its n_j labels, to gb[2j+z]; m multiplies
// prod, which is kept from underflowing by math.Frexp whenever it falls
// below 2⁻²⁵⁶, its exponents added to scale. Groups are taken in order,
// every label's operations in that order; a group is added to gw and gb
// only once every m of it is at least 2⁻⁶⁰⁰. At the first group with an
// m below that (or NaN) it stops, having written nothing for that group,
// and returns prod and scale as they were before it and the number of
// groups done; otherwise prod, scale and len(ends). r is scratch for two
// numbers per label of the largest group.
//
// It panics if a worker's row lies outside t, if gw is shorter than t, or
// if the slices are shorter than the groups need. The results are the
// scalar loop's bit for bit on every build; on amd64 with AVX2 (Vectorised)
// the loop is written in assembly, both classes of a label in one
// instruction and a group's prior without a branch.
func RespPairs(t, gw []float64, worker []int32, label []uint16, ends []int, b, ex, gb, r []float64, prod float64, scale int) (float64, int, int) {
	if len(ends) == 0 {
		return prod, scale, 0
	}
	n, most := groupSpan(ends)
	g := len(ends)
	if len(worker) < n || len(label) < n || len(b) < 2*g || len(ex) < g || len(gb) < 2*g || len(r) < 2*most || len(gw) < len(t) {
		panic("num: RespPairs: slices too short")
	}
	if haveAVX2 {
		prod, scale, done := respPairsAVX(t, gw, worker[:n], label[:n], ends, b, ex, gb, r, prod, scale)
		if done < 0 {
			panic("num: row out of range")
		}
		return prod, scale, done
	}
	return respPairs(t, gw, worker, label, ends, b, ex, gb, r, prod, scale)
}

// groupSpan returns the number of labels of the groups ending at ends and
// the number of the largest; it panics if the ends decrease (or the first
// is negative).
func groupSpan(ends []int) (n, most int) { return groupSpanFrom(0, ends) }

// groupSpanFrom is groupSpan for groups that start at label base, their
// ends counted from 0 as base is.
func groupSpanFrom(base int, ends []int) (n, most int) {
	start := base
	for _, e := range ends {
		if e < start {
			panic("num: groups out of order")
		}
		most = max(most, e-start)
		start = e
	}
	return start - base, most
}

// Vectorised reports whether the loops of this package that take four
// values (or both classes of a pair) at a time in vector instructions are
// in use: on amd64 with AVX2, unless built with the tag purego. Where they
// are not, a caller may prefer a path that suits scalar loops better.
func Vectorised() bool { return haveAVX2 }

// UnfusedVectorised reports whether the vector loops run (Vectorised) on
// a build that rounds every product before a sum takes it (GOAMD64 below
// v3). Go code that adds a product to a sum unrounded, as in s += x·y,
// gives a vector loop's results then, and not on a GOAMD64=v3 build, which
// fuses the two into one multiply-add: a caller that replaces such code by
// a vector loop takes it only where UnfusedVectorised.
func UnfusedVectorised() bool { return haveUnfusedAVX2 }

// respPairs is RespPairs' scalar loop: each group's rows copied into r in
// the order of its labels, respPairsBatch on them in place (the same
// operations), and the responsibilities it leaves in r added to gw.
func respPairs(t, gw []float64, worker []int32, label []uint16, ends []int, b, ex, gb, r []float64, prod float64, scale int) (float64, int, int) {
	start := 0
	for j, end := range ends {
		rj := r[:2*(end-start)]
		for i := start; i < end; i++ {
			p := (*[4]float64)(t[4*int(worker[i]):])
			y := 2 * int(label[i]&1)
			rj[2*(i-start)], rj[2*(i-start)+1] = p[y], p[y+1]
		}
		group := [1]int{end - start}
		var done int
		if prod, scale, done = respPairsBatch(rj, rj, group[:], b[2*j:2*j+2], ex[j:j+1], gb[2*j:2*j+2], prod, scale); done == 0 {
			return prod, scale, j
		}
		for i := start; i < end; i++ {
			c := (*[4]float64)(gw[4*int(worker[i]):])
			y := 2 * int(label[i]&1)
			c[y] += rj[2*(i-start)]
			c[y+1] += rj[2*(i-start)+1]
		}
		start = end
	}
	return prod, scale, len(ends)
}

// PosteriorPairs is the E-step of the latent label assumption at K = 2
// over the same table of two-class rows as RespPairs, for consecutive
// groups of labels (the objects; group j holds the labels
// [ends[j-1], ends[j])), with the class prior (p0, p1). For each group the
// products s_z = p_z Π_i p_i(z) of the rows of its labels are taken label
// by label; the posterior is g_z = s_z·(1/(s_0 + s_1)); g is added to the
// rows of gw of the group's labels, g - p to acc[0:2], and the sum
// s_0 + s_1 multiplies prod (Product.Mul). It stops, having written
// nothing for it, at the first group whose products need more care than
// that: a product below 2⁻²⁵⁶ (or NaN) after one of its labels, or a sum
// above 2, which a caller then takes by a checked loop. It returns the
// product and the number of groups done.
//
// It panics if a worker's row lies outside t, if gw is shorter than t, or
// if the slices are shorter than the groups need. The results are the
// scalar loop's bit for bit on every build; on amd64 with AVX2 (Vectorised)
// the loop is written in assembly, both classes in one instruction.
func PosteriorPairs(t, gw []float64, worker []int32, label []uint16, ends []int, p0, p1 float64, acc []float64, prod Product) (Product, int) {
	if len(ends) == 0 {
		return prod, 0
	}
	n, _ := groupSpan(ends)
	if len(worker) < n || len(label) < n || len(acc) < 2 || len(gw) < len(t) {
		panic("num: PosteriorPairs: slices too short")
	}
	if haveAVX2 {
		m, e, done := posteriorPairsAVX(t, gw, worker[:n], label[:n], ends, p0, p1, acc, prod.M, prod.E)
		if done < 0 {
			panic("num: row out of range")
		}
		return Product{M: m, E: e}, done
	}
	return posteriorPairs(t, gw, worker, label, ends, p0, p1, acc, prod)
}

// posteriorPairs is PosteriorPairs' scalar loop.
func posteriorPairs(t, gw []float64, worker []int32, label []uint16, ends []int, p0, p1 float64, acc []float64, prod Product) (Product, int) {
	// acc in two locals, written back at the end: in memory, each group's
	// additions would wait for the last group's stores.
	a0, a1 := acc[0], acc[1]
	start := 0
	for j, end := range ends {
		g0, g1, sum, ok := pairPosterior(t, worker[start:end], label[start:end], p0, p1)
		if !ok {
			acc[0], acc[1] = a0, a1
			return prod, j
		}
		addPairs(gw, worker[start:end], label[start:end], g0, g1)
		a0 += g0 - p0
		a1 += g1 - p1
		prod.Mul(sum)
		start = end
	}
	acc[0], acc[1] = a0, a1
	return prod, len(ends)
}

// pairPosterior returns the posterior (g0, g1) = s·(1/sum) of the products
// s_z = p_z Π_i p_i(z) of the labels' rows of t, taken label by label, and
// sum = s_0 + s_1; ok is false where PosteriorPairs' loop stops (a product
// below 2⁻²⁵⁶ or NaN after a label, a sum above 2 or NaN).
func pairPosterior(t []float64, worker []int32, label []uint16, p0, p1 float64) (g0, g1, sum float64, ok bool) {
	s0, s1 := p0, p1
	for i, w := range worker {
		r := (*[4]float64)(t[4*int(w):])
		y := 2 * int(label[i]&1)
		s0 *= r[y]
		s1 *= r[y+1]
		if !(s0 >= 0x1p-256 && s1 >= 0x1p-256) {
			return 0, 0, 0, false
		}
	}
	sum = s0 + s1
	if !(sum <= 2) {
		return 0, 0, 0, false
	}
	inv := 1 / sum
	return float64(s0 * inv), float64(s1 * inv), sum, true // rounded before the sums (see respPairs)
}

// addPairs adds (g0, g1) to the row of gw of every label.
func addPairs(gw []float64, worker []int32, label []uint16, g0, g1 float64) {
	for i, w := range worker {
		c := (*[4]float64)(gw[4*int(w):])
		y := 2 * int(label[i]&1)
		c[y] += g0
		c[y+1] += g1
	}
}

// PosteriorPairsRho is PosteriorPairs for a variational E-step, which
// keeps every group's posterior, with the groups given by their offsets:
// group j's labels are worker[off[j]:off[j+1]] and label[off[j]:off[j+1]]
// (off the data set's offsets from a first group on, worker and label all
// its labels), so that the caller need not write out the groups' ends.
// With g group j's posterior, once its sum has passed the checks,
// |g − rho_j| for its previous posterior rho_j = rho[2j : 2j+2] raises
// change (the largest of the two), g replaces rho_j and is added to
// sums[0:2], and then to the rows of gw of the group's labels, and the sum
// multiplies prod. It also stops at a group where |g − rho_j| is NaN,
// having written nothing for it. It returns the product, the change and
// the number of groups done; change must not be NaN. The results are the
// scalar loop's bit for bit on every build; on amd64 with AVX2
// (Vectorised) the loop is written in assembly, both classes in one
// instruction.
func PosteriorPairsRho(t, gw []float64, worker []int32, label []uint16, off []int, p0, p1 float64, rho, sums []float64, change float64, prod Product) (Product, float64, int) {
	if len(off) < 2 {
		return prod, change, 0
	}
	n, _ := groupSpanFrom(off[0], off[1:])
	end := off[0] + n
	if len(worker) < end || len(label) < end || len(rho) < 2*(len(off)-1) || len(sums) < 2 || len(gw) < len(t) {
		panic("num: PosteriorPairsRho: slices too short")
	}
	if haveAVX2 {
		m, c, e, done := posteriorPairsRhoAVX(t, gw, worker[:end], label[:end], off, p0, p1, rho, sums, change, prod.M, prod.E)
		if done < 0 {
			panic("num: row out of range")
		}
		return Product{M: m, E: e}, c, done
	}
	return posteriorPairsRho(t, gw, worker, label, off, p0, p1, rho, sums, change, prod)
}

// posteriorPairsRho is PosteriorPairsRho's scalar loop.
func posteriorPairsRho(t, gw []float64, worker []int32, label []uint16, off []int, p0, p1 float64, rho, sums []float64, change float64, prod Product) (Product, float64, int) {
	start := off[0]
	for j, end := range off[1:] {
		g0, g1, sum, ok := pairPosterior(t, worker[start:end], label[start:end], p0, p1)
		if !ok {
			return prod, change, j
		}
		d0, d1 := math.Abs(g0-rho[2*j]), math.Abs(g1-rho[2*j+1])
		if d0 != d0 || d1 != d1 {
			return prod, change, j
		}
		change = max(change, d0, d1)
		rho[2*j], rho[2*j+1] = g0, g1
		sums[0] += g0
		sums[1] += g1
		addPairs(gw, worker[start:end], label[start:end], g0, g1)
		prod.Mul(sum)
		start = end
	}
	return prod, change, len(off) - 1
}

// RespPairsBatch is RespPairs for labels whose two probabilities are given
// in order instead of read from a table: label i of the groups has
// p_i(z) = p[2i+z], its responsibilities are written to g[2i+z] (and to
// no counts), and group j's gradient in its logits is added to gb[2j+z].
// Where it stops at a group, that group's labels may have had their g
// written. It panics if the slices are shorter than the groups need. The
// results are the scalar loop's bit for bit on every build; on amd64 with
// AVX2 (Vectorised) the loop is written in assembly.
func RespPairsBatch(p, g []float64, ends []int, b, ex, gb []float64, prod float64, scale int) (float64, int, int) {
	if len(ends) == 0 {
		return prod, scale, 0
	}
	n, _ := groupSpan(ends)
	k := len(ends)
	if len(p) < 2*n || len(g) < 2*n || len(b) < 2*k || len(ex) < k || len(gb) < 2*k {
		panic("num: RespPairsBatch: slices too short")
	}
	if haveAVX2 {
		return respPairsBatchAVX(p[:2*n], g[:2*n], ends, b, ex, gb, prod, scale)
	}
	return respPairsBatch(p, g, ends, b, ex, gb, prod, scale)
}

// respPairsBatch is RespPairsBatch's scalar loop: one loop over the labels
// with the groups' ends as marks, so that its values stay in registers.
// The products are rounded before the sums that take them (float64), so
// that no build fuses them.
func respPairsBatch(p, g []float64, ends []int, b, ex, gb []float64, prod float64, scale int) (float64, int, int) {
	n := ends[len(ends)-1]
	p, g = p[:2*n], g[:2*n]
	i := 0
	for j, end := range ends {
		q1, q0 := SigmoidPair(b[2*j+1]-b[2*j], ex[j])
		oprod, oscale := prod, scale // to undo the group
		cnt := float64(end - i)
		var a0, a1 float64
		for ; i < end; i++ {
			t0, t1 := float64(q0*p[2*i]), float64(q1*p[2*i+1])
			m := t0 + t1
			if !(m >= 0x1p-600) {
				return oprod, oscale, j
			}
			inv := 1 / m
			r0, r1 := float64(t0*inv), float64(t1*inv)
			g[2*i], g[2*i+1] = r0, r1
			a0 += r0
			a1 += r1
			prod, scale = mulScaled(prod, scale, m)
		}
		gb[2*j] += a0 - float64(cnt*q0)
		gb[2*j+1] += a1 - float64(cnt*q1)
	}
	return prod, scale, len(ends)
}

// mulScaled multiplies the DA loops' product prod·2^scale by m: it returns
// prod·m and scale, or, where prod·m falls below 2⁻²⁵⁶, its fraction in
// [½, 1) (math.Frexp) and scale plus its exponent.
func mulScaled(prod float64, scale int, m float64) (float64, int) {
	prod *= m
	if prod < 0x1p-256 {
		var e int
		prod, e = math.Frexp(prod)
		scale += e
	}
	return prod, scale
}
