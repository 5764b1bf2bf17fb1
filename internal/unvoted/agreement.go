package unvoted

import (
	"math"

	"github.com/consensuslab/consensus/data"
)

// Agreement returns how far the labels of d agree within tasks beyond
// what workers who ignore the task would give, as a z-score: for every
// task j, s_j = O_j − E_j, with O_j the number of pairs of its labels from
// two distinct workers that agree and
//
//	E_j = Σ_{pairs (a, b)} Σ_y m_{w_a}(y) m_{w_b}(y)
//
// their expected number if every worker w drew its labels from its own
// class shares m_w, counted without task j and smoothed by two
// pseudo-labels at the labels' shares (LabelShares). The score is
// Σ_j s_j / sqrt(Σ_j s_j²), which needs no model of how a task's pairs
// depend on each other. It is 0 where no task has labels of two workers.
//
// A consensus that gives every task one class reads every worker as one
// that ignores the task, and cannot explain agreement: on the crowds of
// Dropped, balanced classes and workers of U[0.5, 0.7], it was 1.3-10.3;
// with classes of 90% and 10%, workers of U[0.45, 0.65] (30% of them
// spammers or none), two labels a task, −0.5 to 1.8.
func Agreement(d *data.Dataset) float64 {
	all, _ := agreements(d)
	return all
}

// ClassAgreement returns Agreement's z-score of every class y alone, from
// the pairs that agree on y: s_j(y) = O_j(y) − E_j(y), with E_j(y) the
// term of y in E_j. A class that workers give its tasks has pairs
// agreeing on it beyond their workers' shares, however few of the labels
// it has; a class that noise alone gives has none, but workers who err
// alike on one class's tasks (on the next class, say) make one.
func ClassAgreement(d *data.Dataset) []float64 {
	_, by := agreements(d)
	return by
}

// agreements returns Agreement and ClassAgreement, from one pass over the
// tasks.
func agreements(d *data.Dataset) (float64, []float64) {
	k := d.NumClasses()
	shares := LabelShares(d)
	count := make([]float64, d.NumWorkers()*k)
	total := make([]float64, d.NumWorkers())
	for i, w := range d.Worker {
		count[int(w)*k+int(d.Label[i])]++
		total[w]++
	}
	const pseudo = 2
	slot := make([]int, d.NumWorkers()) // 1 + the worker's place in seen, on the current task
	var seen []int32                    // the current task's workers
	var own []float64                   // their labels' counts on it, len(seen)×K
	t, mass, square, m := make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	var sum, sq float64
	sumY, sqY, sy := make([]float64, k), make([]float64, k), make([]float64, k)
	for j := range d.Tasks {
		ws, ls := d.TaskLabels(j)
		seen, own = seen[:0], own[:0]
		clear(t)
		for i, w := range ws {
			if slot[w] == 0 {
				seen = append(seen, w)
				for range k {
					own = append(own, 0)
				}
				slot[w] = len(seen)
			}
			own[(slot[w]-1)*k+int(ls[i])]++
			t[ls[i]]++
		}
		for _, w := range seen {
			slot[w] = 0
		}
		if len(seen) < 2 {
			continue
		}
		// O_j: pairs of labels that agree, less those of one worker.
		var s float64
		for y := range k {
			sy[y] = t[y] * (t[y] - 1) / 2
			s += sy[y]
		}
		clear(mass)
		clear(square)
		for a, w := range seen {
			o := own[a*k : (a+1)*k]
			var n float64
			for y := range k {
				s -= o[y] * (o[y] - 1) / 2
				sy[y] -= o[y] * (o[y] - 1) / 2
				n += o[y]
			}
			for y := range k {
				m[y] = (count[int(w)*k+y] - o[y] + pseudo*shares[y]) / (total[w] - n + pseudo)
				mass[y] += n * m[y]
				square[y] += n * n * m[y] * m[y]
			}
		}
		// E_j: Σ over pairs of distinct workers of n_a n_b Σ_y m_a(y) m_b(y).
		for y := range k {
			e := (mass[y]*mass[y] - square[y]) / 2
			s -= e
			sy[y] -= e
			sumY[y] += sy[y]
			sqY[y] += sy[y] * sy[y]
		}
		sum += s
		sq += s * s
	}
	for y := range k {
		if sqY[y] > 0 {
			sumY[y] /= math.Sqrt(sqY[y])
		}
	}
	if sq == 0 {
		return 0, sumY
	}
	return sum / math.Sqrt(sq), sumY
}
