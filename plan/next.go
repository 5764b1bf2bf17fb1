package plan

import (
	"cmp"
	"errors"
	"math"
	"slices"
)

// Settings are the settings of Next. The zero value is the default of
// every field, with no budget.
type Settings struct {
	// Budget is the number of tasks (or task-worker pairs) to choose.
	Budget int
	// Stop is the stopping rule: a task whose consensus label is right
	// with posterior probability Stop or more gets no label; zero means
	// 0.99.
	Stop float64
	// Lookahead is the largest number of further labels a task's gain is
	// looked ahead over; zero means 3. With many classes fewer are looked
	// ahead over, so that at most 1000 count vectors of labels are
	// enumerated for each number (at K = 20, two labels; from K = 45, one).
	Lookahead int
	// Pool, if not nil, lists the workers available (indices into the
	// data set's workers): Next then chooses task-worker pairs, a worker
	// never for a task it labelled, each worker at most PerWorker times.
	Pool []int
	// PerWorker is the number of tasks a worker of the pool may get; zero
	// means the budget divided by the pool's size, rounded up.
	PerWorker int
	// Allowed, if not nil, says which tasks may be chosen (a replay can
	// only reveal a task's recorded labels).
	Allowed func(j int) bool
}

// Pick is one choice of Next.
type Pick struct {
	// Task is the task's index in the data set.
	Task int
	// Worker is the worker's index, or -1 without a pool.
	Worker int
	// Gain is the expected gain in the probability that the task's
	// consensus label is right, per label, looking Lookahead labels ahead
	// (see Next).
	Gain float64
	// Confidence is the largest probability of the task's class posterior
	// as Next reads it (p.Tasks: for FromResult's fits, the cavity
	// posterior), the probability that its decision is right.
	Confidence float64
	// Change is the probability that the consensus label changes with one
	// more label.
	Change float64
}

// Next returns the tasks whose next label is expected to improve the
// consensus most, best first, at most s.Budget of them.
//
// The measure is the expected gain in accuracy. A task with class
// posterior ρ is labelled right with probability max_z ρ(z) if labelling
// stopped now; after m more labels with counts c (c_y labels of class y),
// from a worker whose confusion matrix is π, the posterior becomes ρ'(z) ∝
// ρ(z) Π_y π(z, y)^{c_y}, and the expected probability of being right is
//
//	A_m = Σ_c Multinomial(c) max_z ρ(z) Π_y π(z, y)^{c_y},
//
// a sum over the count vectors of m labels. The gain of the task is
// max_{m ≤ Lookahead} (A_m − A_0)/m: the gain per label of the best number
// of labels to add. One label alone cannot always change the decision (a
// task at two votes to none), and then its gain is zero although a few
// labels would help; the lookahead sees it. Without a pool π is the
// average worker's, the posterior means of the workers' confusion matrices
// weighted by their labels; with one, it is the worker's own.
//
// Tasks whose confidence max_z ρ(z) is Stop or more get nothing (the
// stopping rule), so that Next may return fewer than Budget. A task below
// it whose decision Lookahead labels cannot change has gain 0: such tasks
// come after those of positive gain, the least confident first (their
// error, 1 − max_z ρ(z), is what more labels can remove). Remaining ties
// are broken by task index, then worker index: the result does not depend
// on the order of evaluation.
func Next(p *Posterior, s *Settings) ([]Pick, error) {
	if err := checkPosterior(p); err != nil {
		return nil, err
	}
	if p.Tasks == nil {
		return nil, errors.New("plan: the fit gives no posterior of the tasks' true classes (a DA fit); fit vb-la-ds")
	}
	var set Settings
	if s != nil {
		set = *s
	}
	set.Stop = cmp.Or(set.Stop, 0.99)
	set.Lookahead = cmp.Or(set.Lookahead, 3)
	if set.Budget <= 0 {
		return nil, nil
	}
	d := p.Data
	k := d.NumClasses()
	means := workerMeans(p)
	var picks []Pick
	rho := make([]float64, k)
	var la lookahead
	if set.Pool == nil {
		avg := averageWorker(p, means)
		la = newLookahead(avg, k, set.Lookahead)
	}
	var laPool []lookahead
	if set.Pool != nil {
		laPool = make([]lookahead, len(set.Pool))
		for i, w := range set.Pool {
			laPool[i] = newLookahead(means[w*k*k:(w+1)*k*k], k, set.Lookahead)
		}
	}
	labelled := map[int]bool{}
	var info []float64 // with a pool: the information of every pick's label
	for j := range d.Tasks {
		if set.Allowed != nil && !set.Allowed(j) {
			continue
		}
		p.Tasks.ClassPosterior(j, rho)
		conf := slices.Max(rho)
		if conf >= set.Stop {
			continue
		}
		if set.Pool == nil {
			picks = append(picks, Pick{Task: j, Worker: -1, Gain: la.gain(rho), Confidence: conf, Change: la.change(rho)})
			continue
		}
		clear(labelled)
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			labelled[int(d.Worker[i])] = true
		}
		for i, w := range set.Pool {
			if labelled[w] {
				continue
			}
			picks = append(picks, Pick{Task: j, Worker: w, Gain: laPool[i].gain(rho), Confidence: conf, Change: laPool[i].change(rho)})
			info = append(info, laPool[i].info(rho))
		}
	}
	order := make([]int, len(picks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		a, b := picks[x], picks[y]
		if c := cmp.Compare(b.Gain, a.Gain); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Confidence, b.Confidence); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Task, b.Task); c != 0 {
			return c
		}
		if info != nil {
			if c := cmp.Compare(info[y], info[x]); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Worker, b.Worker)
	})
	sorted := make([]Pick, len(picks))
	for i, x := range order {
		sorted[i] = picks[x]
	}
	picks = sorted
	if set.Pool == nil {
		return picks[:min(len(picks), set.Budget)], nil
	}
	per := cmp.Or(set.PerWorker, (set.Budget+len(set.Pool)-1)/len(set.Pool))
	given := map[int]int{}
	done := map[int]bool{}
	var out []Pick
	for _, pk := range picks {
		if len(out) == set.Budget {
			break
		}
		if done[pk.Task] || given[pk.Worker] >= per {
			continue
		}
		done[pk.Task] = true
		given[pk.Worker]++
		out = append(out, pk)
	}
	return out, nil
}

