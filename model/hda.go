package model

import (
	"context"
	"fmt"
	"math"
	"os"
	"time"

	"gonum.org/v1/gonum/floats"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
)

// HDA is hierarchical DA: a noise model under the latent.Dirichlet
// assumption q_j ~ Dirichlet(α p), with the concentration α and the
// population distribution p estimated from the data by empirical Bayes
// unless they are set.
//
// The empirical Bayes loop alternates two steps:
//
//  1. fit the model (the pseudo-count MAP of latent.Dirichlet) with the
//     current α and p; the first fit of a run starts from Settings.Start
//     or Init, later fits from the previous optimum; fits before the
//     final one stop after at most 200 iterations;
//  2. holding the fitted noise parameters, set α and p to the maximiser of
//     the exact marginal likelihood of the labels with every q_j
//     integrated out,
//     Σ_j log ∫ Dir(q | α p) Π_{i ∈ j} Σ_z q(z) P(y_i | z) dq
//     (a type-II maximum-likelihood estimate, computed exactly by
//     expanding each object's likelihood as a polynomial in q_j, see
//     objectPoly, and maximised by Nelder-Mead).
//
// The loop runs from two starts: the Dirichlet-multinomial maximum-
// likelihood estimate (α₀, p₀) from the raw label counts
// (FitDirichletMultinomial), and (α₀/10, p₀). Each run stops when α
// changes by less than 2% and p by less than 0.005, or after Rounds − 1
// fits of at most 200 iterations; the prior with the higher marginal
// likelihood (at the fitted noise parameters it came from) gets the final
// fit with the full iteration budget, started from those parameters. The
// alternation can settle at a poor fixed point: the raw counts treat every
// label as noise-free and overstate α, and a noise model fitted under a
// strong prior then supports that prior. On temp, GLAD from (α₀, p₀) =
// (3.94, (0.47, 0.53)) settles at α = 1.40, p = (0.36, 0.64) with log
// marginal likelihood −2478, from the second start at α = 0.24,
// p = (0.56, 0.44) with −1792 (log loss on the gold tasks 0.50 and 0.24).
// With α fixed there is one start.
// Estimating α from the fitted q_j themselves, which are already shrunk
// toward p, would drift to α = ∞; the marginal likelihood does not use the
// q_j.
//
// Every fit of the loop, the final one included, goes through the
// label-switching guard (mirrorGuard, described in docs/models.md): a fit
// whose workers are on average worse than chance is fitted again from the
// mirrored, the relabelled (with p relabelled too) and, for a fit started
// from the previous one, the majority-vote start, and the fit of highest
// worker agreement is kept. A fit from Settings.Start or with
// Settings.Fixed is not guarded.
//
// The output is, by default, the marginal form: the posterior mean
// E[q_j | labels] under Dirichlet(α p) at the fitted noise parameters,
// computed from the same polynomials (the Bayes predictive distribution of
// a new subjective label). With MAP set it is the pseudo-count MAP q_j of
// the fit instead. Objects with more than 255 labels (or too many count
// vectors, see maxStates) are left out of the marginal likelihood and keep
// the MAP output.
type HDA struct {
	// Noise is the noise model.
	Noise noise.Model
	// Alpha, when positive, fixes the concentration α; zero estimates it.
	Alpha float64
	// P, when not nil, fixes the population distribution p; nil
	// estimates it.
	P []float64
	// Rounds bounds the number of fits of the empirical Bayes loop from
	// each start, the final fit included; zero means 4. With both Alpha
	// and P fixed, or Rounds 1, there is one fit.
	Rounds int
	// MAP outputs the pseudo-count MAP q_j instead of the posterior mean.
	MAP bool
}

// Name returns "hda-" followed by the noise model's name.
func (h HDA) Name() string { return "hda-" + h.Noise.Name() }

// Fit fits the hierarchical model to d with empirical Bayes as described at
// HDA. The result's Method names the final α and p; its Iterations,
// Evaluations and Runtime add up every fit of the loop.
func (h HDA) Fit(ctx context.Context, d *data.Dataset, s *Settings) (*Result, error) {
	res, _, _, err := h.FitPrior(ctx, d, s)
	return res, err
}

