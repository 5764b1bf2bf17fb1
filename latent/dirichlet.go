package latent

import (
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// Dirichlet is the hierarchical latent distribution assumption: every
// object's distribution is drawn from a population prior,
// q_j ~ Dirichlet(α p), the generative process of the paper's section 2
// that its eq. 3 drops by treating q_j as free parameters. The q_j are
// estimated by maximising the DA log-likelihood plus the prior's
// pseudo-count term,
//
//	L = Σ_j Σ_{i ∈ j} log Σ_z q_j(z) P(y_i | z) + Σ_j Σ_z α p_z log q_j(z),
//
// which is the log-density of Dirichlet(α p + 1), not of Dirichlet(α p):
// the mode of Dirichlet(α p) has the terms (α p_z - 1) log q_j(z), which
// are unbounded above when α p_z < 1 (q_j(z) → 0 would be rewarded without
// limit), and typical fitted α are small. With noise-free labels the
// pseudo-count form gives q_j = (n_j + α p)/(n_j + α), exactly the
// posterior mean of Dirichlet(α p) after the counts n_j, the Bayes
// predictive distribution of the next label; with noisy labels it is the
// same with the expected subjective counts Σ_i r_i in place of n_j.
//
// With q_j = softmax(b_j) the gradient is
//
//	∂L/∂b_j = Σ_{i ∈ j} (r_i - q_j) + α (p - q_j),
//
// and the weights handed to the noise model are DA's responsibilities r_i.
// As α → 0 it is plain DA; an object with few labels is shrunk toward p,
// one with many keeps (the noise-corrected version of) its frequencies.
// Model.HDA in package model estimates α and p from the data.
type Dirichlet struct {
	// Alpha is the concentration α ≥ 0 of the prior, the number of
	// pseudo-labels it is worth.
	Alpha float64
	// P is the population distribution p (K values summing to 1); nil
	// means uniform.
	P []float64
	// Floor is DA's floor for zero initial frequencies; zero means 0.01.
	Floor float64
}

// Name returns "hda".
func (Dirichlet) Name() string { return "hda" }

// GlobalDim returns 0: α and p are settings, not fitted here.
func (Dirichlet) GlobalDim(int) int { return 0 }

// TaskDim returns k, the logits b_j.
func (Dirichlet) TaskDim(k int) int { return k }

// Check returns an error if Alpha is negative or not finite, or if P is
// neither nil nor a distribution over the classes of d: one value per
// class, none negative, summing to 1 within 10⁻⁶, or if d is nil. The
// error wraps ErrUnsuited.
func (a Dirichlet) Check(d *data.Dataset) error {
	if err := checkData(d); err != nil {
		return err
	}
	if !(a.Alpha >= 0) || math.IsInf(a.Alpha, 1) {
		return unsuitedf("latent: Dirichlet.Alpha = %v, want a finite α ≥ 0", a.Alpha)
	}
	if a.P == nil {
		return nil
	}
	if len(a.P) != d.NumClasses() {
		return unsuitedf("latent: Dirichlet.P has %d values for %d classes", len(a.P), d.NumClasses())
	}
	var s float64
	for z, p := range a.P {
		if !(p >= 0) {
			return unsuitedf("latent: Dirichlet.P[%d] = %v, want a probability", z, p)
		}
		s += p
	}
	if !(math.Abs(s-1) <= 1e-6) {
		return unsuitedf("latent: Dirichlet.P sums to %v, not 1", s)
	}
	return nil
}

// prior returns the pseudo-counts α p_z for k classes.
func (a Dirichlet) prior(k int) []float64 {
	c := make([]float64, k)
	for z := range c {
		if a.P != nil {
			c[z] = a.Alpha * a.P[z]
		} else {
			c[z] = a.Alpha / float64(k)
		}
	}
	return c
}

// Init sets q_j to the smoothed frequencies (n_j(z) + α p_z)/(n_j + α),
// with probabilities below the Floor raised to it and the vector
// renormalised, and b_j = log q_j.
func (a Dirichlet) Init(d *data.Dataset, freq data.TaskWeights, _, t []float64) {
	k := d.NumClasses()
	c := a.prior(k)
	buf := make([]float64, k)
	for j := range d.Tasks {
		n := float64(d.Offsets[j+1] - d.Offsets[j])
		f := freq.Row(j, buf)
		sm := t[j*k : (j+1)*k]
		var s float64
		for z := range k {
			sm[z] = n*f[z] + c[z]
			s += sm[z]
		}
		for z := range k {
			if s > 0 {
				sm[z] /= s
			} else {
				sm[z] = 1 / float64(k)
			}
		}
		DA{Floor: a.Floor}.initRow(sm, sm)
	}
}

// Generate draws a fresh subjective class z ~ q for every label, as DA.
func (Dirichlet) Generate(rng *rand.Rand, q []float64, z []int) { DA{}.Generate(rng, q, z) }

// NewEvaluator returns an evaluator of the assumption on d, or Check's
// error, which wraps ErrUnsuited.
func (a Dirichlet) NewEvaluator(d *data.Dataset) (Evaluator, error) {
	if err := a.Check(d); err != nil {
		return nil, err
	}
	da := newDAEval(d)
	da.pseudo = a.Alpha
	return &dirEval{da: da, k: d.NumClasses(), d: d, c: a.prior(d.NumClasses()), alpha: a.Alpha}, nil
}

// dirEval wraps DA's evaluator in a named field, not by embedding, so
// that it implements only the interfaces it overrides: DA's optional fast
// paths would leave out the prior term. Its own fast paths (TaskProb,
// MStepTasks) are in dirichlet_prob.go.
type dirEval struct {
	da    *daEval
	k     int
	d     *data.Dataset
	c     []float64 // α p
	alpha float64
}

func (e *dirEval) SetParams(g, t []float64) { e.da.SetParams(g, t) }

func (e *dirEval) FinishGrad(gg, gt []float64) { e.da.FinishGrad(gg, gt) }

func (e *dirEval) Output(j int, l, out []float64) { e.da.Output(j, l, out) }

// addPrior adds α Σ_z p_z log q_j(z) to the object's term and α(p - q_j)
// to its gradient, and returns the term.
func (e *dirEval) addPrior(j int, gtask []float64) float64 {
	if e.alpha == 0 {
		return 0
	}
	k := e.k
	b := e.da.b[j*k : (j+1)*k]
	mx := math.Inf(-1)
	for _, v := range b {
		mx = max(mx, v)
	}
	var buf num.Buf
	ex := num.Scratch(&buf, k)
	var s float64
	for z, v := range b {
		ex[z] = num.Exp(v - mx)
		s += ex[z]
	}
	return e.foldPrior(0, j, ex, mx+num.Log(s), s, gtask)
}

// foldPrior adds object j's prior term to v and its gradient to gtask,
// and returns v, from ex_z = exp(b_z − m) for any m, their sum s and
// lse = log Σ_z exp(b_z): log q_j(z) = b_z − lse and q_j(z) = ex_z/s.
func (e *dirEval) foldPrior(v float64, j int, ex []float64, lse, s float64, gtask []float64) float64 {
	k := e.k
	b := e.da.b[j*k : (j+1)*k]
	inv := e.alpha / s
	gb := gtask[j*k : (j+1)*k]
	for z, c := range e.c {
		if c != 0 {
			v += c * (b[z] - lse)
		}
		gb[z] += c - inv*ex[z]
	}
	return v
}

func (e *dirEval) Task(j int, l, g []float64, gglob, gtask []float64) float64 {
	return e.da.Task(j, l, g, gglob, gtask) + e.addPrior(j, gtask)
}
