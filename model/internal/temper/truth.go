package temper

import (
	"math"

	"github.com/consensuslab/consensus/data"
)

// Entries is the number of labels, at most, that Truth's criterion
// reads.
const Entries = 100_000

// Truth calibrates the true-class posteriors probs (J×K) of an LA fit on
// d without gold labels: every row ρ_j becomes ρ_j^τ / Σ_z ρ_j(z)^τ
// for the temperature τ ∈ [Min, 1] that best predicts each label
// from the others, and then floor of the uniform distribution is
// mixed in (Rows). Tasks of known class (gold[j] ≥ 0; gold may be nil) keep their
// one-hot row and take no part in the criterion. It returns τ.
//
// For label i of task j by worker w, the posterior without it is
// ρ_j^{−i}(z) ∝ ρ_j(z) / P(y_i | z), and its tempered form predicts the
// label with probability Σ_z ρ_j^{−i,τ}(z) P(y_i | z), where cond gives
// P(y | z) at the fitted workers; τ maximises the sum of the logarithms of
// these predictions over the labels of tasks with two or more labels (on
// large data sets, of every m-th such task, so that at most about
// Entries/K labels are read). Mean-field posteriors are overconfident
// wherever independent workers do not explain the labels' disagreement;
// τ < 1 spreads them by as much as the held-out labels ask, and τ = 1
// leaves them as they are. workerOnly says that cond does not depend on the
// task, so that it is read once per worker.
func Truth(d *data.Dataset, probs []float64, gold []int, cond func(w int32, j, z int, p []float64), workerOnly bool, floor float64) float64 {
	k := d.NumClasses()
	stride := max(1, d.NumLabels()*k/Entries)
	// For every label read: log ρ_j^{−i}(z) and P(y_i | z), K each.
	var size int
	for j := 0; j < d.NumTasks(); j += stride {
		size += (d.Offsets[j+1] - d.Offsets[j]) * k
	}
	loo, pc := make([]float64, 0, size), make([]float64, 0, size)
	var cache []float64 // P(y | z) of every worker, K×K each, when workerOnly
	if workerOnly {
		cache = make([]float64, d.NumWorkers()*k*k)
		for w := range d.NumWorkers() {
			for z := range k {
				cond(int32(w), 0, z, cache[(w*k+z)*k:(w*k+z+1)*k])
			}
		}
	}
	p := make([]float64, k)
	for j := 0; j < d.NumTasks(); j += stride {
		workers, labels := d.TaskLabels(j)
		if len(workers) < 2 || gold != nil && gold[j] >= 0 {
			continue
		}
		rho := probs[j*k : (j+1)*k]
		for i, w := range workers {
			y := int(labels[i])
			for z := range k {
				var c float64
				if workerOnly {
					c = cache[(int(w)*k+z)*k+y]
				} else {
					cond(w, j, z, p)
					c = p[y]
				}
				pc = append(pc, c)
				loo = append(loo, math.Log(max(rho[z], 1e-300))-math.Log(max(c, 1e-300)))
			}
		}
	}
	tau := 1.0
	if len(loo) > 0 {
		tau = Best(loo, pc, k)
	}
	Rows(probs, k, gold, tau, floor)
	return tau
}
