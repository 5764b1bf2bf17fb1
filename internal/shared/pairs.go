// Package shared finds workers who share mistakes, and computes the
// posterior of every task's true class under a model in which they do: the
// trap model. Every model of independent workers reads the agreement of
// workers who share a systematic mistake (both call a subtype of one class
// another) as the truth.
//
// In the trap model each task has a true class z and is, with probability
// η(z, d), a trap with distractor d ≠ z; on a trap every worker w is
// independently fooled with probability s_w and then labels d, and
// otherwise labels from its confusion row P_w(· | z), as on every task that
// is not a trap:
//
//	P(labels_j) = Σ_z π_z [(1 − Σ_d η_zd) Π_i P_wi(y_i|z) + Σ_d η_zd Π_i (s_wi [y_i = d] + (1 − s_wi) P_wi(y_i|z))].
//
// Fit estimates π, η, s and the confusion rows by expectation
// maximisation, and the same for LA (η = 0), so that the caller can take
// the trap model only where its likelihood gain pays for its parameters.
package shared

import (
	"cmp"
	"math"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// Cond writes into p the probability P(y | z) of every label y from worker
// w on task j when the task's true class is z.
type Cond func(w int32, j, z int, p []float64)

// Pair is a pair of workers whose labels on the same tasks agree more
// often than a fit's independent workers explain (Pairs). A == B is one
// worker who labelled the same tasks more than once.
type Pair struct {
	// A and B index the workers (data.Dataset.Workers).
	A, B int32
	// Shared is the number of pairs of their labels on a common task.
	Shared int
	// Agree is the share of those pairs that agree, Expected the share
	// the fit expects of independent workers.
	Agree, Expected float64
	// Z is the excess in standard deviations: (Σ agree − Σ p) / √Σ p(1 − p).
	Z float64
}

// Settings controls Pairs. Its zero value checks the pairs among the 50
// most active workers on at most 20,000 tasks, and reports a pair with at
// least 50 shared tasks whose agreement is 5 standard deviations and 5
// points above what the fit expects.
type Settings struct {
	// Workers is the number of most active workers whose pairs are
	// checked; zero means 50.
	Workers int
	// MaxTasks bounds the tasks read (every m-th task); zero means 20,000.
	MaxTasks int
	// MinShared is the least number of shared tasks of a pair reported;
	// zero means 50.
	MinShared int
	// Z and Excess are the least excess reported, in standard deviations
	// and in agreement share; zero means 5 and 0.05.
	Z, Excess float64
	// WorkerOnly says that cond does not depend on the task, so that a
	// worker's conditionals are read once.
	WorkerOnly bool
}

// stride returns m: Pairs reads every m-th task of d, at most MaxTasks.
func (s Settings) stride(d *data.Dataset) int {
	return max(1, d.NumTasks()/cmp.Or(s.MaxTasks, 20_000))
}

// Pairs returns the pairs of workers of d whose labels agree beyond what
// independent workers explain, the most significant first, given the
// posterior probs (J×K) of every task's true class of a fit under LA and
// its workers' conditionals cond. For labels y_a and y_b of workers a and
// b on task j, the posterior without both, ρ_j^{−ab}(z) ∝ ρ_j(z) /
// (P_a(y_a | z) P_b(y_b | z)), gives the probability that two independent
// labels agree,
//
//	p_j = Σ_z ρ_j^{−ab}(z) Σ_y P_a(y | z) P_b(y | z),
//
// and the pair's excess is Σ_j [y_a = y_b] − Σ_j p_j over their shared
// tasks, in standard deviations √Σ_j p_j (1 − p_j). The pairs are among
// the most active workers, A before B in that order.
func Pairs(d *data.Dataset, probs []float64, cond Cond, s Settings) []Pair {
	k := d.NumClasses()
	nw := cmp.Or(s.Workers, 50)
	// The most active workers, by their labels (ties to the lower index).
	count := make([]int, d.NumWorkers())
	for _, w := range d.Worker {
		count[w]++
	}
	order := make([]int32, d.NumWorkers())
	for w := range order {
		order[w] = int32(w)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(count[b], count[a]) })
	order = order[:min(nw, len(order))]
	slot := make([]int, d.NumWorkers())
	for w := range slot {
		slot[w] = -1
	}
	for i, w := range order {
		slot[w] = i
	}
	n := len(order)
	type acc struct{ shared, agree, exp, v float64 }
	pairs := make([]acc, n*n)
	stride := s.stride(d)
	pa, pb := make([]float64, k), make([]float64, k)
	cav, agreeZ := make([]float64, k), make([]float64, k)
	// With WorkerOnly, the workers' rows (n×K×K) and every pair's
	// Σ_y P_a(y | z) P_b(y | z) (n×n×K) once.
	var rows, agreeAB []float64
	if s.WorkerOnly {
		rows = make([]float64, n*k*k)
		for i, w := range order {
			for z := range k {
				cond(w, 0, z, rows[(i*k+z)*k:(i*k+z+1)*k])
			}
		}
		agreeAB = make([]float64, n*n*k)
		for ia := range n {
			for ib := ia; ib < n; ib++ {
				for z := range k {
					ra, rb := rows[(ia*k+z)*k:(ia*k+z+1)*k], rows[(ib*k+z)*k:(ib*k+z+1)*k]
					var v float64
					for y := range k {
						v += ra[y] * rb[y]
					}
					agreeAB[(ia*n+ib)*k+z] = v
				}
			}
		}
	}
	for j := 0; j < d.NumTasks(); j += stride {
		ws, ls := d.TaskLabels(j)
		rho := probs[j*k : (j+1)*k]
		for i1 := range ws {
			if slot[ws[i1]] < 0 {
				continue
			}
			for i2 := i1 + 1; i2 < len(ws); i2++ {
				if slot[ws[i2]] < 0 {
					continue
				}
				a, b, ya, yb := ws[i1], ws[i2], int(ls[i1]), int(ls[i2])
				if slot[a] > slot[b] {
					a, b, ya, yb = b, a, yb, ya
				}
				var sum float64
				for z := range k {
					if rows != nil {
						ia, ib := slot[a], slot[b]
						cav[z] = rho[z] / max(rows[(ia*k+z)*k+ya]*rows[(ib*k+z)*k+yb], 1e-300)
						agreeZ[z] = agreeAB[(ia*n+ib)*k+z]
					} else {
						cond(a, j, z, pa)
						cond(b, j, z, pb)
						cav[z] = rho[z] / max(pa[ya]*pb[yb], 1e-300)
						agreeZ[z] = 0
						for y := range k {
							agreeZ[z] += pa[y] * pb[y]
						}
					}
					sum += cav[z]
				}
				var p float64
				for z := range k {
					p += cav[z] / sum * agreeZ[z]
				}
				c := &pairs[slot[a]*n+slot[b]]
				c.shared++
				if ya == yb {
					c.agree++
				}
				c.exp += p
				c.v += p * (1 - p)
			}
		}
	}
	minShared := float64(cmp.Or(s.MinShared, 50))
	zBar, excess := cmp.Or(s.Z, 5), cmp.Or(s.Excess, 0.05)
	var out []Pair
	for i := range n {
		for j := i; j < n; j++ {
			c := pairs[i*n+j]
			if c.shared < minShared || c.v <= 0 {
				continue
			}
			z := (c.agree - c.exp) / math.Sqrt(c.v)
			if z >= zBar && (c.agree-c.exp)/c.shared >= excess {
				out = append(out, Pair{A: order[i], B: order[j], Shared: int(c.shared),
					Agree: c.agree / c.shared, Expected: c.exp / c.shared, Z: z})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Pair) int { return cmp.Compare(b.Z, a.Z) })
	return out
}

// ClassPrior returns the mean of the true-class posteriors probs (J×K) of
// the tasks of d, with one pseudo-task of every class: the class prior of
// a fit's output, as Posterior and Fit read it.
func ClassPrior(d *data.Dataset, probs []float64) []float64 {
	k := d.NumClasses()
	prior := make([]float64, k)
	for j := 0; j < len(probs); j += k {
		for c := range k {
			prior[c] += probs[j+c]
		}
	}
	for c := range prior {
		prior[c] = (prior[c] + 1) / float64(d.NumTasks()+k)
	}
	return prior
}

// Posterior writes into probs (J×K) every task's posterior of its true
// class under LA given the workers' conditionals cond and the class prior
// prior: ρ_j(z) ∝ π_z Π_i P_wi(y_i | z). A fit whose output is not this
// posterior (tempered, floored, or of another model of the true class)
// gives Pairs its leave-two-out posteriors this way. workerOnly says that
// cond does not depend on the task, so that a worker's conditionals are
// read once.
func Posterior(d *data.Dataset, prior []float64, cond Cond, workerOnly bool, probs []float64) {
	k := d.NumClasses()
	p := make([]float64, k)
	var logs []float64 // log P_w(y | z), W×K×K, with workerOnly
	if workerOnly {
		logs = make([]float64, d.NumWorkers()*k*k)
		for w := range d.NumWorkers() {
			for z := range k {
				cond(int32(w), 0, z, p)
				for y, v := range p {
					logs[(w*k+z)*k+y] = math.Log(max(v, 1e-300))
				}
			}
		}
	}
	for j := range d.NumTasks() {
		row := probs[j*k : (j+1)*k]
		for z := range k {
			row[z] = math.Log(max(prior[z], 1e-300))
		}
		workers, labels := d.TaskLabels(j)
		for i, w := range workers {
			y := int(labels[i])
			for z := range k {
				if logs != nil {
					row[z] += logs[(int(w)*k+z)*k+y]
					continue
				}
				cond(w, j, z, p)
				row[z] += math.Log(max(p[y], 1e-300))
			}
		}
		num.SoftmaxFrom(row, row, num.LogSumExp(row))
	}
}