// FitPrior is Fit that also returns the α and p of the returned fit.
func (h HDA) FitPrior(ctx context.Context, d *data.Dataset, s *Settings) (*Result, float64, []float64, error) {
	if err := checkFit(ctx, d); err != nil {
		return nil, 0, nil, err
	}
	start := time.Now()
	k := d.NumClasses()
	if h.P != nil && len(h.P) != k {
		return nil, 0, nil, fmt.Errorf("model %s: population distribution has %d values for %d classes", h.Name(), len(h.P), k)
	}
	if h.Alpha < 0 {
		return nil, 0, nil, fmt.Errorf("model %s: negative concentration %g", h.Name(), h.Alpha)
	}
	rounds := h.Rounds
	if rounds <= 0 {
		rounds = defaultRounds
	}
	fixed := h.Alpha > 0 && h.P != nil
	alpha, p := h.Alpha, h.P
	if !fixed {
		alpha, p = FitDirichletMultinomial(d.Counts(), k, h.Alpha, h.P)
	}
	var set Settings
	if s != nil {
		set = *s
	}
	// The label-switching guard (see mirrorGuard) checks every fit of
	// the loop, unless the caller gave a start or fixed parameters.
	guard := s == nil || s.Start == nil && s.Fixed == nil
	var tally ebTally
	var polys *polySet
	if !h.MAP || !fixed && rounds > 1 {
		polys = newPolySet(d)
	}
	if !fixed && rounds > 1 {
		eb := &ebLoop{h: h, d: d, set: set, guard: guard, polys: polys, tally: &tally, rounds: rounds - 1}
		best, err := eb.run(ctx, alpha, p)
		if err != nil {
			return nil, 0, nil, err
		}
		alpha, p, set.Start = best.alpha, best.p, best.params
	}
	res, used, err := h.fit(ctx, d, set, alpha, p, guard)
	if err != nil {
		return nil, 0, nil, err
	}
	tally.add(res)
	if !h.MAP && used.Alpha > 0 {
		pp := used.P
		if pp == nil {
			pp = uniform(k)
		}
		polys.build(res, set.Threads)
		polys.estep(used.Alpha, pp, set.Threads, make([]float64, k*(polys.nmax+1)), res.Probs)
	}
	res.Model = h.Name()
	res.Iterations, res.Evaluations = tally.iters, tally.evals
	form := "posterior mean"
	if h.MAP {
		form = "MAP"
	}
	res.Method = fmt.Sprintf("%s, empirical Bayes prior alpha %.4g p %s (%d fits), %s output", res.Method, used.Alpha, fmtVec(used.P), tally.fits, form)
	res.Runtime = time.Since(start)
	return res, used.Alpha, used.P, nil
}

// The settings of the empirical Bayes loop (see HDA).
var (
	// segEM and segGrad are the iteration limits of an intermediate fit
	// by EM and by a gradient method.
	segEM, segGrad = 10, 25
	// segFunctionTol and segGradientTol are the least tolerances of an
	// intermediate fit.
	segFunctionTol, segGradientTol = 1e-8, 1e-6
	// lockstep is the number of iterations both starts run before the
	// one of lower marginal likelihood is dropped.
	lockstep = 100
	// settleIters is the number of iterations over which the prior must
	// have settled.
	settleIters = 50
	maxEsteps   = 1
)

// defaultRounds is the number of fits of the empirical Bayes loop from
// each start when HDA.Rounds is zero.
var defaultRounds = 100

// ebTally adds up the iterations, evaluations and fits of the empirical
// Bayes loop.
type ebTally struct{ iters, evals, fits int }

func (t *ebTally) add(r *Result) {
	t.iters += r.Iterations
	t.evals += r.Evaluations
	t.fits++
}

// ebChain is one run of the empirical Bayes loop: the prior, the fitted
// parameters it was estimated from, the log marginal likelihood of the
// labels at both, and its history.
type ebChain struct {
	alpha    float64
	p        []float64
	params   []float64
	marginal float64
	iters    int // iterations of its fits
	fits     int
	settled  bool
	// past holds the prior after every round with the chain's
	// iterations at that point, for the settling test.
	past []ebPoint
}

// ebPoint is the prior of a chain after some number of iterations.
type ebPoint struct {
	iters int
	alpha float64
	p     []float64
}

// ebLoop is the empirical Bayes loop of one HDA fit.
type ebLoop struct {
	h      HDA
	d      *data.Dataset
	set    Settings
	guard  bool
	polys  *polySet
	tally  *ebTally
	rounds int // the most fits per chain
	seg    int // the iteration limit of a fit
	hist   []float64
}

