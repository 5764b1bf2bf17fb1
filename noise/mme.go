package noise

import (
	"fmt"
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// MME is the minimax entropy noise model of Zhou et al. (2015, section 2),
// the paper's section 3.3: every worker has a K×K matrix e_w and every object
// a K×K matrix d_j, and
//
//	P(y | z) = exp(e_w(z, y) + d_j(z, y)) / Σ_k exp(e_w(z, k) + d_j(z, k)).
//
// The parameters are the matrices themselves, row-major, K² per worker and
// K² per object. With P_i(k | z) the probabilities above for label i,
//
//	∂l_i(z)/∂e_w(z, k) = ∂l_i(z)/∂d_j(z, k) = 1[k = y_i] - P_i(k | z).
//
// The model is unregularised, as in the paper; adding a constant to a row
// of e_w and subtracting it from the same row of d_j changes nothing, so the
// parameters themselves are not identified, only the probabilities.
type MME struct{}

// Name returns "mme".
func (MME) Name() string { return "mme" }

// WorkerDim returns k², the worker matrix.
func (MME) WorkerDim(k int) int { return k * k }

// TaskDim returns k², the object matrix.
func (MME) TaskDim(k int) int { return k * k }

// Init follows the paper's section 5 with its add-one smoothing. The worker
// matrix is e_w(z, y) = log(1 + C_w(z, y)), with C_w the count matrix of DS's
// initialisation (object frequency vectors added to the column of the
// worker's label). The object matrix is d_j(y, k) = log(1 + D_j(y, k)), where
// for every label y given to object j by worker w the worker's own label
// frequency vector r_w is added to row y of D_j, as the paper describes.
func (MME) Init(d *data.Dataset, freq data.TaskWeights, w, o []float64) {
	k := d.NumClasses()
	clear(w)
	clear(o)
	RFECounts(d, freq, w)
	// r_w: relative label frequencies of each worker.
	r := make([]float64, d.NumWorkers()*k)
	n := make([]float64, d.NumWorkers())
	for i, wk := range d.Worker {
		r[int(wk)*k+int(d.Label[i])]++
		n[wk]++
	}
	for wk, c := range n {
		for z := 0; z < k; z++ {
			r[wk*k+z] /= c
		}
	}
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		for i, wk := range workers {
			row := o[j*k*k+int(labels[i])*k:]
			for z, v := range r[int(wk)*k : int(wk+1)*k] {
				row[z] += v
			}
		}
	}
	for i, v := range w {
		w[i] = math.Log1p(v)
	}
	for i, v := range o {
		o[i] = math.Log1p(v)
	}
}

// NewEvaluator returns an evaluator of MME on d.
func (MME) NewEvaluator(d *data.Dataset) Evaluator {
	return &mmeEval{d: d, k: d.NumClasses()}
}

type mmeEval struct {
	d    *data.Dataset
	k    int
	w, o []float64
}

func (e *mmeEval) SetParams(w, o []float64) { e.w, e.o = w, o }

// row writes e_w(z, ·) + d_j(z, ·) into dst and returns its log-sum-exp.
func (e *mmeEval) row(w int32, j, z int, dst []float64) float64 {
	k := e.k
	ew := e.w[int(w)*k*k+z*k:]
	dj := e.o[j*k*k+z*k:]
	for y := range dst {
		dst[y] = ew[y] + dj[y]
	}
	return num.LogSumExp(dst)
}

// mmeBlock is the number of values of the stack buffers of LogProb and
// Backprop: the K² sums e_w + d_j of as many labels as fit (at least one;
// above K = 20 the buffers are allocated). It is small because Go clears
// the buffers at every call.
const mmeBlock = 400

// mmeScratch is the per-call working memory of LogProb and Backprop: the
// sums e_w(z, ·) + d_j(z, ·) of a block of labels, their exponentials and
// the rows' log-sum-exps.
type mmeScratch struct {
	sums, exps [mmeBlock]float64
	lse        [mmeBlock / 2]float64 // enough from K = 2
}

// buffers returns the scratch's buffers for labels of k² values each, with
// the number of labels they hold; above K = 20 they are allocated.
func (s *mmeScratch) buffers(k int) (sums, exps, lse []float64, per int) {
	if k*k > mmeBlock {
		return make([]float64, k*k), make([]float64, k*k), make([]float64, k), 1
	}
	per = min(mmeBlock/(k*k), len(s.lse)/k)
	return s.sums[:per*k*k], s.exps[:per*k*k], s.lse[:per*k], per
}

