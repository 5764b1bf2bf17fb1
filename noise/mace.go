package noise

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// MACE is a spammer-aware noise model in the spirit of MACE (Hovy et al.
// 2013, "Learning Whom to Trust with MACE"): worker w answers truthfully
// with probability θ_w and otherwise ignores the object and draws a label
// from a distribution ξ_w of its own, so
//
//	P(y | z) = θ_w 1[y = z] + (1 - θ_w) ξ_w(y).
//
// A spammer (θ_w near 0) who always answers the same class is recognised as
// such instead of being taken for an informative worker. The parameters
// are K+1 numbers per worker, laid out as [t_w, s_w(1..K)] with
// θ_w = σ(t_w) and ξ_w = softmax(s_w); there are no object parameters.
// With P_i(z) = P(y_i | z) the log probabilities are
//
//	l_i(y_i) = log(θ + (1 - θ) ξ(y_i)),  l_i(z) = log(1 - θ) + log ξ(y_i) for z ≠ y_i,
//
// and the derivatives
//
//	∂l_i(z)/∂t   = θ (1 - θ) (1[z = y_i] - ξ(y_i)) / P_i(z),
//	∂l_i(z)/∂s_k = (1 - θ) ξ(y_i) (1[k = y_i] - ξ(k)) / P_i(z).
type MACE struct{}

// Name returns "mace".
func (MACE) Name() string { return "mace" }

// WorkerDim returns k+1: the truthfulness logit t_w and the K logits s_w of
// the spamming distribution.
func (MACE) WorkerDim(k int) int { return k + 1 }

// TaskDim returns 0.
func (MACE) TaskDim(int) int { return 0 }

// Init sets ξ_w to the worker's own label frequencies with a pseudo-count
// of one per class, and θ_w from the worker's smoothed agreement with the
// object frequencies a_w = (Σ_i freq_{j(i)}(y_i) + 1)/(n_w + 2) by solving
// a_w = θ + (1 - θ)/K (the agreement of a worker who spams uniformly),
// clipped to [0.05, 0.95].
func (MACE) Init(d *data.Dataset, freq data.TaskWeights, w, _ []float64) {
	k := d.NumClasses()
	dim := k + 1
	clear(w)
	agree := make([]float64, d.NumWorkers())
	n := make([]float64, d.NumWorkers())
	buf := make([]float64, k)
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		fj := freq.Row(j, buf)
		for i, wk := range workers {
			agree[wk] += fj[labels[i]]
			n[wk]++
			w[int(wk)*dim+1+int(labels[i])]++
		}
	}
	for wk := range n {
		a := (agree[wk] + 1) / (n[wk] + 2)
		th := (a - 1/float64(k)) / (1 - 1/float64(k))
		th = min(max(th, 0.05), 0.95)
		row := w[wk*dim : (wk+1)*dim]
		row[0] = math.Log(th / (1 - th))
		for y := 1; y <= k; y++ {
			row[y] = math.Log((row[y] + 1) / (n[wk] + float64(k)))
		}
	}
}

// SampleParams draws truthfulness θ_w ~ U[0.3, 0.95] and spamming
// distributions ξ_w ~ Dirichlet(1, ..., 1).
func (MACE) SampleParams(rng *rand.Rand, k int, w, _ []float64) {
	for r := 0; r < len(w); r += k + 1 {
		th := 0.3 + 0.65*rng.Float64()
		w[r] = math.Log(th / (1 - th))
		for y := 1; y <= k; y++ {
			w[r+y] = math.Log(rng.ExpFloat64())
		}
	}
}

// NewEvaluator returns an evaluator of MACE on d.
func (MACE) NewEvaluator(d *data.Dataset) Evaluator {
	k := d.NumClasses()
	nw := d.NumWorkers()
	return &maceEval{d: d, k: k, theta: make([]float64, nw), xi: make([]float64, nw*k),
		logEq: make([]float64, nw*k), logNe: make([]float64, nw*k),
		eq: make([]float64, nw*k), ratio: make([]float64, nw*k)}
}

type maceEval struct {
	d            *data.Dataset
	k            int
	theta        []float64 // θ_w
	xi           []float64 // ξ_w(y), W·K
	logEq, logNe []float64 // log P(y | z = y) and log P(y | z ≠ y), W·K
	eq, ratio    []float64 // P(y | z = y) and P(y | z ≠ y)/P(y | z = y), W·K, for Backprop
}