// run runs the loop from the prior (alpha, p) and returns the chain that
// wins: both starts, (alpha, p) and (alpha/10, p), in turns for lockstep
// iterations each (unless they settle or meet first), then the one of
// higher marginal likelihood alone until its prior settles or it has used
// half the iteration budget.
func (eb *ebLoop) run(ctx context.Context, alpha float64, p []float64) (*ebChain, error) {
	k := eb.d.NumClasses()
	eb.hist = make([]float64, k*(eb.polys.nmax+1))
	eb.seg = segGrad
	if usesEM(Model{Noise: eb.h.Noise, Latent: latent.Dirichlet{}}, eb.d, eb.set) {
		eb.seg = segEM
	}
	budget := eb.set.MaxIterations
	if budget <= 0 {
		budget = 1000
	}
	chains := []*ebChain{{alpha: alpha, p: p}}
	if eb.h.Alpha == 0 {
		// With α fixed the starts coincide.
		chains = append(chains, &ebChain{alpha: alpha / 10, p: p})
	}
	live := func(c *ebChain) bool { return !c.settled && c.fits < eb.rounds && c.iters < budget/2 }
	for len(chains) > 1 {
		for _, c := range chains {
			if live(c) {
				if err := eb.round(ctx, c); err != nil {
					return nil, err
				}
			}
		}
		a, b := chains[0], chains[1]
		met := a.fits > 0 && b.fits > 0 && priorsClose(a.alpha, b.alpha, a.p, b.p)
		if met || min(a.iters, b.iters) >= lockstep || !live(a) && !live(b) {
			if b.marginal > a.marginal {
				a = b
			}
			chains = []*ebChain{a}
		}
	}
	c := chains[0]
	for live(c) {
		if err := eb.round(ctx, c); err != nil {
			return nil, err
		}
	}
	if debugHDA {
		fmt.Fprintf(os.Stderr, "chain end: alpha %.4g p %.3f ml %.3f iters %d\n", c.alpha, c.p, c.marginal, c.iters)
	}
	return c, nil
}

// priorsClose reports whether two priors are within the settling tolerance of
// each other: α within 2%, every p_z within 0.005.
func priorsClose(a1, a2 float64, p1, p2 []float64) bool {
	return math.Abs(math.Log(a1/a2)) < 0.02 && floats.Distance(p1, p2, math.Inf(1)) < 0.005
}

// round is one round of chain c: a fit of at most eb.seg iterations under
// c's prior, started from c's parameters (Init for the first), then an
// update of the prior from the fitted noise parameters (updatePrior).
func (eb *ebLoop) round(ctx context.Context, c *ebChain) error {
	k := eb.d.NumClasses()
	fs := eb.set
	fs.Start = c.params
	fs.MaxIterations = eb.seg
	fs.FunctionTol = max(fs.FunctionTol, segFunctionTol)
	fs.GradientTol = max(fs.GradientTol, segGradientTol)
	t0 := time.Now()
	r, used, err := eb.h.fit(ctx, eb.d, fs, c.alpha, c.p, eb.guard)
	if err != nil {
		return err
	}
	t1 := time.Now()
	eb.tally.add(r)
	c.fits++
	c.iters += r.Iterations
	// The guard may have relabelled p with the classes.
	p := used.P
	if p == nil {
		p = uniform(k)
	}
	eb.polys.build(r, eb.set.Threads)
	na, np, ml := eb.h.updatePrior(eb.polys, c.alpha, p, eb.set.Threads, eb.hist)
	if debugHDA {
		fmt.Fprintf(os.Stderr, "seg iters %d (%s) fit %v, update %v: alpha %.4g p %.4f ml %.3f\n", r.Iterations, r.Status, t1.Sub(t0), time.Since(t1), na, np, ml)
	}
	c.alpha, c.p, c.params, c.marginal = na, np, r.Params, ml
	c.past = append(c.past, ebPoint{c.iters, na, np})
	// Settled: the prior has moved by less than the tolerance since the
	// round settleIters iterations back, or, if this fit converged, since
	// the previous round.
	ref := ebPoint{0, 0, nil}
	for i := len(c.past) - 2; i >= 0; i-- {
		if r.Converged || c.iters-c.past[i].iters >= settleIters {
			ref = c.past[i]
			break
		}
	}
	c.settled = ref.p != nil && priorsClose(na, ref.alpha, np, ref.p)
	return nil
}

// usesEM reports whether Model.Fit fits m on d by EM with the settings
// set (see Settings.Method).
func usesEM(m Model, d *data.Dataset, set Settings) bool {
	switch {
	case set.Method == EM:
		return true
	case set.Method != Auto || set.Ridge != 0 || set.Fixed != nil:
		return false
	}
	_, ok1 := m.Noise.NewEvaluator(d).(noise.MStepper)
	_, ok2 := m.Latent.NewEvaluator(d).(latent.MStepper)
	return ok1 && ok2
}

