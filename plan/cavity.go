package plan

import (
	"errors"
	"fmt"
	"math"
)

// checkPosterior returns an error if p cannot be read: nil, without data
// or workers, or with Probs that are not one row of K per task.
func checkPosterior(p *Posterior) error {
	switch {
	case p == nil:
		return errors.New("plan: no posterior")
	case p.Data == nil:
		return errors.New("plan: a posterior without its data set")
	case p.Workers == nil:
		return errors.New("plan: a posterior without its workers' confusion matrices")
	case len(p.Probs) != p.Data.NumTasks()*p.Data.NumClasses():
		return fmt.Errorf("plan: a posterior with %d consensus probabilities, want %d tasks × %d classes", len(p.Probs), p.Data.NumTasks(), p.Data.NumClasses())
	}
	return nil
}

// Cavity returns the class posteriors the planner reads for a fit whose
// Probs are class posteriors: those of cavity, held as a TaskPosterior. A
// Posterior built from another model takes its Tasks from here when its
// worker posteriors were fitted to the same labels. A nil posterior, one
// without data or workers, or one whose Probs are not J×K is an error.
func Cavity(p *Posterior) (TaskPosterior, error) {
	if err := checkPosterior(p); err != nil {
		return nil, err
	}
	return rows{probs: cavity(p, p.Probs), k: p.Data.NumClasses()}, nil
}

// cavity returns the class posterior of every task recomputed with every
// worker's confusion matrix taken without the task's own labels: the
// posterior mean of π_w(z, ·) from λ_w(z, ·) less the label's expected
// count ρ_j(z), and the class prior from the mean of ρ. A mean-field fit
// counts a task's labels twice, once in its posterior and once in its
// workers' confusion matrices, which makes it sure of itself where workers
// have few labels (with one label per task, every worker looks perfect
// and every task certain); the cavity posterior counts them once. J×K.
func cavity(p *Posterior, rho []float64) []float64 {
	d := p.Data
	k := d.NumClasses()
	lam := make([]float64, d.NumWorkers()*k*k)
	sums := make([]float64, d.NumWorkers()*k)
	for w := range d.Workers {
		l := lam[w*k*k : (w+1)*k*k]
		p.Workers.Confusion(w, l)
		for z := range k {
			for y := range k {
				sums[w*k+z] += l[z*k+y]
			}
		}
	}
	prior := make([]float64, k)
	for j := range d.Tasks {
		for z := range k {
			prior[z] += rho[j*k+z]
		}
	}
	for z := range prior {
		prior[z] = math.Log((prior[z] + 1) / float64(d.NumTasks()+k))
	}
	out := make([]float64, len(rho))
	for j := range d.Tasks {
		r := rho[j*k : (j+1)*k]
		o := out[j*k : (j+1)*k]
		copy(o, prior)
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w, y := int(d.Worker[i]), int(d.Label[i])
			for z := range k {
				num := lam[(w*k+z)*k+y] - r[z]
				den := sums[w*k+z] - r[z]
				o[z] += math.Log(max(num, 1e-300) / den)
			}
		}
		top := math.Inf(-1)
		for _, x := range o {
			top = max(top, x)
		}
		var s float64
		for z := range o {
			o[z] = math.Exp(o[z] - top)
			s += o[z]
		}
		for z := range o {
			o[z] /= s
		}
	}
	return out
}
