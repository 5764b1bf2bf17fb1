package hda

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/fitting"
	"github.com/consensuslab/consensus/noise"
)

// HDA is hierarchical DA: a noise model under the latent.Dirichlet
// assumption q_j ~ Dirichlet(α p), with the concentration α and the
// population distribution p estimated from the data by empirical Bayes
// unless they are set.
//
// Empirical Bayes alternates short fits of the model, each started where
// the previous one stopped, with updates of the prior:
//
//  1. fit the model (the pseudo-count MAP of latent.Dirichlet) with the
//     current α and p for at most 10 iterations of EM (Dawid-Skene) or 100
//     of a gradient method, from Settings.Start or Init for the first fit
//     of a run and from the previous fit's parameters after that, with
//     tolerances no tighter than 10⁻⁸ (FunctionTol) and 10⁻⁶
//     (GradientTol);
//  2. holding the fitted noise parameters, move α and p toward the
//     maximiser of the exact marginal likelihood of the labels with every
//     q_j integrated out,
//     Σ_j log ∫ Dir(q | α p) Π_{i ∈ j} Σ_z q(z) P(y_i | z) dq,
//     a type-II maximum-likelihood estimate, by EM over the count vectors
//     of subjective classes: each object's likelihood is expanded as a
//     polynomial in q_j (polySet), the posterior weights of its count
//     vectors give expected histograms of the counts, and the weighted
//     Dirichlet-multinomial estimate from them (dmHist) is the new prior;
//     one such step after a fit by EM, which updates the prior every 10
//     iterations, and up to 10 after a gradient fit. No step lowers the
//     marginal likelihood.
//
// A run stops when its prior has settled (α within 2% and every p_z
// within 0.005 of the prior 50 iterations earlier, or of the previous one
// after a fit that met its tolerances), after Rounds − 1 fits, or when its
// fits have used 200 iterations (or half of Settings.MaxIterations). The
// final fit, with the full settings, starts from the last fit's
// parameters under the last prior.
//
// There are two runs, from the Dirichlet-multinomial maximum-likelihood
// estimate (α₀, p₀) from the raw label counts (FitDirichletMultinomial)
// and from (α₀/10, p₀). They take turns, one fit and one update each, for
// 2 fits by EM or 1 gradient fit, or until their priors meet or settle;
// then the run of higher marginal likelihood (at its last update) goes on
// alone and the other is dropped. The alternation can settle at a poor
// fixed point: the raw counts treat every label as noise-free and
// overstate α, and a noise model fitted under a strong prior then supports
// that prior. On temp, GLAD from (α₀, p₀) = (3.94, (0.47, 0.53)) settles
// near α = 1.4, p = (0.36, 0.64), from the second start near α = 0.24,
// p = (0.56, 0.44), with a far higher marginal likelihood (log loss on the
// gold tasks 0.50 and 0.24). With α fixed there is one run.
// Estimating α from the fitted q_j themselves, which are already shrunk
// toward p, would drift to α = ∞; the marginal likelihood does not use the
// q_j.
//
// Every fit of the loop, the final one included, goes through the
// label-switching guard (Guard, described in docs/models.md): a fit
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
// the MAP output, as do, when the objects' count vectors number more than
// 2²⁵ in all, the objects with the most labels (see newPolySet); the
// result's Method says how many tasks have the posterior mean. With no
// object in the marginal likelihood there is one fit, under the raw-count
// prior.
type HDA struct {
	// Noise is the noise model.
	Noise noise.Model
	// Alpha, when positive, fixes the concentration α; zero estimates it.
	Alpha float64
	// P, when not nil, fixes the population distribution p; nil
	// estimates it.
	P []float64
	// Rounds bounds the number of fits of the empirical Bayes loop from
	// each start, the final fit included; zero means no bound but the
	// iteration budget (see HDA). With both Alpha and P fixed, or Rounds
	// 1, there is one fit, under the prior fixed or estimated from the
	// raw counts.
	Rounds int
	// MAP outputs the pseudo-count MAP q_j instead of the posterior mean.
	MAP bool
}

