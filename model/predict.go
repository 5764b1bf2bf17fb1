package model

// ConditionalFunc returns a function that writes P(y | z) for worker w
// labelling object j into p at the fitted parameters, like Conditional, but
// hands the parameters to the noise model once instead of on every call.
// It returns nil for RFE. The function must not be called concurrently
// with other methods of r.
func (r *Result) ConditionalFunc() func(w int32, j, z int, p []float64) {
	if r.obj == nil {
		return nil
	}
	r.obj.setParams(r.Params)
	ev := r.obj.noise
	return func(w int32, j, z int, p []float64) { ev.Conditional(w, j, z, p) }
}