// updatePrior returns the α and p that maximise the marginal likelihood of
// the polynomials, by EM over the count vectors of subjective classes
// (estep, then the weighted Dirichlet-multinomial estimate from the
// histograms), started from (alpha, p), with a positive HDA.Alpha or a
// non-nil HDA.P held; and the log marginal likelihood at them.
func (h HDA) updatePrior(polys *polySet, alpha float64, p []float64, threads int, hist []float64) (float64, []float64, float64) {
	k := polys.k
	var ml float64
	for i := range maxEsteps {
		if debugHDA && i > 0 {
			fmt.Fprintf(os.Stderr, " estep %d\n", i)
		}
		ml = polys.estep(alpha, p, threads, hist, nil)
		hd := dmHist{k: k, nmax: polys.nmax, ns: polys.ns, h: hist}
		na, np := hd.fit(alpha, p, h.Alpha > 0, h.P != nil, float64(polys.d.NumTasks()))
		done := math.Abs(math.Log(na/alpha)) < 1e-4 && floats.Distance(np, p, math.Inf(1)) < 1e-5
		alpha, p = na, np
		if done {
			break
		}
	}
	return alpha, p, ml
}

// uniform returns the uniform distribution on k classes.
func uniform(k int) []float64 {
	p := make([]float64, k)
	for z := range p {
		p[z] = 1 / float64(k)
	}
	return p
}

// fit is one fit of the empirical Bayes loop: the noise model under
// latent.Dirichlet with the prior (alpha, p), from set.Start (nil: Init).
// With guard set, the fit goes through the label-switching guard
// (mirrorGuard): the relabelled start relabels an estimated p with the
// classes (a fixed HDA.P stays as it is), and a fit from the previous fit
// of the loop (set.Start not nil) also gets the majority-vote start. It
// returns the fit and the assumption it was made under.
func (h HDA) fit(ctx context.Context, d *data.Dataset, set Settings, alpha float64, p []float64, guard bool) (*Result, latent.Dirichlet, error) {
	m := Model{Noise: h.Noise, Latent: latent.Dirichlet{Alpha: alpha, P: p}}
	r, err := m.fitOnce(ctx, d, &set)
	if err == nil && guard {
		g := mirrorGuard{warm: set.Start != nil, relabel: func(perm []int) latent.Assumption {
			if h.P != nil {
				return m.Latent
			}
			return latent.Dirichlet{Alpha: alpha, P: permuted(p, perm)}
		}}
		r, err = g.check(ctx, m, d, &set, r)
	}
	if err != nil {
		return nil, latent.Dirichlet{}, err
	}
	return r, r.model.Latent.(latent.Dirichlet), nil
}

// permuted returns p with the value of class z moved to class perm[z]; nil
// (the uniform distribution) stays nil.
func permuted(p []float64, perm []int) []float64 {
	if p == nil {
		return nil
	}
	q := make([]float64, len(p))
	for z, v := range p {
		q[perm[z]] = v
	}
	return q
}

func fmtVec(p []float64) string {
	s := "["
	for i, v := range p {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.3f", v)
	}
	return s + "]"
}

// SubjectiveCounts returns, for a fitted noise model under a DA-type
// assumption (DA or latent.Dirichlet), every object's expected counts of
// subjective classes m_j(z) = Σ_{i ∈ j} r_i(z), J×K, where
// r_i(z) ∝ q_j(z) P(y_i | z) with q_j = r.Dist(j). It panics for RFE.
func SubjectiveCounts(r *Result) []float64 {
	d := r.Data
	k := d.NumClasses()
	r.obj.setParams(r.Params)
	m := make([]float64, d.NumTasks()*k)
	most := 0
	for j := range d.Tasks {
		most = max(most, d.Offsets[j+1]-d.Offsets[j])
	}
	l := make([]float64, most*k)
	t := make([]float64, k)
	for j := range d.Tasks {
		n := d.Offsets[j+1] - d.Offsets[j]
		r.obj.noise.LogProb(j, l[:n*k])
		q := r.Dist(j)
		for i := 0; i < n; i++ {
			for z := range t {
				t[z] = math.Log(q[z]) + l[i*k+z]
			}
			lse := num.LogSumExp(t)
			for z := range t {
				m[j*k+z] += math.Exp(t[z] - lse)
			}
		}
	}
	return m
}

var debugHDA = os.Getenv("HDA_DEBUG") != ""

func init() {
	fmt.Sscan(os.Getenv("HDA_SEG"), &segEM, &segGrad, &segFunctionTol, &segGradientTol, &maxEsteps, &lockstep, &settleIters)
	if r := os.Getenv("HDA_ROUNDS"); r != "" {
		fmt.Sscan(r, &defaultRounds)
	}
}