// sums writes e_w + d_j for the labels of workers into dst, K² values a
// label (row z of both matrices side by side, as row does), and the
// log-sum-exp of each row into lse; exps gets the rows' exponentials less
// their largest value.
func (e *mmeEval) sums(j int, workers []int32, dst, exps, lse []float64) {
	kk := e.k * e.k
	dj := e.o[j*kk : (j+1)*kk]
	for i, w := range workers {
		ew := e.w[int(w)*kk : (int(w)+1)*kk]
		d := dst[i*kk : (i+1)*kk]
		for c := range d {
			d[c] = ew[c] + dj[c]
		}
	}
	n := len(workers) * kk
	num.LogSumExpRows(lse, dst[:n], exps[:n], e.k)
}

// LogProb writes log P(y_i | z) = e_w(z, y_i) + d_j(z, y_i) - log Σ_c
// exp(e_w(z, c) + d_j(z, c)) for object j's labels, the log-sum-exps of a
// block of labels taken together (num.LogSumExpRows).
func (e *mmeEval) LogProb(j int, l []float64) {
	k := e.k
	var sc mmeScratch
	sums, exps, lse, per := sc.buffers(k)
	workers, labels := e.d.TaskLabels(j)
	for b := 0; b < len(workers); b += per {
		ws := workers[b:min(b+per, len(workers))]
		e.sums(j, ws, sums, exps, lse)
		for i := range ws {
			y := int(labels[b+i])
			li := l[(b+i)*k : (b+i+1)*k]
			for z := range li {
				li[z] = sums[(i*k+z)*k+y] - lse[i*k+z]
			}
		}
	}
}

// Backprop adds g_i(z)·(1[c = y_i] - P_i(c | z)) to e_w(z, c) and d_j(z,
// c) for object j's labels, the probabilities of a block of labels
// taken in one call (num.ExpLessRows).
func (e *mmeEval) Backprop(j int, g []float64, gw, gobj []float64) {
	k := e.k
	kk := k * k
	var sc mmeScratch
	sums, exps, lse, per := sc.buffers(k)
	workers, labels := e.d.TaskLabels(j)
	gd := gobj[j*kk : (j+1)*kk]
	for b := 0; b < len(workers); b += per {
		ws := workers[b:min(b+per, len(workers))]
		e.sums(j, ws, sums, exps, lse)
		num.ExpLessRows(sums, lse[:len(ws)*k], k) // P_i(c | z)
		for i, w := range ws {
			y := int(labels[b+i])
			for z := 0; z < k; z++ {
				gz := g[(b+i)*k+z]
				if gz == 0 {
					continue
				}
				gwr := gw[int(w)*kk+z*k : int(w)*kk+(z+1)*k]
				gdr := gd[z*k : (z+1)*k]
				for c, p := range sums[(i*k+z)*k : (i*k+z+1)*k] {
					t := -gz * p
					if c == y {
						t += gz
					}
					gwr[c] += t
					gdr[c] += t
				}
			}
		}
	}
}

func (e *mmeEval) FinishGrad(_, _ []float64) {}

func (e *mmeEval) Conditional(w int32, j int, z int, p []float64) {
	lse := e.row(w, j, z, p[:e.k])
	num.SoftmaxFrom(p[:e.k], p[:e.k], lse)
}

func (e *mmeEval) WorkerColumns() []string {
	var cols []string
	for _, z := range e.d.Classes {
		for _, y := range e.d.Classes {
			cols = append(cols, fmt.Sprintf("e[%s,%s]", z, y))
		}
	}
	return cols
}

func (e *mmeEval) WorkerValues(w int, dst []float64) []float64 {
	k := e.k
	return append(dst, e.w[w*k*k:(w+1)*k*k]...)
}

// Info declares minimax entropy for the registry: its LA form keeps the
// class prior uniform, as in Zhou et al.'s paper.
func (MME) Info() Info {
	return Info{Summary: "minimax entropy (K x K matrices per worker and per object)", Solver: "lbfgs"}
}

// SetWorker sets a worker's matrix to vals, e[z,y] in WorkerColumns order,
// which must be finite; the object matrices keep their initial values.
func (m MME) SetWorker(d *data.Dataset, vals, w []float64) error {
	if err := setWorkerArgs(m, d, vals, w, func(k int) int { return k * k }); err != nil {
		return err
	}
	k := d.NumClasses()
	for i, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("e[%s,%s] = %v is not a finite number", d.Classes[i/k], d.Classes[i%k], v)
		}
	}
	copy(w, vals)
	return nil
}

var _ WorkerSetter = MME{}
var _ Describer = MME{}
