package hda

import (
	"context"
	"math"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"gonum.org/v1/gonum/floats"
)

// The settings of HDA's empirical Bayes loop (see HDA).
const (
	// ebFitEM and ebFitGrad bound the iterations of an intermediate fit
	// by EM and by a gradient method.
	ebFitEM, ebFitGrad = 10, 100
	// ebStepsEM and ebStepsGrad bound the EM steps on the marginal
	// likelihood of an update of the prior after a fit by EM and by a
	// gradient method.
	ebStepsEM, ebStepsGrad = 1, 10
	// ebMaxIters bounds the iterations of the intermediate fits of one
	// start (and half of Settings.MaxIterations).
	ebMaxIters = 200
	// ebFunctionTol and ebGradientTol are the loosest tolerances of an
	// intermediate fit (Settings.FunctionTol, Settings.GradientTol).
	ebFunctionTol, ebGradientTol = 1e-8, 1e-6
	// ebTurnsEM and ebTurnsGrad are the numbers of fits each start runs
	// before the one of lower marginal likelihood is dropped.
	ebTurnsEM, ebTurnsGrad = 2, 1
	// ebSettle is the number of iterations over which a prior must have
	// settled.
	ebSettle = 50
)

// ebTally adds up the iterations, evaluations and fits of the empirical
// Bayes loop.
type ebTally struct{ iters, evals, fits int }

func (t *ebTally) add(r *model.Result) {
	t.iters += r.Iterations
	t.evals += r.Evaluations
	t.fits++
}

// ebChain is one run of the empirical Bayes loop: the prior, the fitted
// parameters it was last estimated from, the log marginal likelihood of
// the labels at those parameters, and the run's history.
type ebChain struct {
	alpha    float64
	p        []float64
	params   []float64
	marginal float64
	iters    int // iterations of the run's fits
	fits     int
	settled  bool
	// past holds the prior after every fit, with the run's iterations at
	// that point, for the settling test.
	past []ebPoint
}

// ebPoint is the prior of a run after some number of iterations.
type ebPoint struct {
	iters int
	alpha float64
	p     []float64
}

// ebLoop is the empirical Bayes loop of one HDA fit.
type ebLoop struct {
	h     HDA
	d     *data.Dataset
	set   model.Settings
	guard bool
	polys *polySet
	tally *ebTally
	seg   int       // the iteration limit of an intermediate fit
	steps int       // the most EM steps of an update of the prior
	hist  []float64 // the expected histograms of updatePrior
}

// run runs the loop from the prior (alpha, p), as HDA describes, and
// returns the run that wins.
func (eb *ebLoop) run(ctx context.Context, alpha float64, p []float64) (*ebChain, error) {
	k := eb.d.NumClasses()
	eb.hist = make([]float64, k*(eb.polys.nmax+1))
	turns := ebTurnsGrad
	eb.seg = ebFitGrad
	eb.steps = ebStepsGrad
	if (model.Model{Noise: eb.h.Noise, Latent: latent.Dirichlet{}}).FitsByEM(eb.d, &eb.set) {
		eb.seg, turns, eb.steps = ebFitEM, ebTurnsEM, ebStepsEM
	}
	budget := eb.set.MaxIterations
	if budget <= 0 {
		budget = 1000
	}
	rounds := eb.h.Rounds - 1
	if eb.h.Rounds <= 0 {
		rounds = math.MaxInt
	}
	live := func(c *ebChain) bool { return !c.settled && c.fits < rounds && c.iters < min(budget/2, ebMaxIters) }
	// Every run's first fit starts from Settings.Start (nil: Init), so
	// that a start from known workers (and Settings.Fixed, which holds
	// them) reaches every fit of the loop.
	chains := []*ebChain{{alpha: alpha, p: p, params: slices.Clone(eb.set.Start)}}
	if eb.h.Alpha == 0 {
		// With α fixed the starts coincide.
		chains = append(chains, &ebChain{alpha: alpha / 10, p: p, params: slices.Clone(eb.set.Start)})
	}
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
		if met || min(a.fits, b.fits) >= turns || !live(a) && !live(b) {
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
	return c, nil
}

// priorsClose reports whether two priors are within the settling
// tolerance of each other: α within 2%, every p_z within 0.005.
func priorsClose(a1, a2 float64, p1, p2 []float64) bool {
	return math.Abs(math.Log(a1/a2)) < 0.02 && floats.Distance(p1, p2, math.Inf(1)) < 0.005
}

// round is one round of run c: a fit of at most eb.seg iterations under
// c's prior, started from c's parameters (Init for the first), then an
// update of the prior from the fitted noise parameters (updatePrior).
func (eb *ebLoop) round(ctx context.Context, c *ebChain) error {
	fs := eb.set
	fs.Start = c.params
	fs.MaxIterations = eb.seg
	fs.FunctionTol = max(fs.FunctionTol, ebFunctionTol)
	fs.GradientTol = max(fs.GradientTol, ebGradientTol)
	r, used, err := eb.h.fit(ctx, eb.d, fs, c.alpha, c.p, eb.guard)
	if err != nil {
		return err
	}
	eb.tally.add(r)
	c.fits++
	c.iters += r.Iterations
	// The guard may have relabelled p with the classes.
	p := used.P
	if p == nil {
		p = uniform(eb.d.NumClasses())
	}
	eb.polys.build(r, eb.set.Threads)
	na, np, ml := eb.h.updatePrior(eb.polys, c.alpha, p, eb.steps, eb.set.Threads, eb.hist)
	c.alpha, c.p, c.params, c.marginal = na, np, r.Params, ml
	c.past = append(c.past, ebPoint{c.iters, na, np})
	// Settled: the prior has moved by less than the tolerance since the
	// fit ebSettle iterations back or, if this fit met its tolerances,
	// since the previous one.
	for i := len(c.past) - 2; i >= 0; i-- {
		if ref := c.past[i]; r.Converged || c.iters-ref.iters >= ebSettle {
			c.settled = priorsClose(na, ref.alpha, np, ref.p)
			break
		}
	}
	return nil
}

// updatePrior returns the prior after at most steps steps of EM on the
// marginal likelihood of the polynomials from (alpha, p), each the
// expected histograms of the subjective counts under the posterior
// weights of the count vectors (polySet.estep) and the weighted
// Dirichlet-multinomial estimate from them (dmHist.fit), with a positive
// HDA.Alpha or a non-nil HDA.P held; it stops early when a step moves α
// by less than 0.01% and every p_z by less than 10⁻⁵. It also returns the
// log marginal likelihood at the prior of the last step's E-step.
func (h HDA) updatePrior(polys *polySet, alpha float64, p []float64, steps, threads int, hist []float64) (float64, []float64, float64) {
	var ml float64
	for range steps {
		ml = polys.estep(alpha, p, threads, hist, nil)
		hd := dmHist{k: polys.k, nmax: polys.nmax, ns: polys.ns, h: hist}
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
