package noise

import (
	"fmt"
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// DS is the Dawid and Skene (1979) noise model of the paper's section 3.1:
// every worker w has a K×K row-stochastic confusion matrix π_w and
//
//	P(y | z) = π_w(z, y).
//
// The parameters are K×K logits E_w per worker, row z at [z·K, (z+1)·K),
// with π_w(z, ·) = softmax(E_w(z, ·)); there are no object parameters. The
// log probability and its derivative are
//
//	l_i(z) = log π_w(z, y_i),  ∂l_i(z)/∂E_w(z, k) = 1[k = y_i] - π_w(z, k).
type DS struct {
	// Smoothing is the pseudo-count added to every cell of a worker's
	// count matrix before it is normalised into the initial confusion
	// matrix, so that no initial probability is 0. Zero means 0.01.
	Smoothing float64

	// PseudoCount is added to every cell of a worker's expected count
	// matrix in the EM algorithm's M-step (see MStep), so that no
	// confusion probability becomes exactly 0 and no logit -Inf. Zero
	// means DefaultPseudoCount.
	PseudoCount float64

	// PriorDiag and PriorOff are the pseudo-counts of the Dirichlet prior
	// on every confusion row in variational fits (NewVariational): β_z(z)
	// = PriorDiag, β_z(y) = PriorOff for y ≠ z. Zero means
	// DefaultPriorDiag and DefaultPriorOff. Maximum-likelihood fits ignore
	// them.
	PriorDiag, PriorOff float64

	// SharedPrior, in variational fits, estimates the prior of the
	// confusion rows from all workers by empirical Bayes, one Dirichlet
	// β_z per true class z shared by every worker, started from PriorDiag
	// and PriorOff: a worker with few labels then borrows the crowd's
	// typical confusion instead of the fixed prior's (see NewVariational).
	// Maximum-likelihood fits ignore it.
	SharedPrior bool

	// Averaged, in variational fits, makes every worker's confusion matrix
	// an average over kinds of worker, a full matrix, a one-coin one (a
	// single accuracy) and for K > 2 a per-class one (an accuracy a
	// class), the errors of the last two drawn around the crowd's pattern,
	// weighted by the posterior probability of each kind given the
	// worker's labels, with the share of each kind and the kinds' priors
	// learned from the workers (see package noise/internal/dsmix). Maximum-likelihood fits ignore
	// it.
	Averaged bool
}

// DefaultPseudoCount is the pseudo-count of the M-step of DS when
// DS.PseudoCount is zero: 10⁻⁹ of a label, far below anything that changes
// a fit, but enough to keep log π finite (it bounds a logit below by about
// log 10⁻⁹ - log n for a worker row with n expected labels).
const DefaultPseudoCount = 1e-9

// Name returns "ds".
func (DS) Name() string { return "ds" }

// WorkerDim returns k², the confusion logits.
func (DS) WorkerDim(k int) int { return k * k }

// TaskDim returns 0: DS has no object parameters.
func (DS) TaskDim(int) int { return 0 }

// Init sets every worker's confusion matrix as in the paper's section 5: for
// each label y given by the worker to object j, the object's frequency vector
// q_j is added to column y of a count matrix C_w, so C_w(z, y) sums q_j(z);
// each row is then normalised, π_w(z, y) = (C_w(z, y) + s)/Σ_k (C_w(z, k) + s)
// with s the Smoothing pseudo-count, and the logits are log π_w(z, y).
func (m DS) Init(d *data.Dataset, freq data.TaskWeights, w, _ []float64) {
	k := d.NumClasses()
	clear(w)
	RFECounts(d, freq, w)
	s := m.Smoothing
	if s == 0 {
		s = 0.01
	}
	for r := 0; r < len(w); r += k {
		row := w[r : r+k]
		var sum float64
		for _, v := range row {
			sum += v + s
		}
		for y, v := range row {
			row[y] = math.Log((v + s) / sum)
		}
	}
}

// RFECounts adds, for every label y_i given by worker w to object j, the
// frequency vector freq_j to column y_i of worker w's K×K count matrix in
// c (W·K² values, row-major per worker): c_w(z, y_i) += freq_j(z).
func RFECounts(d *data.Dataset, freq data.TaskWeights, c []float64) {
	k := d.NumClasses()
	buf := make([]float64, k)
	for j := range d.Tasks {
		q := freq.Row(j, buf)
		workers, labels := d.TaskLabels(j)
		for i, w := range workers {
			base := int(w)*k*k + int(labels[i])
			for z, v := range q {
				c[base+z*k] += v
			}
		}
	}
}

// NewEvaluator returns an evaluator of DS on d.
func (m DS) NewEvaluator(d *data.Dataset) Evaluator {
	k := d.NumClasses()
	pc := m.PseudoCount
	if pc == 0 {
		pc = DefaultPseudoCount
	}
	return &dsEval{
		d: d, k: k, pseudo: pc,
		logPi: make([]float64, d.NumWorkers()*k*k),
		piT:   make([]float64, d.NumWorkers()*k*k),
	}
}

type dsEval struct {
	d      *data.Dataset
	k      int
	pseudo float64
	logPi  []float64 // log π_w(z, y), W·K² values, row-major per worker
	// piT holds π_w(z, y) transposed, at w·K² + y·K + z, so that the
	// probabilities of one label under every z are contiguous.
	piT     []float64
	threads int // goroutines of the per-worker work (Threaded)
}

// SetThreads sets the number of goroutines of SetParams and MStep
// (Threaded).
func (e *dsEval) SetThreads(n int) { e.threads = n }

// forWorkers runs f on ranges of the n workers, on e.threads goroutines.
func (e *dsEval) forWorkers(n int, f func(lo, hi int)) {
	forWorkers(n, e.k*e.k, e.threads, f)
}

func (e *dsEval) SetParams(w, _ []float64) {
	k := e.k
	k2 := k * k
	e.forWorkers(len(w)/k2, func(lo, hi int) {
		for r := lo * k2; r < hi*k2; r += k {
			num.LogSoftmax(e.logPi[r:r+k], w[r:r+k])
		}
		e.transposeWorkers(lo, hi)
	})
}

// transposeWorkers sets piT from logPi for the workers [lo, hi):
// piT[w·K² + y·K + z] = exp logPi[w·K² + z·K + y].
func (e *dsEval) transposeWorkers(lo, hi int) {
	k := e.k
	k2 := k * k
	pi := make([]float64, k2) // a worker's π_w, row-major
	for base := lo * k2; base < hi*k2; base += k2 {
		num.MathExpTo(pi, e.logPi[base:base+k2]) // math.Exp of each, four at a time
		for z := range k {
			for y := range k {
				e.piT[base+y*k+z] = pi[z*k+y]
			}
		}
	}
}

// Prob copies P(y_i | z) = π_w(z, y_i) for all z from the transposed
// table, in one loop over the labels of the objects [lo, hi).
func (e *dsEval) Prob(lo, hi int, p []float64) {
	k := e.k
	a, b := e.d.Offsets[lo], e.d.Offsets[hi]
	workers, labels := e.d.Worker[a:b], e.d.Label[a:b]
	if k == 2 {
		p = p[:2*len(workers)]
		labels = labels[:len(workers)]
		for i, w := range workers {
			t := (*[4]float64)(e.piT[4*int(w):])
			y := 2 * int(labels[i]&1)
			p[2*i] = t[y]
			p[2*i+1] = t[y+1]
		}
		return
	}
	for i, w := range workers {
		base := (int(w)*k + int(labels[i])) * k
		copy(p[i*k:(i+1)*k], e.piT[base:base+k])
	}
}

// Table returns π_w(z, y) transposed, at w·K² + y·K + z, where
// BackpropShared adds the label's weights (Tabled).
func (e *dsEval) Table() []float64 { return e.piT }

// BackpropProb adds the weights to the worker counts as Backprop does, in
// one loop over the labels of the objects [lo, hi); DS has no use for the
// probabilities.
func (e *dsEval) BackpropProb(lo, hi int, _, g []float64, gw, _ []float64) {
	a, b := e.d.Offsets[lo], e.d.Offsets[hi]
	e.counts(e.d.Worker[a:b], e.d.Label[a:b], g, gw)
}

// BackpropShared is BackpropProb with the weights of each object shared
// by its labels (see SharedBackpropper): the same additions in the same
// order, reading K weights per object instead of per label.
func (e *dsEval) BackpropShared(lo, hi int, _, g []float64, gw, _ []float64) {
	k := e.k
	off := e.d.Offsets
	for j := lo; j < hi; j++ {
		a, b := off[j], off[j+1]
		workers, labels := e.d.Worker[a:b], e.d.Label[a:b]
		gj := g[(j-lo)*k : (j-lo+1)*k]
		if k == 2 {
			g0, g1 := gj[0], gj[1]
			labels = labels[:len(workers)]
			for i, w := range workers {
				c := (*[4]float64)(gw[4*int(w):])
				y := 2 * int(labels[i]&1)
				c[y] += g0
				c[y+1] += g1
			}
			continue
		}
		labels = labels[:len(workers)]
		for i, w := range workers {
			base := (int(w)*k + int(labels[i])) * k
			c := gw[base : base+k]
			for z, v := range gj {
				c[z] += v
			}
		}
	}
}

// counts adds C_w(z, y_i) += g_i(z) for the given labels. The counts are
// accumulated transposed, C_w(z, y) at w·K² + y·K + z (see countAt), so
// that the K counts of one label are contiguous.
func (e *dsEval) counts(workers []int32, labels []uint16, g, gw []float64) {
	k := e.k
	if k == 2 {
		g = g[:2*len(workers)]
		labels = labels[:len(workers)]
		for i, w := range workers {
			c := gw[4*int(w)+2*int(labels[i]&1):]
			c[0] += g[2*i]
			c[1] += g[2*i+1]
		}
		return
	}
	g = g[:k*len(workers)]
	labels = labels[:len(workers)]
	// The rows of up to 64 labels at a time, their additions by
	// num.AddRowsEach (four classes at a time).
	var buf [64]int
	for len(workers) > 0 {
		n := min(len(workers), len(buf))
		rows := buf[:n]
		for i, w := range workers[:n] {
			rows[i] = (int(w)*k + int(labels[i])) * k
		}
		num.AddRowsEach(gw, rows, g[:n*k], k, nil)
		workers, labels, g = workers[n:], labels[n:], g[n*k:]
	}
}

// countAt returns the index of C_w(z, y) in the counts that Backprop and
// BackpropProb accumulate (w·K² + y·K + z), for a worker block starting at
// base.
func countAt(base, k, z, y int) int { return base + y*k + z }

// MStep sets every worker's confusion matrix to its expected counts: with
// C_w(z, y) = Σ g_i(z) over the labels y_i = y of worker w (what Backprop
// accumulates into gw, transposed) and s the PseudoCount,
//
//	π_w(z, y) = (C_w(z, y) + s) / Σ_k (C_w(z, k) + s),
//
// the maximiser of Σ_i Σ_z g_i(z) log π_w(i)(z, y_i) + s Σ log π, and
// writes the logits log π_w(z, y).
func (e *dsEval) MStep(gw, _ []float64, w, _ []float64) {
	k := e.k
	k2 := k * k
	s := e.pseudo
	e.forWorkers(len(gw)/k2, func(lo, hi int) {
		for base := lo * k2; base < hi*k2; base += k2 {
			for z := range k {
				sum := 0.0
				for y := range k {
					sum += gw[countAt(base, k, z, y)] + s
				}
				ls := math.Log(sum)
				row := w[base+z*k : base+(z+1)*k]
				for y := range row {
					row[y] = gw[countAt(base, k, z, y)] + s
				}
				num.MathLogTo(row, row) // math.Log of each, four at a time
				for y := range row {
					row[y] -= ls
				}
			}
		}
	})
}

func (e *dsEval) LogProb(j int, l []float64) {
	k := e.k
	workers, labels := e.d.TaskLabels(j)
	for i, w := range workers {
		base := int(w)*k*k + int(labels[i])
		li := l[i*k : (i+1)*k]
		for z := range li {
			li[z] = e.logPi[base+z*k]
		}
	}
}

// Backprop accumulates only the weighted counts C_w(z, y) += g_i(z),
// transposed (see counts); FinishGrad puts them in the order of the logits
// and adds the term -π_w(z, k) Σ_k' C_w(z, k'), which costs W·K² instead of
// K² per label.
func (e *dsEval) Backprop(j int, g []float64, gw, _ []float64) {
	workers, labels := e.d.TaskLabels(j)
	e.counts(workers, labels, g, gw)
}

// FinishGrad turns the transposed counts in gw into the gradient with
// respect to the logits, in their row-major order: ∂L/∂E_w(z, y) =
// C_w(z, y) - π_w(z, y) Σ_k C_w(z, k).
func (e *dsEval) FinishGrad(gw, _ []float64) {
	k := e.k
	k2 := k * k
	row := make([]float64, k2)
	for base := 0; base < len(gw); base += k2 {
		copy(row, gw[base:base+k2])
		for z := range k {
			var sum float64
			for y := range k {
				sum += row[y*k+z]
			}
			for y := range k {
				gw[base+z*k+y] = row[y*k+z] - math.Exp(e.logPi[base+z*k+y])*sum
			}
		}
	}
}

// WorkerOnly marks dsEval's conditionals as the worker's alone (noise.WorkerOnly).
func (*dsEval) WorkerOnly() {}

func (e *dsEval) Conditional(w int32, _ int, z int, p []float64) {
	k := e.k
	for y := range p[:k] {
		p[y] = e.piT[int(w)*k*k+y*k+z]
	}
}

func (e *dsEval) WorkerColumns() []string {
	var cols []string
	for _, z := range e.d.Classes {
		for _, y := range e.d.Classes {
			cols = append(cols, fmt.Sprintf("p[%s,%s]", z, y))
		}
	}
	return cols
}

func (e *dsEval) WorkerValues(w int, dst []float64) []float64 {
	k := e.k
	for z := range k {
		for y := range k {
			dst = append(dst, e.piT[w*k*k+y*k+z])
		}
	}
	return dst
}

// Info declares Dawid-Skene for the registry: its LA form learns the class
// prior, as in Dawid and Skene's original, and EM is its default solver.
func (DS) Info() Info {
	return Info{
		Summary:        "Dawid-Skene (confusion matrix per worker)",
		LearnPrior:     true,
		Solver:         "em",
		ConjugatePrior: "Dirichlet priors on the confusion rows",
		ConfusionRows:  true,
	}
}

// SetWorker sets a worker's confusion logits to the logarithms of the
// probabilities vals, p[z,y] in WorkerColumns order, each raised to 1e-12;
// every row z must sum to 1 within 1e-6.
func (m DS) SetWorker(d *data.Dataset, vals, w []float64) error {
	if err := setWorkerArgs(m, d, vals, w, func(k int) int { return k * k }); err != nil {
		return err
	}
	k := d.NumClasses()
	for z := range k {
		var sum float64
		for y := range k {
			p := vals[z*k+y]
			if err := probability(fmt.Sprintf("p[%s,%s]", d.Classes[z], d.Classes[y]), p); err != nil {
				return err
			}
			sum += p
			w[z*k+y] = math.Log(max(p, 1e-12))
		}
		if math.Abs(sum-1) > 1e-6 {
			return fmt.Errorf("the row of class %s sums to %v, not 1", d.Classes[z], sum)
		}
	}
	return nil
}

var _ WorkerSetter = DS{}
var _ Tabled = (*dsEval)(nil)
var _ Describer = DS{}