func (e *maceEval) SetParams(w, _ []float64) {
	k := e.k
	var buf num.Buf
	lxi := num.Scratch(&buf, k)
	for wk := range e.theta {
		row := w[wk*(k+1) : (wk+1)*(k+1)]
		t := row[0]
		e.theta[wk] = num.Sigmoid(t)
		lse := num.LogSoftmax(lxi, row[1:])
		num.SoftmaxFrom(e.xi[wk*k:(wk+1)*k], row[1:], lse)
		lth, l1th := num.LogSigmoid(t), num.LogSigmoid(-t)
		for y, v := range lxi {
			ne := l1th + v
			e.logNe[wk*k+y] = ne
			// log(θ + (1-θ)ξ(y)) = logaddexp(log θ, ne)
			hi, lo := max(lth, ne), min(lth, ne)
			e.logEq[wk*k+y] = hi + math.Log1p(math.Exp(lo-hi))
			e.eq[wk*k+y] = math.Exp(e.logEq[wk*k+y])
			e.ratio[wk*k+y] = math.Exp(ne - e.logEq[wk*k+y])
		}
	}
}

func (e *maceEval) LogProb(j int, l []float64) {
	k := e.k
	workers, labels := e.d.TaskLabels(j)
	for i, w := range workers {
		y := int(labels[i])
		li := l[i*k : (i+1)*k]
		ne := e.logNe[int(w)*k+y]
		for z := range li {
			li[z] = ne
		}
		li[y] = e.logEq[int(w)*k+y]
	}
}

// Backprop adds the t gradient directly and, for the s logits, only the
// weighted counts A at the observed class; FinishGrad subtracts
// ξ_w(k) Σ A, as DS does.
func (e *maceEval) Backprop(j int, g []float64, gw, _ []float64) {
	k := e.k
	workers, labels := e.d.TaskLabels(j)
	for i, w := range workers {
		y := int(labels[i])
		gi := g[i*k : (i+1)*k]
		var sum float64
		for _, v := range gi {
			sum += v
		}
		gy, rest := gi[y], sum-gi[y]
		th := e.theta[w]
		xy := e.xi[int(w)*k+y]
		// ξ(y)(1-θ)/P(y|y) and ξ(y)/P(y|z≠y) = 1/(1-θ), in closed form.
		r := e.ratio[int(w)*k+y]
		base := int(w) * (k + 1)
		gw[base] += th*(1-th)*gy*(1-xy)/e.eq[int(w)*k+y] - th*rest
		gw[base+1+y] += gy*r + rest
	}
}

func (e *maceEval) FinishGrad(gw, _ []float64) {
	k := e.k
	for wk := range e.theta {
		row := gw[wk*(k+1)+1 : (wk+1)*(k+1)]
		var sum float64
		for _, v := range row {
			sum += v
		}
		for y := range row {
			row[y] -= e.xi[wk*k+y] * sum
		}
	}
}

// WorkerOnly marks maceEval's conditionals as the worker's alone (noise.WorkerOnly).
func (*maceEval) WorkerOnly() {}

func (e *maceEval) Conditional(w int32, _ int, z int, p []float64) {
	k := e.k
	th := e.theta[w]
	for y := range p[:k] {
		p[y] = (1 - th) * e.xi[int(w)*k+y]
	}
	p[z] += th
}

func (e *maceEval) WorkerColumns() []string {
	cols := []string{"truthful"}
	for _, y := range e.d.Classes {
		cols = append(cols, fmt.Sprintf("spam[%s]", y))
	}
	return cols
}

func (e *maceEval) WorkerValues(w int, dst []float64) []float64 {
	k := e.k
	dst = append(dst, e.theta[w])
	return append(dst, e.xi[w*k:(w+1)*k]...)
}

// Info declares the MACE-style model for the registry: its LA form keeps
// the class prior uniform, as MACE does.
func (MACE) Info() Info {
	return Info{Summary: "MACE-style spammer model (truthful with prob. theta_w, else own distribution xi_w)", Solver: "lbfgs"}
}

// SetWorker sets a worker's parameters from vals, θ_w ("truthful") and
// ξ_w ("spam[y]"): the logit of θ_w and the logarithms of ξ_w(y), each
// probability kept at least 1e-12; ξ_w must sum to 1 within 1e-6.
func (m MACE) SetWorker(d *data.Dataset, vals, w []float64) error {
	if err := setWorkerArgs(m, d, vals, w, func(k int) int { return 1 + k }); err != nil {
		return err
	}
	if err := probability("truthful", vals[0]); err != nil {
		return err
	}
	w[0] = logit(vals[0])
	var sum float64
	for y, c := range d.Classes {
		p := vals[1+y]
		if err := probability("spam["+c+"]", p); err != nil {
			return err
		}
		sum += p
		w[1+y] = math.Log(max(p, 1e-12))
	}
	if math.Abs(sum-1) > 1e-6 {
		return fmt.Errorf("the spam distribution sums to %v, not 1", sum)
	}
	return nil
}

var _ WorkerSetter = MACE{}
var _ Describer = MACE{}
