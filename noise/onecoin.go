package noise

import (
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
)

// OneCoin is the one-coin Dawid-Skene noise model: every worker w has a
// single accuracy a_w = σ(c_w), the probability of reporting the latent
// class, and spreads its errors evenly over the other classes:
//
//	P(y | z) = a_w if y = z, (1 - a_w)/(K - 1) otherwise.
//
// It is DS with every confusion matrix constrained to one number, or GLAD
// with every difficulty fixed at 1: K² - 1 fewer parameters per worker than
// DS, so it suits workers with few labels, and it cannot describe a worker
// who confuses some pairs of classes more than others. With a = σ(c),
//
//	l_i(z) = log σ(c) if z = y_i, log σ(-c) - log(K - 1) otherwise,
//	∂l_i(z)/∂c = 1 - a if z = y_i, -a otherwise.
//
// The parameter is c_w (one per worker); there are no object parameters.
type OneCoin struct{}

// Name returns "onecoin".
func (OneCoin) Name() string { return "onecoin" }

// WorkerDim returns 1, the accuracy logit c_w.
func (OneCoin) WorkerDim(int) int { return 1 }

// TaskDim returns 0.
func (OneCoin) TaskDim(int) int { return 0 }

// Init sets each worker's accuracy to its smoothed agreement with the label
// frequencies, a_w = (Σ_i freq_{j(i)}(y_i) + 1)/(n_w + 2) over the worker's
// n_w labels (the one-coin analogue of the paper's DS initialisation), and
// c_w = logit(a_w).
func (OneCoin) Init(d *data.Dataset, freq data.TaskWeights, w, _ []float64) {
	agree := make([]float64, d.NumWorkers())
	n := make([]float64, d.NumWorkers())
	buf := make([]float64, d.NumClasses())
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		fj := freq.Row(j, buf)
		for i, wk := range workers {
			agree[wk] += fj[labels[i]]
			n[wk]++
		}
	}
	for i := range w {
		a := (agree[i] + 1) / (n[i] + 2)
		w[i] = math.Log(a / (1 - a))
	}
}

// SampleParams draws accuracies a_w ~ U[0.55, 0.95].
func (OneCoin) SampleParams(rng *rand.Rand, _ int, w, _ []float64) {
	for i := range w {
		a := 0.55 + 0.4*rng.Float64()
		w[i] = math.Log(a / (1 - a))
	}
}

// NewEvaluator returns an evaluator of OneCoin on d.
func (OneCoin) NewEvaluator(d *data.Dataset) Evaluator {
	k := d.NumClasses()
	return &oneCoinEval{d: d, k: k, logKm1: math.Log(float64(k - 1))}
}

type oneCoinEval struct {
	d      *data.Dataset
	k      int
	logKm1 float64
	t      coinTable // of the accuracy logits c_w
}

func (e *oneCoinEval) SetParams(w, _ []float64) { e.t.fill(w, e.logKm1) }

func (e *oneCoinEval) LogProb(j int, l []float64) {
	k := e.k
	workers, labels := e.d.TaskLabels(j)
	for i, w := range workers {
		wrong := e.t.wrong[w]
		li := l[i*k : (i+1)*k]
		for z := range li {
			li[z] = wrong
		}
		li[labels[i]] = e.t.right[w]
	}
}

func (e *oneCoinEval) Backprop(j int, g []float64, gw, _ []float64) {
	k := e.k
	workers, labels := e.d.TaskLabels(j)
	for i, w := range workers {
		a := e.t.acc[w]
		gi := g[i*k : (i+1)*k]
		var sum float64
		for _, v := range gi {
			sum += v
		}
		gw[w] += gi[labels[i]] - a*sum
	}
}

func (e *oneCoinEval) FinishGrad(_, _ []float64) {}

// WorkerOnly marks oneCoinEval's conditionals as the worker's alone (noise.WorkerOnly).
func (*oneCoinEval) WorkerOnly() {}

func (e *oneCoinEval) Conditional(w int32, _ int, z int, p []float64) {
	a := e.t.acc[w]
	for y := range p[:e.k] {
		p[y] = (1 - a) / float64(e.k-1)
	}
	p[z] = a
}

func (e *oneCoinEval) WorkerColumns() []string { return []string{"accuracy"} }

func (e *oneCoinEval) WorkerValues(w int, dst []float64) []float64 {
	return append(dst, e.t.acc[w])
}

// Info declares one-coin Dawid-Skene for the registry: like DS, its LA
// form learns the class prior.
func (OneCoin) Info() Info {
	return Info{
		Summary:        "one-coin Dawid-Skene (one accuracy per worker)",
		LearnPrior:     true,
		Solver:         "lbfgs",
		ConjugatePrior: "a Beta prior on the accuracy",
	}
}

// SetWorker sets a worker's accuracy logit c_w to logit(vals[0]), the
// accuracy kept within [1e-12, 1 - 1e-12].
func (m OneCoin) SetWorker(d *data.Dataset, vals, w []float64) error {
	if err := setWorkerArgs(m, d, vals, w, func(int) int { return 1 }); err != nil {
		return err
	}
	if err := probability("accuracy", vals[0]); err != nil {
		return err
	}
	w[0] = logit(vals[0])
	return nil
}

var _ WorkerSetter = OneCoin{}
var _ Describer = OneCoin{}
