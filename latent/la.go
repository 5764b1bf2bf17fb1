package latent

import (
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// LA is the latent label assumption, the paper's eq. 1:
//
//	L = Σ_j log Σ_z p_z Π_{i ∈ j} P(y_i | z).
//
// With s_j(z) = log p_z + Σ_{i ∈ j} l_i(z) the object's term is
// log Σ_z exp s_j(z), the posterior is γ_j = softmax(s_j), the weights are
// g_i(z) = γ_j(z) for every label i of object j, and the consensus output is
// γ_j.
//
// When LearnPrior is set the prior is p = softmax(a) with K free logits a
// and ∂L/∂a = Σ_j (γ_j - p); it starts at the frequencies of the classes
// among all labels (the paper's initialisation for LA-DS). Otherwise the
// prior is uniform, as in the original GLAD and minimax entropy models.
type LA struct {
	// LearnPrior makes the class prior p a parameter to fit; when false
	// p is uniform.
	LearnPrior bool
}

// Name returns "la".
func (LA) Name() string { return "la" }

// LearnsPrior reports whether the class prior is fitted (LearnPrior).
func (a LA) LearnsPrior() bool { return a.LearnPrior }

// GlobalDim returns k when the prior is learned and 0 otherwise.
func (a LA) GlobalDim(k int) int {
	if a.LearnPrior {
		return k
	}
	return 0
}

// TaskDim returns 0: LA has no per-object parameters.
func (LA) TaskDim(int) int { return 0 }

// Init sets the prior logits to the log frequencies of the classes among
// all labels (a class that never occurs gets half a label's count).
func (a LA) Init(d *data.Dataset, _ data.TaskWeights, g, _ []float64) {
	if !a.LearnPrior {
		return
	}
	k := d.NumClasses()
	n := make([]float64, k)
	for _, y := range d.Label {
		n[y]++
	}
	for z, c := range n {
		if c == 0 {
			c = 0.5
		}
		g[z] = math.Log(c / float64(max(len(d.Label), 1)))
	}
}

// NewEvaluator returns an evaluator of LA on d, or an error wrapping
// ErrUnsuited if d is nil.
func (a LA) NewEvaluator(d *data.Dataset) (Evaluator, error) {
	if err := checkData(d); err != nil {
		return nil, err
	}
	k := d.NumClasses()
	e := &laEval{d: d, k: k, learn: a.LearnPrior, logp: make([]float64, k), p: make([]float64, k)}
	for z := range e.logp {
		e.logp[z] = -math.Log(float64(k))
		e.p[z] = 1 / float64(k)
	}
	if k == 2 || k >= minTableK {
		return laTable{e}, nil
	}
	return e, nil
}

type laEval struct {
	d       *data.Dataset
	k       int
	learn   bool
	logp, p []float64
}

func (e *laEval) SetParams(g, _ []float64) {
	if !e.learn {
		return
	}
	lse := num.LogSoftmax(e.logp, g)
	num.SoftmaxFrom(e.p, g, lse)
}

// posterior writes s_j into s and returns log Σ_z exp s_j(z), leaving γ_j in s.
func (e *laEval) posterior(n int, l, s []float64) float64 {
	k := e.k
	copy(s, e.logp)
	for i := 0; i < n; i++ {
		for z, v := range l[i*k : (i+1)*k] {
			s[z] += v
		}
	}
	lse := num.LogSumExp(s)
	num.SoftmaxFrom(s, s, lse)
	return lse
}

func (e *laEval) Task(j int, l, g []float64, gglob, _ []float64) float64 {
	k := e.k
	n := e.d.Offsets[j+1] - e.d.Offsets[j]
	var buf num.Buf
	gamma := num.Scratch(&buf, k)
	v := e.posterior(n, l, gamma)
	for i := 0; i < n; i++ {
		copy(g[i*k:(i+1)*k], gamma)
	}
	if e.learn {
		for z, p := range e.p {
			gglob[z] += gamma[z] - p
		}
	}
	return v
}

func (e *laEval) FinishGrad(_, _ []float64) {}

// MStep sets the prior to the mean posterior, p_z = (1/J) Σ_j γ_j(z) =
// p_z + gglob(z)/J, when it is learned; a probability that rounds to zero
// or below is raised to MinProb. A uniform prior stays as it is.
func (e *laEval) MStep(gglob, _ []float64, g, _ []float64) {
	if !e.learn {
		return
	}
	nt := float64(e.d.NumTasks())
	for z, pz := range e.p {
		g[z] = pz + gglob[z]/nt
	}
	logNormalise(g)
}

func (e *laEval) Output(j int, l []float64, out []float64) {
	e.posterior(e.d.Offsets[j+1]-e.d.Offsets[j], l, out[:e.k])
}

// OutputProb writes γ_j into out as TaskProb computes it (ProbOutputter),
// unless a class's posterior is below the smallest normal number: TaskProb
// drops a posterior below 2⁻⁶⁴ times the largest when its product has lost
// precision, which is harmless in a pass's weights but not in the output,
// where Output gives the small probability, or 0 where it underflows.
func (e *laEval) OutputProb(j int, p, out []float64) bool {
	var buf num.Buf
	s := num.Scratch(&buf, e.k)
	if _, _, ok := e.posteriorProb(p, s); !ok {
		return false
	}
	for _, v := range s {
		if !(v >= 0x1p-1022) {
			return false
		}
	}
	copy(out, s)
	return true
}

var _ SharedProbEvaluator = (*laEval)(nil)
var _ MStepper = (*laEval)(nil)
var _ ProbOutputter = (*laEval)(nil)
