package model

// WorkerSkills returns every worker's skill: the fitted probability that
// the worker reports the consensus class, averaged over the worker's n_w
// labels,
//
//	skill_w = (1/n_w) Σ_{i: w(i) = w} Σ_z out_j(i)(z) P(y = z | z; w, j(i)),
//
// with out_j the consensus distribution of task j and P the fitted noise
// model (Result.Conditional). It is one number per worker for every model,
// comparable across models, beside the model's own worker parameters
// (WorkerValues): for Dawid-Skene the diagonal of the confusion matrix
// weighted by the consensus, for GLAD σ(e_w d_j) averaged over the
// worker's tasks. A worker without labels gets NaN. RFE, whose workers
// are taken as perfect, gives 1 for every worker.
func (r *Result) WorkerSkills() []float64 {
	d := r.Data
	k := d.NumClasses()
	p := make([]float64, k)
	s := make([]float64, d.NumWorkers())
	n := make([]float64, d.NumWorkers())
	for j := range d.Tasks {
		out := r.Dist(j)
		workers, _ := d.TaskLabels(j)
		for _, w := range workers {
			n[w]++
			for z, q := range out {
				if q == 0 {
					continue
				}
				r.Conditional(w, j, z, p)
				s[w] += q * p[z]
			}
		}
	}
	for w := range s {
		s[w] /= n[w]
	}
	return s
}

// Agreement returns the fitted workers' mean probability of reporting the
// consensus class over all N labels, Σ_w n_w skill_w / N (see
// WorkerSkills). Workers who are better than chance on average give
// A > 1/K; a fit in the mirror mode, whose consensus has the classes
// switched so that the workers look systematically wrong, gives A < 1/K.
func (r *Result) Agreement() float64 {
	d := r.Data
	n := make([]float64, d.NumWorkers())
	for _, w := range d.Worker {
		n[w]++
	}
	var a float64
	for w, s := range r.WorkerSkills() {
		if n[w] > 0 {
			a += n[w] * s
		}
	}
	return a / float64(max(d.NumLabels(), 1))
}
