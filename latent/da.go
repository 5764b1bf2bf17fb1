package latent

import (
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// DA is the latent distribution assumption, the paper's eq. 3:
//
//	L = Σ_j Σ_{i ∈ j} log Σ_z q_j(z) P(y_i | z).
//
// Every object has its own distribution q_j = softmax(b_j) with K free
// logits b_j. Each label's term is log Σ_z exp t_i(z) with
// t_i(z) = log q_j(z) + l_i(z); the weights are the responsibilities of the
// subjective classes, g_i(z) = r_i(z) = softmax(t_i)(z), and
//
//	∂L/∂b_j = Σ_{i ∈ j} (r_i - q_j).
//
// The consensus output is q_j.
type DA struct {
	// Floor is the pseudo-frequency that replaces a zero in an object's
	// initial frequency vector before it is renormalised, so that every
	// initial logit is finite: q_j(z) ∝ max(freq_j(z), Floor). Zero means
	// 0.01. The paper initialises q_j at the label frequencies and does not
	// say how it treats zeros.
	Floor float64
}

// Name returns "da".
func (DA) Name() string { return "da" }

// GlobalDim returns 0: plain DA has no shared parameters.
func (DA) GlobalDim(int) int { return 0 }

// TaskDim returns k, the logits b_j.
func (DA) TaskDim(k int) int { return k }

// Init sets q_j to object j's label frequencies, with zeros raised to the
// Floor and the vector renormalised, and b_j = log q_j.
func (a DA) Init(d *data.Dataset, freq []float64, _, t []float64) {
	floor := a.Floor
	if floor == 0 {
		floor = 0.01
	}
	k := d.NumClasses()
	for j := range d.Tasks {
		row := t[j*k : (j+1)*k]
		var sum float64
		for z, v := range freq[j*k : (j+1)*k] {
			row[z] = max(v, floor)
			sum += row[z]
		}
		for z, v := range row {
			row[z] = math.Log(v / sum)
		}
	}
}

// NewEvaluator returns an evaluator of DA on d.
func (DA) NewEvaluator(d *data.Dataset) Evaluator {
	return &daEval{d: d, k: d.NumClasses()}
}

type daEval struct {
	d *data.Dataset
	k int
	b []float64
}

func (e *daEval) SetParams(_, t []float64) { e.b = t }

func (e *daEval) Task(j int, l, g []float64, _, gtask []float64) float64 {
	k := e.k
	var buf, tbuf num.Buf
	logq := num.Scratch(&buf, k)
	t := num.Scratch(&tbuf, k)
	num.LogSoftmax(logq, e.b[j*k:(j+1)*k])
	n := e.d.Offsets[j+1] - e.d.Offsets[j]
	gb := gtask[j*k : (j+1)*k]
	var v float64
	for i := 0; i < n; i++ {
		for z, lq := range logq {
			t[z] = lq + l[i*k+z]
		}
		lse := num.LogSumExp(t)
		v += lse
		gi := g[i*k : (i+1)*k]
		num.SoftmaxFrom(gi, t, lse)
		for z, r := range gi {
			gb[z] += r
		}
	}
	for z, lq := range logq {
		gb[z] -= float64(n) * math.Exp(lq)
	}
	return v
}

func (e *daEval) FinishGrad(_, _ []float64) {}

func (e *daEval) Output(j int, _ []float64, out []float64) {
	k := e.k
	b := e.b[j*k : (j+1)*k]
	num.SoftmaxFrom(out[:k], b, num.LogSumExp(b))
}
