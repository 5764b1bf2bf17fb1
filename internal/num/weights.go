package num

// WeightsTo sets every element of x to
//
//	x[i] = max(x[i]·a + g[i]/n, 0)
//
// and returns their sum, added in the order of i from +0. The product is
// rounded before the sum that takes it, and max is Go's (a NaN stays a NaN,
// -0 becomes +0). g must be at least as long as x. This is DA's M-step for
// one object: q_j(z) + gtask_j(z)/n_j from softmax's exponentials x and
// their reciprocal sum a, raised to at least 0.
//
// Each element's operations are those of the scalar loop in the same order,
// so the result is the same bit for bit on every build; on amd64 with AVX2
// four elements are computed at a time.
func WeightsTo(x, g []float64, a, n float64) float64 {
	g = g[:len(x)]
	var s float64
	i := 0
	if haveAVX2 && len(x) >= 4 {
		i = len(x) &^ 3
		s = weightsAVX2(x, g, a, n, i)
	}
	for ; i < len(x); i++ {
		w := max(float64(x[i]*a)+g[i]/n, 0)
		x[i] = w
		s += w
	}
	return s
}

// DivMaxTo sets every element of x to max(x[i]/s, floor), Go's max, for
// a floor that is positive (a floor that is not is taken by the scalar
// loop alone). Each element's operations are those of the scalar loop, so
// the result is the same bit for bit on every build; on amd64 with AVX2
// four elements are computed at a time.
func DivMaxTo(x []float64, s, floor float64) {
	i := 0
	if haveAVX2 && len(x) >= 4 && floor > 0 {
		i = len(x) &^ 3
		divMaxAVX2(x, s, floor, i)
	}
	for ; i < len(x); i++ {
		x[i] = max(x[i]/s, floor)
	}
}
