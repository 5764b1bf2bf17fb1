package noise

import (
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// GLAD is the noise model of Whitehill et al. (2009), the paper's section 3.2:
// a worker ability e_w ∈ ℝ and an object difficulty d_j > 0 give the
// probability of a correct label
//
//	a(w, j) = σ(e_w d_j) = 1/(1 + exp(-e_w d_j)),
//
// and P(y | z) = a(w, j) if y = z and (1 - a(w, j))/(K - 1) otherwise. A
// negative ability describes an adversarial worker.
//
// The parameters are e_w (one per worker) and δ_j = log d_j (one per object).
// With s = e_w d_j, computed in log-sigmoid form,
//
//	l_i(z) = log σ(s) if z = y_i, log σ(-s) - log(K - 1) otherwise,
//	∂l_i(z)/∂s = 1 - a if z = y_i, -a otherwise,
//	∂s/∂e_w = d_j,  ∂s/∂δ_j = e_w d_j.
type GLAD struct {
	// PriorVar, when positive, is the variance σ² of independent Gaussian
	// priors N(1, σ²) on every ability e_w and every log difficulty δ_j,
	// like those of Whitehill et al.'s published code and Crowd-Kit's
	// GLAD (mean 1, variance 1): the fit then maximises the penalised
	// L - Σ_w (e_w - 1)²/(2σ²) - Σ_j (δ_j - 1)²/(2σ²) (the posterior mode),
	// which is finite, instead of L, whose supremum lies at infinity
	// (d_j → ∞ for an object whose labels agree). The log-likelihood a
	// fit reports then includes the penalty. Zero, the default, means no
	// prior: the paper's maximum likelihood. CONSENSUS_GLAD_TABLE=1 go test
	// ./model -run GLADPriorTable -v compares both on the shipped data sets.
	PriorVar float64
}

// Name returns "glad".
func (GLAD) Name() string { return "glad" }

// WorkerDim returns 1, the ability e_w.
func (GLAD) WorkerDim(int) int { return 1 }

// TaskDim returns 1, the log difficulty δ_j = log d_j.
func (GLAD) TaskDim(int) int { return 1 }

// Init sets e_w = 1 and d_j = e (δ_j = 1), as the paper's section 5 and the
// original GLAD paper suggest.
func (GLAD) Init(_ *data.Dataset, _ data.TaskWeights, w, o []float64) {
	for i := range w {
		w[i] = 1
	}
	for i := range o {
		o[i] = 1
	}
}

// NewEvaluator returns an evaluator of GLAD on d; with a prior it also
// implements Penalizer.
func (m GLAD) NewEvaluator(d *data.Dataset) Evaluator {
	k := d.NumClasses()
	e := &gladEval{
		d: d, k: k,
		logKm1: math.Log(float64(k - 1)), invKm1: 1 / float64(k-1),
		diff: make([]float64, d.NumTasks()),
	}
	if m.PriorVar > 0 {
		return &gladPriorEval{gladEval: e, prec: 1 / m.PriorVar}
	}
	return e
}

// gladPriorEval is GLAD with Gaussian priors N(1, 1/prec) on the abilities
// and the log difficulties.
type gladPriorEval struct {
	*gladEval
	prec float64
}

func (e *gladPriorEval) Penalty(w, o, gw, gobj []float64) float64 {
	return l2(e.prec, 1, w, gw) + l2(e.prec, 1, o, gobj)
}

type gladEval struct {
	d      *data.Dataset
	k      int
	logKm1 float64
	invKm1 float64   // 1/(K - 1)
	e      []float64 // abilities, aliasing the worker block
	diff   []float64 // d_j = exp(δ_j)
}

// sigmoids returns σ(s) and 1 - σ(s) = σ(-s), each to full relative
// precision, with one exponential; beyond num.SigmoidLimit, where the
// smaller would be a subnormal number (slow on x86, and imprecise) or
// zero, the smaller is exactly 0, which the probability-space paths of the
// assumptions detect and handle (num.SigmoidPairOf).
func sigmoids(s float64) (a, na float64) { return num.SigmoidPairOf(s) }

// Prob writes P(y_i | z): a = σ(e_w d_j) for z = y_i and (1 - a)/(K - 1)
// for the other classes, with one exponential per label. The arguments
// s_i = e_w d_j of the whole range go into p's first values, and
// num.SigmoidPairs turns them into the pairs (σ(s_i), σ(-s_i)) at p[2i]
// and p[2i+1] (the exponentials overlapped, four at a time with AVX2),
// at K = 2 in the order of the label (num.SigmoidPairsAt: σ(s_i) at
// p[2i + y_i]); at K > 2 each label's pair is then put in its classes'
// places from the end, so that label i's pair is read before
// p[i·K, (i+1)·K) is written. The results are bit for bit those of
// sigmoids.
func (e *gladEval) Prob(lo, hi int, p []float64) {
	k := e.k
	off := e.d.Offsets
	base := off[lo]
	n := off[hi] - base
	s := p[:n]
	ability := e.e
	workers := e.d.Worker[base:off[hi]]
	i := 0
	for j, dj := range e.diff[lo:hi] {
		for end := off[lo+j+1] - base; i < end; i++ {
			s[i] = ability[workers[i]] * dj
		}
	}
	labels := e.d.Label[base:off[hi]]
	if k == 2 {
		num.SigmoidPairsAt(p[:2*n], s, labels)
		return
	}
	num.SigmoidPairs(p[:2*n], s)
	for i := len(labels) - 1; i >= 0; i-- {
		a, na := p[2*i], p[2*i+1]
		pi := p[i*k : (i+1)*k]
		wrong := na * e.invKm1
		for z := range pi {
			pi[z] = wrong
		}
		pi[labels[i]] = a
	}
}

// BackpropProb is Backprop reading a = σ(e_w d_j) from p instead of
// recomputing it.
func (e *gladEval) BackpropProb(lo, hi int, p, g []float64, gw, gobj []float64) {
	k := e.k
	off := e.d.Offsets
	base := off[lo]
	if k == 2 {
		// ds = g(y) - P(y | y)·(g(0) + g(1)) times d_j to each label's
		// worker, Σ ds·e_w times d_j to its object.
		num.SigmoidGradPairs(e.d.Worker[base:off[hi]], e.d.Label[base:off[hi]], off[lo:hi+1], p, g, e.e, e.diff[lo:hi], gw, gobj[lo:hi])
		return
	}
	for j := lo; j < hi; j++ {
		dj := e.diff[j]
		workers, labels := e.d.TaskLabels(j)
		pj := p[(off[j]-base)*k : (off[j+1]-base)*k]
		gj := g[(off[j]-base)*k : (off[j+1]-base)*k]
		var gd float64
		for i, w := range workers {
			y := int(labels[i])
			gi := gj[i*k : (i+1)*k]
			var sum float64
			for _, v := range gi {
				sum += v
			}
			ds := gi[y] - pj[i*k+y]*sum
			gw[w] += ds * dj
			gd += ds * e.e[w]
		}
		gobj[j] += gd * dj
	}
}

// BackpropShared is BackpropProb with the weights of each object shared
// by its labels (see SharedBackpropper): Σ_z g_i(z) is summed once per
// object.
func (e *gladEval) BackpropShared(lo, hi int, p, g []float64, gw, gobj []float64) {
	k := e.k
	off := e.d.Offsets
	base := off[lo]
	if k == 2 {
		num.SigmoidGradPairsShared(e.d.Worker[base:off[hi]], e.d.Label[base:off[hi]], off[lo:hi+1], p, g, e.e, e.diff[lo:hi], gw, gobj[lo:hi])
		return
	}
	for j := lo; j < hi; j++ {
		dj := e.diff[j]
		workers, labels := e.d.TaskLabels(j)
		pj := p[(off[j]-base)*k : (off[j+1]-base)*k]
		gj := g[(j-lo)*k : (j-lo+1)*k]
		var sum, gd float64
		for _, v := range gj {
			sum += v
		}
		labels = labels[:len(workers)]
		for i, w := range workers {
			y := int(labels[i])
			ds := gj[y] - pj[i*k+y]*sum
			gw[w] += ds * dj
			gd += ds * e.e[w]
		}
		gobj[j] += gd * dj
	}
}

func (e *gladEval) SetParams(w, o []float64) {
	e.e = w
	num.ExpTo(e.diff, o)
}

func (e *gladEval) LogProb(j int, l []float64) {
	k := e.k
	dj := e.diff[j]
	workers, labels := e.d.TaskLabels(j)
	for i, w := range workers {
		s := e.e[w] * dj
		wrong := num.LogSigmoid(-s) - e.logKm1
		li := l[i*k : (i+1)*k]
		for z := range li {
			li[z] = wrong
		}
		li[labels[i]] = num.LogSigmoid(s)
	}
}

func (e *gladEval) Backprop(j int, g []float64, gw, gobj []float64) {
	k := e.k
	dj := e.diff[j]
	workers, labels := e.d.TaskLabels(j)
	var gd float64
	for i, w := range workers {
		ew := e.e[w]
		a := num.Sigmoid(ew * dj)
		gi := g[i*k : (i+1)*k]
		var sum float64
		for _, v := range gi {
			sum += v
		}
		ds := gi[labels[i]] - a*sum // ∂L/∂s
		gw[w] += ds * dj
		gd += ds * ew * dj
	}
	gobj[j] += gd
}

func (e *gladEval) FinishGrad(_, _ []float64) {}

func (e *gladEval) Conditional(w int32, j int, z int, p []float64) {
	s := e.e[w] * e.diff[j]
	wrong := num.Sigmoid(-s) / float64(e.k-1) // 1 - a without cancellation
	for y := range p[:e.k] {
		p[y] = wrong
	}
	p[z] = num.Sigmoid(s)
}

func (e *gladEval) WorkerColumns() []string { return []string{"ability"} }

func (e *gladEval) WorkerValues(w int, dst []float64) []float64 {
	return append(dst, e.e[w])
}

// Info declares GLAD for the registry: its LA form keeps the class prior
// uniform, as in Whitehill et al.'s paper.
func (GLAD) Info() Info {
	return Info{Summary: "GLAD (worker ability x object difficulty)", Solver: "lbfgs"}
}

// SetWorker sets a worker's ability e_w to vals[0], which must be finite;
// the object difficulties keep their initial values.
func (m GLAD) SetWorker(d *data.Dataset, vals, w []float64) error {
	if err := setWorkerArgs(m, d, vals, w, func(int) int { return 1 }); err != nil {
		return err
	}
	if err := finiteValues([]string{"ability"}, vals); err != nil {
		return err
	}
	w[0] = vals[0]
	return nil
}

// TaskColumns names GLAD's one value per object, "difficulty".
func (GLAD) TaskColumns() []string { return []string{"difficulty"} }

// TaskValues appends object j's difficulty d_j = exp(o[j]) > 0. A worker of
// ability e_w labels object j correctly with probability σ(e_w d_j), so a
// larger d_j makes every worker's label more reliable (better workers more
// likely right, adversarial ones more likely wrong); log d_j is the
// parameter Crowd-Kit's GLAD reports as betas_.
func (GLAD) TaskValues(o []float64, _, j int, dst []float64) []float64 {
	return append(dst, math.Exp(o[j]))
}

var _ WorkerSetter = GLAD{}
var _ SharedBackpropper = (*gladEval)(nil)
var _ Describer = GLAD{}
var _ TaskReporter = GLAD{}

// WithPriorVar returns m with the variance of its Gaussian priors set to v
// (PriorVar).
func (m GLAD) WithPriorVar(v float64) Model {
	m.PriorVar = v
	return m
}
