package model

// Agreement returns the fitted workers' mean probability of reporting the
// consensus class,
//
//	A = (1/N) Σ_i Σ_z out_j(i)(z) P(y = z | z; w(i), j(i)),
//
// over the N labels, with out_j the consensus distribution of task j and
// P the fitted noise model (Result.Conditional). Workers who are better
// than chance on average give A > 1/K; a fit in the mirror mode, whose
// consensus has the classes switched so that the workers look
// systematically wrong, gives A < 1/K. RFE, whose workers are taken as
// perfect, gives 1.
func (r *Result) Agreement() float64 {
	d := r.Data
	k := d.NumClasses()
	p := make([]float64, k)
	var a float64
	for j := range d.Tasks {
		out := r.Dist(j)
		workers, _ := d.TaskLabels(j)
		for _, w := range workers {
			for z, q := range out {
				if q == 0 {
					continue
				}
				r.Conditional(w, j, z, p)
				a += q * p[z]
			}
		}
	}
	return a / float64(max(d.NumLabels(), 1))
}
