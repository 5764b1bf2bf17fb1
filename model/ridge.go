package model

// ridge adds the gradient of (lambda/2) Σ x² to grad and returns the
// penalty's value.
func ridge(lambda float64, x, grad []float64) float64 {
	var s float64
	for i, v := range x {
		s += v * v
		grad[i] += lambda * v
	}
	return lambda / 2 * s
}
