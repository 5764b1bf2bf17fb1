package compare

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/consensuslab/consensus/model"
)

// WorkerPair is a pair of workers whose labels on the same tasks agree
// more often than a fit's independent workers explain (SharedErrors).
// A == B is one worker who labelled the same tasks more than once.
type WorkerPair struct {
	// A and B index the workers (data.Dataset.Workers), A ≤ B.
	A, B int32
	// Shared is the number of pairs of their labels on a common task.
	Shared int
	// Agree is the share of those pairs that agree, Expected the share
	// the fit expects of independent workers.
	Agree, Expected float64
	// Z is the excess in standard deviations: (Σ agree − Σ p) / √Σ p(1 − p).
	Z float64
}

// SharedSettings controls SharedErrors. Its zero value checks the pairs
// among the 50 most active workers on at most 20,000 tasks, and reports
// a pair with at least 50 shared tasks whose agreement is 5 standard
// deviations and 5 points above what the fit expects.
type SharedSettings struct {
	// Workers is the number of most active workers whose pairs are
	// checked; zero means 50. Shared errors that move a consensus are
	// those of workers who give many labels.
	Workers int
	// MaxTasks bounds the tasks read (every m-th task); zero means 20,000.
	MaxTasks int
	// MinShared is the least number of shared tasks of a pair reported;
	// zero means 50.
	MinShared int
	// Z and Excess are the least excess reported, in standard deviations
	// and in agreement share; zero means 5 and 0.05.
	Z, Excess float64
}

// ErrNoWorkerModel is returned by SharedErrors for a result without
// fitted workers (Result.WorkerColumns is nil).
var ErrNoWorkerModel = errors.New("the fit has no worker model")

// SharedErrors returns the pairs of workers of the fit r (a posterior of
// the true class, under LA, with its fitted workers) whose labels agree
// beyond what independent workers explain, the most significant first: a
// posterior predictive check of the independence that every model but
// ebcc assumes. For labels y_a and y_b of workers a and b on task j, the
// posterior without both, ρ_j^{−ab}(z) ∝ ρ_j(z) / (P_a(y_a | z) P_b(y_b | z)),
// gives the probability that two independent labels agree,
//
//	p_j = Σ_z ρ_j^{−ab}(z) Σ_y P_a(y | z) P_b(y | z),
//
// and the pair's excess is Σ_j [y_a = y_b] − Σ_j p_j over their shared
// tasks, in standard deviations √Σ_j p_j (1 − p_j). Workers who share a
// systematic mistake (both call a subtype of one class another) agree on
// it where the rest of the crowd does not; a model of independent workers
// reads their agreement as the truth (docs/choosing-a-model.md). On
// independent simulated crowds no pair reaches the defaults' bars; on the
// correlated regime its one correlated pair does (TestSharedErrors).
func SharedErrors(r *model.Result, s SharedSettings) ([]WorkerPair, error) {
	if r == nil || r.Data == nil {
		return nil, errors.New("shared errors: no result")
	}
	if r.WorkerColumns() == nil {
		return nil, fmt.Errorf("shared errors of model %s: %w", r.Model, ErrNoWorkerModel)
	}
	d, k := r.Data, r.K()
	if len(r.Probs) != d.NumTasks()*k {
		return nil, fmt.Errorf("shared errors of model %s: %d probabilities for %d tasks of %d classes", r.Model, len(r.Probs), d.NumTasks(), k)
	}
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
	stride := max(1, d.NumTasks()/cmp.Or(s.MaxTasks, 20_000))
	pa, pb := make([]float64, k), make([]float64, k)
	cav, agreeZ := make([]float64, k), make([]float64, k)
	for j := 0; j < d.NumTasks(); j += stride {
		ws, ls := d.TaskLabels(j)
		rho := r.Probs[j*k : (j+1)*k]
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
					r.Conditional(a, j, z, pa)
					r.Conditional(b, j, z, pb)
					cav[z] = rho[z] / max(pa[ya]*pb[yb], 1e-300)
					sum += cav[z]
					agreeZ[z] = 0
					for y := range k {
						agreeZ[z] += pa[y] * pb[y]
					}
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
	var out []WorkerPair
	for i := range n {
		for j := i; j < n; j++ {
			c := pairs[i*n+j]
			if c.shared < minShared || c.v <= 0 {
				continue
			}
			z := (c.agree - c.exp) / math.Sqrt(c.v)
			if z >= zBar && (c.agree-c.exp)/c.shared >= excess {
				out = append(out, WorkerPair{A: order[i], B: order[j], Shared: int(c.shared),
					Agree: c.agree / c.shared, Expected: c.exp / c.shared, Z: z})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b WorkerPair) int { return cmp.Compare(b.Z, a.Z) })
	return out, nil
}