// workerMeans returns the posterior means of every worker's confusion
// matrix, W×K×K.
func workerMeans(p *Posterior) []float64 {
	d := p.Data
	k := d.NumClasses()
	out := make([]float64, d.NumWorkers()*k*k)
	for w := range d.Workers {
		row := out[w*k*k : (w+1)*k*k]
		p.Workers.Confusion(w, row)
		for z := range k {
			var s float64
			for _, x := range row[z*k : (z+1)*k] {
				s += x
			}
			for y := range k {
				row[z*k+y] /= s
			}
		}
	}
	return out
}

// averageWorker returns the mean of the workers' confusion matrices
// weighted by their numbers of labels.
func averageWorker(p *Posterior, means []float64) []float64 {
	d := p.Data
	k := d.NumClasses()
	n := make([]float64, d.NumWorkers())
	for _, w := range d.Worker {
		n[w]++
	}
	avg := make([]float64, k*k)
	var total float64
	for w := range d.Workers {
		for i := range avg {
			avg[i] += n[w] * means[w*k*k+i]
		}
		total += n[w]
	}
	if total == 0 {
		return symmetricPrior(k, 1/float64(k), 1)
	}
	for i := range avg {
		avg[i] /= total
	}
	return avg
}

// lookahead evaluates the expected accuracy after m more labels from a
// worker of confusion matrix pi, for m = 1 … max: the count vectors of m
// labels with their multinomial coefficients and, for every class z, the
// likelihood Π_y π(z, y)^{c_y}, computed once.
type lookahead struct {
	k     int
	pi    []float64
	steps [][]outcome // steps[m-1]: the count vectors of m labels
}

// outcome is one count vector: its multinomial coefficient times the
// likelihood of every class.
type outcome struct {
	weight []float64 // K: Multinomial(c) Π_y π(z, y)^{c_y}
}

func newLookahead(pi []float64, k, m int) lookahead {
	la := lookahead{k: k, pi: pi}
	for n := 1; n <= m; n++ {
		if n > 1 && outcomes(n, k) > maxOutcomes {
			break
		}
		var outs []outcome
		c := make([]int, k)
		var rec func(y, left int)
		rec = func(y, left int) {
			if y == k-1 {
				c[y] = left
				coef := lfact(n)
				for _, x := range c {
					coef -= lfact(x)
				}
				w := make([]float64, k)
				for z := range k {
					l := coef
					for yy, x := range c {
						if x > 0 {
							l += float64(x) * math.Log(pi[z*k+yy])
						}
					}
					w[z] = math.Exp(l)
				}
				outs = append(outs, outcome{weight: w})
				return
			}
			for x := 0; x <= left; x++ {
				c[y] = x
				rec(y+1, left-x)
			}
		}
		rec(0, n)
		la.steps = append(la.steps, outs)
	}
	return la
}

