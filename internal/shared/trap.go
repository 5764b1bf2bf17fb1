package shared

import (
	"math"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// The trap model's fixed settings: the Beta(FoolU, FoolV) prior of the
// chance s_w of being fooled on a trap of every worker that may be fooled,
// of small mean, so that a worker is taken to be fooled only on the
// evidence of many of its labels; the start of those chances (FoolStart);
// the pseudo-counts of the confusion rows' Dirichlet prior (RowDiag on the
// diagonal, RowOff elsewhere, as the default's); and the expectation
// maximisation's iterations and tolerance on the log-likelihood's change
// per task.
const (
	FoolU     = 0.4
	FoolV     = 19.6
	FoolStart = 0.9
	// CollapseFool is the chance of being fooled below which Fit gives a
	// flagged worker up (Trap.Collapsed).
	CollapseFool = 0.05
	RowDiag      = 2
	RowOff       = 1
	maxIter      = 200
	tolIter      = 1e-6
	// SampleTasks is the number of tasks above which Fit reads every m-th
	// task only, at most SampleTasks of them (Refine then reads all).
	SampleTasks = 20_000
	etaStart    = 0.05
	minEta      = 1e-8
)

// Trap holds the parameters of the trap model (see the package's doc) on a
// data set of K classes.
type Trap struct {
	// K is the number of classes.
	K int
	// Prior is the class prior π (K).
	Prior []float64
	// Eta is the K×K table of trap rates η(z, d), zero on the diagonal:
	// Eta[z*K+d] is the probability that a task of true class z is a trap
	// with distractor d.
	Eta []float64
	// Fool is every worker's chance s_w of being fooled on a trap (zero
	// for the workers Fit was not given as flagged).
	Fool []float64
	// Rows holds every worker's confusion rows P_w(y | z), K×K a worker.
	Rows []float64
	// LogLik is the log-likelihood of the labels at these parameters (of
	// the tasks that Fit reads).
	LogLik float64
	// Collapsed reports that Fit stopped because every flagged worker's
	// chance of being fooled fell below CollapseFool: the trap model is
	// then LA but for a few labels, and its fit is not worth finishing.
	Collapsed bool
	// Tasks is the number of tasks whose labels LogLik is of: all of
	// them, or after Fit on more than SampleTasks tasks every m-th (at
	// most SampleTasks) until Refine.
	Tasks int

	flagged []int32 // the workers who may be fooled
	trap    bool    // false: LA
	iters   int     // the iterations of Fit
}

// Cond writes into p the confusion row P_w(· | z) of worker w (the
// signature of Cond, for any task j).
func (t *Trap) Cond(w int32, _ int, z int, p []float64) {
	k := t.K
	copy(p, t.Rows[(int(w)*k+z)*k:(int(w)*k+z+1)*k])
}

// Fit fits the trap model to the labels of d by expectation maximisation
// from the workers' confusion rows rows (K×K a worker, such as those of a
// fit under LA) and the class prior prior. Only the workers in flagged may
// be fooled, their chance started at FoolStart: the others' is zero, so
// that the model cannot take the tasks' own heterogeneity (ambiguity, which
// pulls every worker's labels) for traps. With trap false it fits LA
// instead (η = 0, no worker fooled), from the same start, so that the two
// log-likelihoods compare. Tasks of known class (gold[j] ≥ 0; gold may be
// nil) take no part. On more than SampleTasks tasks it reads every m-th
// task only (Trap.Tasks; Refine goes on with all of them): the choice
// between the trap model and LA needs no more, and the expectation
// maximisation takes tens of passes.
func Fit(d *data.Dataset, rows, prior []float64, flagged []int32, gold []int, trap bool) *Trap {
	k := d.NumClasses()
	t := &Trap{K: k, Prior: slices.Clone(prior), Eta: make([]float64, k*k),
		Fool: make([]float64, d.NumWorkers()), Rows: slices.Clone(rows)}
	if trap {
		for z := range k {
			for c := range k {
				if c != z {
					t.Eta[z*k+c] = etaStart / float64(k-1)
				}
			}
		}
		for _, w := range flagged {
			t.Fool[w] = FoolStart
		}
	}
	t.Tasks = d.NumTasks()
	var sample []int
	if n := d.NumTasks(); n > SampleTasks {
		stride := (n + SampleTasks - 1) / SampleTasks
		sample = make([]int, 0, n/stride+1)
		for j := 0; j < n; j += stride {
			sample = append(sample, j)
		}
		t.Tasks = len(sample)
	}
	t.flagged, t.trap = flagged, trap
	t.iters = newEstep(d, k).fit(d, t, gold, sample, maxIter)
	return t
}

// Refine goes on fitting t, fitted by Fit on a sample of the tasks of d,
// on all of them, so that its posterior is that of the parameters of all
// the labels; LogLik and Tasks are then those of all the tasks. It does
// nothing when Fit read every task.
func (t *Trap) Refine(d *data.Dataset, gold []int) {
	if t.Tasks == d.NumTasks() || t.Collapsed {
		return
	}
	t.Tasks = d.NumTasks()
	newEstep(d, t.K).fit(d, t, gold, nil, max(maxIter-t.iters, 1))
}

// fit runs at most iters iterations of expectation maximisation of t on
// the labels of tasks (nil: every task), until the log-likelihood changes
// by at most tolIter a task or the fit collapses, and returns the number
// of iterations.
func (e *estep) fit(d *data.Dataset, t *Trap, gold, tasks []int, iters int) int {
	trap, flagged := t.trap, t.flagged
	n := len(tasks)
	if tasks == nil {
		n = d.NumTasks()
	}
	prev := math.Inf(-1)
	for it := range iters {
		e.reset(t, trap)
		ll := e.run(d, t, gold, tasks)
		t.LogLik = ll
		if it > 0 && math.Abs(ll-prev) <= tolIter*float64(max(n, 1))+1e-12*math.Abs(ll) {
			return it + 1
		}
		prev = ll
		e.mstep(t, trap)
		if trap && len(flagged) > 0 && collapsed(t, flagged) {
			t.Collapsed = true
			return it + 1
		}
	}
	return iters
}

// collapsed reports whether every flagged worker's chance of being fooled
// is below CollapseFool.
func collapsed(t *Trap, flagged []int32) bool {
	for _, w := range flagged {
		if t.Fool[w] >= CollapseFool {
			return false
		}
	}
	return true
}

// estep holds the expected counts of one pass, and the logarithms of the
// parameters it reads.
type estep struct {
	k              int
	rows           []float64 // expected labels not fooled, W×K×K
	fooled, trials []float64 // expected labels fooled and on traps, per worker
	class          []float64 // expected tasks of every class
	traps          []float64 // expected traps of every (z, d)
	lg             []float64 // log weights of every (z, t) of a task, t = K: no trap
	post           []float64 // the posterior of every (z, t) of a task, as lg
	logRows        []float64 // log P_w(y | z), W×K×K
	// hit is log(s_w + (1 − s_w) P_w(y | z)) − log P_w(y | z), W×K×K, and
	// miss log(1 − s_w), W: a fooled worker's label's terms on a trap
	// whose distractor is and is not y, over its term on any other task.
	hit, miss []float64
	logNone   []float64 // log π_z (1 − Σ_d η_zd)
	logTrap   []float64 // log π_z η_zd (−Inf on the diagonal and for LA)
}

func newEstep(d *data.Dataset, k int) *estep {
	return &estep{k: k, rows: make([]float64, d.NumWorkers()*k*k), fooled: make([]float64, d.NumWorkers()),
		trials: make([]float64, d.NumWorkers()), class: make([]float64, k), traps: make([]float64, k*k),
		lg: make([]float64, k*(k+1)), post: make([]float64, k*(k+1)), logRows: make([]float64, d.NumWorkers()*k*k),
		hit: make([]float64, d.NumWorkers()*k*k), miss: make([]float64, d.NumWorkers()),
		logNone: make([]float64, k), logTrap: make([]float64, k*k)}
}

// reset clears the expected counts and takes the logarithms of t's
// parameters.
func (e *estep) reset(t *Trap, trap bool) {
	clear(e.rows)
	clear(e.fooled)
	clear(e.trials)
	clear(e.class)
	clear(e.traps)
	k := e.k
	for i, p := range t.Rows {
		e.logRows[i] = math.Log(max(p, 1e-300))
	}
	k2 := k * k
	for w, s := range t.Fool {
		if s == 0 {
			continue
		}
		e.miss[w] = math.Log1p(-s)
		for i := w * k2; i < (w+1)*k2; i++ {
			e.hit[i] = math.Log(s+(1-s)*t.Rows[i]) - e.logRows[i]
		}
	}
	for z := range k {
		var out float64
		lp := math.Log(max(t.Prior[z], 1e-300))
		for d := range k {
			out += t.Eta[z*k+d]
			e.logTrap[z*k+d] = math.Inf(-1)
			if trap && d != z && t.Eta[z*k+d] > 0 {
				e.logTrap[z*k+d] = lp + math.Log(t.Eta[z*k+d])
			}
		}
		e.logNone[z] = lp + math.Log(max(1-out, 1e-300))
	}
}

// weights writes into e.lg the log joint weight of every (z, t) of a task
// with the labels labels from workers: lg[z*(K+1)+d] for a trap with
// distractor d ≠ z and lg[z*(K+1)+K] for no trap (−Inf where impossible),
// and into e.post their posterior, and returns their log-sum. A worker who
// is never fooled labels a trap as any other task, so that only the labels
// of the workers who may be fooled set a trap's weight apart.
func (e *estep) weights(t *Trap, workers []int32, labels []uint16) float64 {
	k := e.k
	for z := range k {
		var none float64
		for i, w := range workers {
			none += e.logRows[(int(w)*k+z)*k+int(labels[i])]
		}
		e.lg[z*(k+1)+k] = e.logNone[z] + none
		for d := range k {
			e.lg[z*(k+1)+d] = e.logTrap[z*k+d] + none
		}
	}
	for i, w := range workers {
		if t.Fool[w] == 0 {
			continue
		}
		// The label's own term: s [y = d] + (1 − s) P_w(y | z) in place of
		// P_w(y | z).
		y, miss := int(labels[i]), e.miss[w]
		for z := range k {
			hit := e.hit[(int(w)*k+z)*k+y]
			for d := range k {
				if d == y {
					e.lg[z*(k+1)+d] += hit
				} else {
					e.lg[z*(k+1)+d] += miss
				}
			}
		}
	}
	lz := num.LogSumExp(e.lg)
	num.SoftmaxFrom(e.post, e.lg, lz)
	return lz
}

// run adds the expected counts of every task of d in tasks (nil: every
// task) without a known class under t and returns the log-likelihood.
func (e *estep) run(d *data.Dataset, t *Trap, gold, tasks []int) float64 {
	k := e.k
	var ll float64
	rz := e.post
	n := len(tasks)
	if tasks == nil {
		n = d.NumTasks()
	}
	for i := range n {
		j := i
		if tasks != nil {
			j = tasks[i]
		}
		if gold != nil && gold[j] >= 0 {
			continue
		}
		workers, labels := d.TaskLabels(j)
		if len(workers) == 0 {
			continue
		}
		ll += e.weights(t, workers, labels)
		for z := range k {
			var all float64
			for c := range k + 1 {
				r := rz[z*(k+1)+c]
				all += r
				if c < k {
					e.traps[z*k+c] += r
				}
			}
			e.class[z] += all
			for i, w := range workers {
				y, s := int(labels[i]), t.Fool[w]
				if s == 0 {
					e.rows[(int(w)*k+z)*k+y] += all
					continue
				}
				// Only a trap with distractor y can have fooled the label.
				r := rz[z*(k+1)+y]
				if y == z {
					r = 0
				}
				f := r * s / (s + (1-s)*t.Rows[(int(w)*k+z)*k+y])
				e.fooled[w] += f
				e.trials[w] += all - rz[z*(k+1)+k]
				e.rows[(int(w)*k+z)*k+y] += all - f
			}
		}
	}
	return ll
}

// mstep sets t's parameters from the expected counts: the trap rates to
// their maximum likelihood, the class prior, every chance of being fooled
// and every confusion row to the mean of their posterior under the
// Dirichlet(1, …, 1), Beta(FoolU, FoolV) and Dirichlet(RowDiag, RowOff)
// priors; a chance of zero stays zero.
func (e *estep) mstep(t *Trap, trap bool) {
	k := e.k
	var n float64
	for _, c := range e.class {
		n += c
	}
	for z := range k {
		t.Prior[z] = (e.class[z] + 1) / (n + float64(k))
		if trap {
			for d := range k {
				if d != z {
					t.Eta[z*k+d] = max(e.traps[z*k+d]/max(e.class[z], 1e-300), minEta)
				}
			}
		}
	}
	if trap {
		for w, s := range t.Fool {
			if s > 0 {
				t.Fool[w] = (e.fooled[w] + FoolU) / (e.trials[w] + FoolU + FoolV)
			}
		}
	}
	for r := 0; r < len(t.Rows); r += k {
		z := (r / k) % k
		var s float64
		for y := range k {
			a := float64(RowOff)
			if y == z {
				a = RowDiag
			}
			t.Rows[r+y] = e.rows[r+y] + a
			s += t.Rows[r+y]
		}
		for y := range k {
			t.Rows[r+y] /= s
		}
	}
}

// Posterior writes into probs (J×K) the posterior of every task's true
// class under t, P(z_j | labels), mixed with floor of the uniform
// distribution, except on tasks of known class (gold[j] ≥ 0; gold may be
// nil), which it leaves as they are.
func (t *Trap) Posterior(d *data.Dataset, gold []int, floor float64, probs []float64) {
	k := t.K
	e := newEstep(d, k)
	e.reset(t, true)
	u := floor / float64(k)
	for j := range d.NumTasks() {
		if gold != nil && gold[j] >= 0 {
			continue
		}
		workers, labels := d.TaskLabels(j)
		e.weights(t, workers, labels)
		row := probs[j*k : (j+1)*k]
		for z := range k {
			var s float64
			for c := range k + 1 {
				s += e.post[z*(k+1)+c]
			}
			row[z] = (1-floor)*s + u
		}
	}
}
