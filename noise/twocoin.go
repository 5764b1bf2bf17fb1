package noise

import (
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
)

// TwoCoin is the class-conditional accuracy noise model, for two classes
// the two-coin model of Raykar et al. (sensitivity and specificity): every
// worker w has one accuracy per latent class, a_w(z) = σ(c_w(z)), the
// probability of reporting z when it is the latent class, and spreads its
// errors evenly over the other classes:
//
//	P(y | z) = a_w(z) if y = z, (1 - a_w(z))/(K - 1) otherwise.
//
// It lies between OneCoin (one accuracy) and DS (a whole confusion
// matrix): K parameters per worker, enough for a worker who recognises one
// class better than another. With a = σ(c_w(z)),
//
//	l_i(z) = log σ(c) if z = y_i, log σ(-c) - log(K - 1) otherwise,
//	∂l_i(z)/∂c_w(z) = 1 - a if z = y_i, -a otherwise.
//
// The parameters are the K logits c_w (per worker); there are no object
// parameters.
type TwoCoin struct{}

var (
	_ Describer    = TwoCoin{}
	_ WorkerSetter = TwoCoin{}
	_ Sampler      = TwoCoin{}
)

// Name returns "twocoin".
func (TwoCoin) Name() string { return "twocoin" }

// Info declares the model for the registry: like DS, whose restriction it
// is, its LA form learns the class prior.
func (TwoCoin) Info() Info {
	return Info{Summary: "two-coin Dawid-Skene (one accuracy per worker and latent class)", LearnPrior: true, Solver: "lbfgs"}
}

// WorkerDim returns k, the logits c_w(z).
func (TwoCoin) WorkerDim(k int) int { return k }

// TaskDim returns 0.
func (TwoCoin) TaskDim(int) int { return 0 }

// Init sets a_w(z) to the worker's smoothed agreement with the label
// frequencies among the labels whose latent class is z by those
// frequencies, (Σ_i f_i(z) 1[y_i = z] + 1)/(Σ_i f_i(z) + 2) with
// f_i = freq_{j(i)}, and c_w(z) = logit(a_w(z)).
func (TwoCoin) Init(d *data.Dataset, freq data.TaskWeights, w, _ []float64) {
	k := d.NumClasses()
	agree := make([]float64, len(w))
	n := make([]float64, len(w))
	buf := make([]float64, k)
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		fj := freq.Row(j, buf)
		for i, wk := range workers {
			for z, f := range fj {
				n[int(wk)*k+z] += f
			}
			agree[int(wk)*k+int(labels[i])] += fj[labels[i]]
		}
	}
	for i := range w {
		w[i] = logit((agree[i] + 1) / (n[i] + 2))
	}
}

// SampleParams draws every accuracy a_w(z) ~ U[0.55, 0.95].
func (TwoCoin) SampleParams(rng *rand.Rand, _ int, w, _ []float64) {
	for i := range w {
		w[i] = logit(0.55 + 0.4*rng.Float64())
	}
}

// SetWorker sets c_w(z) = logit(vals[z]), the accuracies kept within
// [1e-12, 1 - 1e-12].
func (m TwoCoin) SetWorker(d *data.Dataset, vals, w []float64) error {
	if err := setWorkerArgs(m, d, vals, w, func(k int) int { return k }); err != nil {
		return err
	}
	for z, c := range d.Classes {
		if err := probability("accuracy["+c+"]", vals[z]); err != nil {
			return err
		}
		w[z] = logit(vals[z])
	}
	return nil
}

// NewEvaluator returns an evaluator of TwoCoin on d.
func (TwoCoin) NewEvaluator(d *data.Dataset) Evaluator {
	return &twoCoinEval{d: d, k: d.NumClasses(), logKm1: math.Log(float64(d.NumClasses() - 1))}
}

type twoCoinEval struct {
	d      *data.Dataset
	k      int
	logKm1 float64
	t      coinTable // of the accuracy logits c_w(z)
}

func (e *twoCoinEval) SetParams(w, _ []float64) { e.t.fill(w, e.logKm1) }

func (e *twoCoinEval) LogProb(j int, l []float64) {
	k := e.k
	workers, labels := e.d.TaskLabels(j)
	for i, w := range workers {
		li := l[i*k : (i+1)*k]
		copy(li, e.t.wrong[int(w)*k:int(w+1)*k])
		li[labels[i]] = e.t.right[int(w)*k+int(labels[i])]
	}
}

func (e *twoCoinEval) Backprop(j int, g []float64, gw, _ []float64) {
	k := e.k
	workers, labels := e.d.TaskLabels(j)
	for i, w := range workers {
		a, gi, gc := e.t.acc[int(w)*k:int(w+1)*k], g[i*k:(i+1)*k], gw[int(w)*k:int(w+1)*k]
		for z := range gi {
			gc[z] -= gi[z] * a[z]
		}
		gc[labels[i]] += gi[labels[i]]
	}
}

func (e *twoCoinEval) FinishGrad(_, _ []float64) {}

// WorkerOnly marks twoCoinEval's conditionals as the worker's alone (noise.WorkerOnly).
func (*twoCoinEval) WorkerOnly() {}

func (e *twoCoinEval) Conditional(w int32, _ int, z int, p []float64) {
	a := e.t.acc[int(w)*e.k+z]
	for y := range p[:e.k] {
		p[y] = (1 - a) / float64(e.k-1)
	}
	p[z] = a
}

func (e *twoCoinEval) WorkerColumns() []string {
	cols := make([]string, e.k)
	for z, c := range e.d.Classes {
		cols[z] = "accuracy[" + c + "]"
	}
	return cols
}

func (e *twoCoinEval) WorkerValues(w int, dst []float64) []float64 {
	return append(dst, e.t.acc[w*e.k:(w+1)*e.k]...)
}