// Name returns "hda-" followed by the noise model's name.
func (h HDA) Name() string { return "hda-" + h.Noise.Name() }

// Fit fits the hierarchical model to d with empirical Bayes as described at
// HDA. The result's Method names the final α and p; its Iterations,
// Evaluations and Runtime add up every fit of the loop.
func (h HDA) Fit(ctx context.Context, d *data.Dataset, s *model.Settings) (*model.Result, error) {
	res, _, _, err := h.FitPrior(ctx, d, s)
	return res, err
}

// FitPrior is Fit that also returns the α and p of the returned fit.
func (h HDA) FitPrior(ctx context.Context, d *data.Dataset, s *model.Settings) (*model.Result, float64, []float64, error) {
	if err := model.CheckFit(ctx, d); err != nil {
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
	fixed := h.Alpha > 0 && h.P != nil
	alpha, p := h.Alpha, h.P
	if !fixed {
		alpha, p = FitDirichletMultinomial(d.Counts(), k, h.Alpha, h.P)
	}
	var set model.Settings
	if s != nil {
		set = *s
	}
	// The label-switching guard (see Guard) checks every fit of
	// the loop, unless the caller gave a start or fixed parameters.
	guard := s == nil || s.Start == nil && s.Fixed == nil
	var tally ebTally
	var polys *polySet
	if !h.MAP || !fixed && h.Rounds != 1 {
		polys = newPolySet(d)
	}
	// Without a single object in the marginal likelihood (with many
	// classes every object may have too many count vectors) the loop has
	// nothing to estimate the prior from: one fit under the raw-count
	// prior, as with Rounds 1.
	if !fixed && h.Rounds != 1 && polys.count() > 0 {
		eb := &ebLoop{h: h, d: d, set: set, guard: guard, polys: polys, tally: &tally}
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
	} else if n := polys.count(); n == 0 {
		form = "MAP (every task has too many count vectors for the posterior mean)"
	} else if n < d.NumTasks() {
		form = fmt.Sprintf("posterior mean (%d of %d tasks; the others MAP)", n, d.NumTasks())
	}
	res.Method = fmt.Sprintf("%s, empirical Bayes prior alpha %.4g p %s (%d fits), %s output", res.Method, used.Alpha, fitting.FmtVec(used.P), tally.fits, form)
	res.Runtime = time.Since(start)
	return res, used.Alpha, used.P, nil
}

// fit is one fit of the empirical Bayes loop: the noise model under
// latent.Dirichlet with the prior (alpha, p), from set.Start (nil: Init).
// With guard set, the fit goes through the label-switching guard
// (Guard): the relabelled start relabels an estimated p with the
// classes (a fixed HDA.P stays as it is), and a fit from the previous fit
// of the loop (set.Start not nil) also gets the majority-vote start. It
// returns the fit and the assumption it was made under.
func (h HDA) fit(ctx context.Context, d *data.Dataset, set model.Settings, alpha float64, p []float64, guard bool) (*model.Result, latent.Dirichlet, error) {
	m := model.Model{Noise: h.Noise, Latent: latent.Dirichlet{Alpha: alpha, P: p}}
	if !m.FitsByEM(d, &set) {
		// The last fit's optimiser state (L-BFGS's 15 pairs of vectors)
		// is garbage: collect it before this fit makes its own.
		runtime.GC()
	}
	r, err := m.FitOnce(ctx, d, &set)
	if err == nil && guard {
		g := model.Guard{Warm: set.Start != nil, Relabel: func(perm []int) latent.Assumption {
			if h.P != nil {
				return m.Latent
			}
			return latent.Dirichlet{Alpha: alpha, P: permuted(p, perm)}
		}}
		r, err = g.Check(ctx, m, d, &set, r)
	}
	if err != nil {
		return nil, latent.Dirichlet{}, err
	}
	fitted, _ := r.FittedModel()
	return r, fitted.Latent.(latent.Dirichlet), nil
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

// ReportsTaskParams reports whether h's noise model reports per-task
// parameters (noise.TaskReporter), as Model's does.
func (h HDA) ReportsTaskParams() bool { return h.inner().ReportsTaskParams() }
