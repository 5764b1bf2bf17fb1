package noise

import (
	"math"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// Default Gaussian priors of GLAD's parameters in variational fits
// (GLAD.NewMAP): every ability e_w ~ N(DefaultGLADMean, PriorVar) and every
// log difficulty δ_j = log d_j ~ N(DefaultGLADMean, PriorVar), with PriorVar
// DefaultGLADVar when GLAD.PriorVar is zero. They are the priors of
// Whitehill et al.'s published GLAD code and of Crowd-Kit's GLAD: a worker
// is believed better than chance (σ(e·d) = 0.94 at the prior means) until
// the labels say otherwise, which breaks the label-switching symmetry, and
// a unit variance lets the labels move every parameter by several units.
// They are set once, not per data set.
const (
	DefaultGLADMean = 1
	DefaultGLADVar  = 1
)

var _ MAPVariational = GLAD{}

// NewMAP returns GLAD's parameters on d for a variational fit: point
// estimates of the abilities e_w and log difficulties δ_j, with Gaussian
// priors N(DefaultGLADMean, σ²) on each (σ² = PriorVar, or DefaultGLADVar
// when PriorVar is zero). Its Prob is P(y_i | z) at the current estimates.
// Update moves every ability and every log difficulty towards the mode of
// their posterior given the weights g_i(z) of the last pass: with
// c_i = g_i(y_i), t_i = Σ_z g_i(z), s_i = e_w d_j and a_i = σ(s_i), the
// expected complete log-likelihood
// Σ_i [c_i log a_i + (t_i − c_i)(log(1 − a_i) − log(K − 1))] has
//
//	∂/∂e_w = Σ_{i of w} (c_i − t_i a_i) d_j,   ∂/∂δ_j = Σ_{i of j} (c_i − t_i a_i) s_i,
//
// to which the prior adds −(x − μ)/σ². Update and Load return the negative
// log prior density Σ (x − μ)²/(2σ²) (up to a constant), the parameters'
// part of the variational objective.
func (m GLAD) NewMAP(d *data.Dataset) Variational {
	v := m.PriorVar
	if v <= 0 {
		v = DefaultGLADVar
	}
	e := GLAD{}.NewEvaluator(d).(*gladEval)
	nw, nt := d.NumWorkers(), d.NumTasks()
	g := &gladMAP{
		e:    e,
		prec: 1 / v,
		mu:   DefaultGLADMean,
		w:    make([]float64, nw),
		o:    make([]float64, nt),
		next: make([]float64, nt),
	}
	e.SetParams(g.w, g.o)
	return g
}

// MAPPrior returns "Gaussian priors on abilities and log difficulties".
func (GLAD) MAPPrior() string { return "Gaussian priors on abilities and log difficulties" }

// gladMAP is GLAD's point posterior in a variational fit.
type gladMAP struct {
	e        *gladEval
	prec, mu float64
	w, o     []float64 // abilities e_w and log difficulties δ_j
	next     []float64 // the δ_j of the next Update, written by Accumulate
	// fixed, if not nil, marks the parameters (laid out as Params) that
	// Update and Load keep (Hold); held abilities also fix the scale, so
	// that rescale does not run.
	fixed []bool
	// floor is the least curvature a(1 − a) of a label in the abilities'
	// Newton steps.
	floor float64
}

// gladMaxStep bounds one update of a parameter of gladMAP.
const gladMaxStep = 2

func (g *gladMAP) AccDim() int { return 2 * len(g.w) }

// Start sets every parameter to its prior mean and then takes one step
// with the weights freq_j(z) on every label i of object j.
func (g *gladMAP) Start(freq data.TaskWeights) {
	for i := range g.w {
		g.w[i] = g.mu
	}
	for j := range g.o {
		g.o[j] = g.mu
	}
	g.e.SetParams(g.w, g.o)
	d, k := g.e.d, g.e.k
	acc := make([]float64, g.AccDim())
	g.floor = 0.25
	// One object at a time, the weights of its labels only: the same sums
	// in the same order as for all objects at once, without a number per
	// label and class of the whole data set.
	var gw []float64
	buf := make([]float64, k)
	for j := range d.Tasks {
		fj := freq.Row(j, buf)
		n := d.Offsets[j+1] - d.Offsets[j]
		gw = slices.Grow(gw[:0], n*k)[:n*k]
		for i := range n {
			copy(gw[i*k:(i+1)*k], fj)
		}
		g.Accumulate(j, j+1, gw, acc)
	}
	g.Update(acc)
	g.floor = 1.0 / 16
}

func (g *gladMAP) Prob(lo, hi int, p []float64) { g.e.Prob(lo, hi, p) }

// Accumulate adds every ability's gradient and curvature bound to acc
// (the gradients first, then the curvatures) and sets the next log
// difficulty of every object of [lo, hi).
func (g *gladMAP) Accumulate(lo, hi int, gr, acc []float64) {
	k := g.e.k
	d := g.e.d
	off := d.Offsets
	base := off[lo]
	nw := len(g.w)
	for j := lo; j < hi; j++ {
		dj := g.e.diff[j]
		workers, labels := d.TaskLabels(j)
		gj := gr[(off[j]-base)*k : (off[j+1]-base)*k]
		var gd, hd, f0 float64
		for i, w := range workers {
			gi := gj[i*k : (i+1)*k]
			var t float64
			for _, x := range gi {
				t += x
			}
			s := g.w[w] * dj
			a, na := sigmoids(s)
			c := gi[labels[i]]
			r := c - t*a
			acc[w] += r * dj
			acc[nw+int(w)] += t * max(a*na, g.floor) * dj * dj
			gd += r * s
			hd += t * a * na * s * s
			f0 += c*s - t*softplus(s, min(a, na)/max(a, na))
		}
		x := g.o[j]
		step := (gd - g.prec*(x-g.mu)) / (hd + g.prec)
		step = max(-gladMaxStep, min(step, gladMaxStep))
		// The curvature is Gauss-Newton's, not a bound: halve a step that
		// lowers the object's part of the objective.
		f0 -= g.prec / 2 * (x - g.mu) * (x - g.mu)
		for range 20 {
			if step == 0 || g.taskObjective(j, gj, x+step) >= f0 {
				break
			}
			step /= 2
		}
		g.next[j] = x + step
	}
}

// softplus returns log(1 + e^s) given ex = e^−|s|.
func softplus(s, ex float64) float64 {
	return max(s, 0) + math.Log(1+ex)
}

// taskObjective returns object j's part of the expected complete
// log-likelihood, plus its log prior, at log difficulty x, for the
// weights gj of its labels (without the constant −(t_i − c_i) log(K − 1)):
// Σ_i c_i log σ(s_i) + (t_i − c_i) log σ(−s_i) = Σ_i c_i s_i − t_i log(1 + e^s_i).
func (g *gladMAP) taskObjective(j int, gj []float64, x float64) float64 {
	k := g.e.k
	workers, labels := g.e.d.TaskLabels(j)
	dj := math.Exp(x)
	f := -g.prec / 2 * (x - g.mu) * (x - g.mu)
	for i, w := range workers {
		gi := gj[i*k : (i+1)*k]
		var t float64
		for _, v := range gi {
			t += v
		}
		s := g.w[w] * dj
		f += gi[labels[i]]*s - t*softplus(s, num.Exp(-math.Abs(s)))
	}
	return f
}

// Update takes the steps of the abilities from acc (a gradient step
// scaled by a bound on the curvature, Σ t_i d_j²/4 + 1/σ², so that it
// never overshoots) and moves the log difficulties to the values
// Accumulate set.
func (g *gladMAP) Update(acc []float64) float64 {
	nw := len(g.w)
	for w, x := range g.w {
		if g.held(w) {
			continue
		}
		step := (acc[w] - g.prec*(x-g.mu)) / (acc[nw+w] + g.prec)
		g.w[w] = x + max(-gladMaxStep, min(step, gladMaxStep))
	}
	if g.fixed == nil {
		copy(g.o, g.next)
		g.rescale()
	} else {
		g.keepHeld(g.o, g.next, nw)
	}
	g.e.SetParams(g.w, g.o)
	return g.penalty()
}

// keepHeld copies src into dst, parameters off..off+len(dst) of Params,
// except those Hold marked.
func (g *gladMAP) keepHeld(dst, src []float64, off int) {
	for i, x := range src {
		if !g.held(off + i) {
			dst[i] = x
		}
	}
}

// held reports whether Hold marked parameter i.
func (g *gladMAP) held(i int) bool { return g.fixed != nil && g.fixed[i] }

// Hold keeps the parameters marked in fixed through Update and Load, and
// stops the rescaling, whose direction held abilities pin.
func (g *gladMAP) Hold(fixed []bool) { g.fixed = fixed }

// WorkerPosteriorDim returns 1: a worker's ability, the first block of the
// point posterior's parameters.
func (GLAD) WorkerPosteriorDim(int) int { return 1 }

// SetWorkerPosterior sets a worker's ability to vals[0], the ability
// WorkerValues reports.
func (GLAD) SetWorkerPosterior(_ *data.Dataset, vals, params []float64) error {
	if err := valueCount(vals, 1); err != nil {
		return err
	}
	if err := finiteValues([]string{"ability"}, vals); err != nil {
		return err
	}
	params[0] = vals[0]
	return nil
}

var (
	_ WorkerPosteriorSetter = GLAD{}
	_ Holder                = (*gladMAP)(nil)
)

// rescale moves along the one direction the likelihood does not see: the
// abilities times c and the difficulties divided by c leave every e_w d_j,
// and so every P(y | z), as they are. It sets u = log c to the minimiser of
// the negative log prior Σ_w (e_w e^u − μ)² + Σ_j (δ_j − u − μ)², by
// Newton's method, which coordinate steps would find only slowly.
func (g *gladMAP) rescale() {
	var u float64
	for range 20 {
		c := math.Exp(u)
		var grad, hess float64
		for _, x := range g.w {
			ec := x * c
			grad += (ec - g.mu) * ec
			hess += 2*ec*ec - g.mu*ec
		}
		for _, x := range g.o {
			grad -= x - u - g.mu
			hess++
		}
		if !(hess > 0) {
			break
		}
		step := grad / hess
		u -= max(-1, min(step, 1))
		if math.Abs(step) < 1e-12 {
			break
		}
	}
	c := math.Exp(u)
	for i := range g.w {
		g.w[i] *= c
	}
	for j := range g.o {
		g.o[j] -= u
	}
}

// penalty returns Σ (x − μ)² prec/2 over every parameter.
func (g *gladMAP) penalty() float64 {
	var s float64
	for _, x := range g.w {
		s += (x - g.mu) * (x - g.mu)
	}
	for _, x := range g.o {
		s += (x - g.mu) * (x - g.mu)
	}
	return g.prec / 2 * s
}

// Load sets the abilities and log difficulties to params (as Params wrote
// them) and returns the negative log prior density.
func (g *gladMAP) Load(params []float64) float64 {
	nw := len(g.w)
	if g.fixed == nil {
		copy(g.w, params[:nw])
		copy(g.o, params[nw:])
	} else {
		g.keepHeld(g.w, params[:nw], 0)
		g.keepHeld(g.o, params[nw:], nw)
	}
	copy(g.next, g.o)
	g.e.SetParams(g.w, g.o)
	return g.penalty()
}

// Params appends the abilities, then the log difficulties.
func (g *gladMAP) Params(dst []float64) []float64 {
	return append(append(dst, g.w...), g.o...)
}

func (g *gladMAP) Conditional(w int32, j int, z int, p []float64) {
	g.e.Conditional(w, j, z, p)
}

func (g *gladMAP) WorkerColumns() []string { return g.e.WorkerColumns() }

func (g *gladMAP) WorkerValues(w int, dst []float64) []float64 {
	return g.e.WorkerValues(w, dst)
}
