package num

// digammaShift takes DigammaTo's recurrence for every x[i] (positive and
// finite): x[i] becomes the first x[i] + m ≥ 7, each step rounded as
// x++ rounds it, and r[i] the sum r = r − 1/x over the steps, from 0.
// On amd64 with AVX2 four elements are taken at a time, with the same
// operations in every lane, so that the values are bit for bit the
// scalar loop's.
func digammaShift(x, r []float64) {
	r = r[:len(x)]
	i := 0
	if haveAVX2 {
		i = digammaShiftAVX2(x, r)
	}
	for ; i < len(x); i++ {
		v, s := x[i], 0.0
		for ; v < 7; v++ {
			s -= 1 / v
		}
		x[i], r[i] = v, s
	}
}

// gammaShiftTo takes LgammaDigammaTo's recurrences for every u[i]
// (positive and finite): u[i] becomes the first u[i] + m ≥ gammaShift,
// prod[i] the product prod·u and inv[i] the sum inv + 1/u over the steps,
// from 1 and 0, each in the order of the steps. On amd64 with AVX2 four
// elements are taken at a time, with the same operations in every lane,
// so that the values are bit for bit the scalar loop's.
func gammaShiftTo(u, prod, inv []float64) {
	prod, inv = prod[:len(u)], inv[:len(u)]
	i := 0
	if haveAVX2 {
		i = gammaShiftAVX2(u, prod, inv)
	}
	for ; i < len(u); i++ {
		v, p, s := u[i], 1.0, 0.0
		for ; v < gammaShift; v++ {
			p *= v
			s += 1 / v
		}
		u[i], prod[i], inv[i] = v, p, s
	}
}