// maxOutcomes bounds the count vectors the lookahead enumerates for one
// number of labels: with many classes it looks fewer labels ahead (at K =
// 20, two; from K = 45, one).
const maxOutcomes = 1000

// outcomes returns the number of count vectors of n labels in k classes,
// C(n + k − 1, k − 1), or more than maxOutcomes when it is larger.
func outcomes(n, k int) int {
	c := 1
	for i := 1; i <= n; i++ {
		c = c * (k - 1 + i) / i
		if c > maxOutcomes {
			return maxOutcomes + 1
		}
	}
	return c
}

// lfact returns log n!.
func lfact(n int) float64 {
	l, _ := math.Lgamma(float64(n + 1))
	return l
}

// gain returns max_m (A_m − A_0)/m for the posterior rho.
func (la lookahead) gain(rho []float64) float64 {
	a0 := slices.Max(rho)
	best := 0.0
	for i, outs := range la.steps {
		var a float64
		for _, o := range outs {
			top := 0.0
			for z, r := range rho {
				top = max(top, r*o.weight[z])
			}
			a += top
		}
		best = max(best, (a-a0)/float64(i+1))
	}
	// Rounding leaves a gain of a few ulps where no count vector changes
	// the decision.
	if best < 1e-12 {
		return 0
	}
	return best
}

// change returns the probability that one more label changes the argmax
// of rho.
func (la lookahead) change(rho []float64) float64 {
	cur := argmax(rho)
	var p float64
	la.eachLabel(rho, func(post []float64, py float64) {
		if argmax(post) != cur {
			p += py
		}
	})
	return p
}

// eachLabel calls f for every label y the worker may give a task of class
// posterior rho, with the task's posterior after it, unnormalised,
// ρ(z) π(z, y) (f may change it), and the label's probability P(y).
func (la lookahead) eachLabel(rho []float64, f func(post []float64, py float64)) {
	k := la.k
	post := make([]float64, k)
	for y := range k {
		var py float64
		for z := range k {
			post[z] = rho[z] * la.pi[z*k+y]
			py += post[z]
		}
		f(post, py)
	}
}

// Assess returns a Pick for every task of p, in task order, as Next
// measures it without a pool and without the stopping rule: the
// confidence, the gain looking lookahead labels ahead (zero: 3) and the
// probability that one more label changes the consensus label.
func Assess(p *Posterior, lookahead int) ([]Pick, error) {
	if err := checkPosterior(p); err != nil {
		return nil, err
	}
	if p.Tasks == nil {
		return nil, errors.New("plan: the fit gives no posterior of the tasks' true classes (a DA fit); fit vb-la-ds")
	}
	k := p.Data.NumClasses()
	la := newLookahead(averageWorker(p, workerMeans(p)), k, cmp.Or(lookahead, 3))
	out := make([]Pick, p.Data.NumTasks())
	rho := make([]float64, k)
	for j := range out {
		p.Tasks.ClassPosterior(j, rho)
		out[j] = Pick{Task: j, Worker: -1, Gain: la.gain(rho), Confidence: slices.Max(rho), Change: la.change(rho)}
	}
	return out, nil
}

// info returns the information one label from the worker carries about a
// task of class posterior rho: the expected reduction in the entropy of
// the task's class, H(ρ) − Σ_y P(y) H(ρ | y) (in nats), the mutual
// information of the class and the label.
func (la lookahead) info(rho []float64) float64 {
	h := entropy(rho)
	la.eachLabel(rho, func(post []float64, py float64) {
		if py <= 0 {
			return
		}
		for z := range post {
			post[z] /= py
		}
		h -= py * entropy(post)
	})
	return h
}

// entropy returns the entropy of the distribution p in nats.
func entropy(p []float64) float64 {
	var h float64
	for _, x := range p {
		if x > 0 {
			h -= x * math.Log(x)
		}
	}
	return h
}
