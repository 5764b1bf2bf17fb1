package model

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/optimize"

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
		rounds = 4
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
	if !fixed && rounds > 1 {
		// Empirical Bayes from every start; the prior of the highest
		// marginal likelihood wins and gets the final, full fit.
		var best ebChain
		for i, a := range []float64{alpha, alpha / 10} {
			if i > 0 && h.Alpha > 0 {
				break // α is fixed: the starts coincide
			}
			c, err := h.chain(ctx, d, set, a, p, rounds-1, guard, &tally)
			if err != nil {
				return nil, 0, nil, err
			}
			if i == 0 || c.marginal > best.marginal {
				best = c
			}
		}
		alpha, p, set.Start = best.alpha, best.p, best.params
	}
	res, used, err := h.fit(ctx, d, set, alpha, p, guard)
	if err != nil {
		return nil, 0, nil, err
	}
	tally.add(res)
	if !h.MAP && used.Alpha > 0 {
		polys := buildPolys(res)
		pp := used.P
		if pp == nil {
			pp = make([]float64, k)
			for z := range pp {
				pp[z] = 1 / float64(k)
			}
		}
		marginal(polys, k, used.Alpha, pp, res.Probs)
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

// ebTally adds up the iterations, evaluations and fits of the empirical
// Bayes loop.
type ebTally struct{ iters, evals, fits int }

func (t *ebTally) add(r *Result) {
	t.iters += r.Iterations
	t.evals += r.Evaluations
	t.fits++
}

// ebChain is where one run of the empirical Bayes loop ended: the prior,
// the fitted parameters it was estimated from, and the log marginal
// likelihood of the labels at both.
type ebChain struct {
	alpha    float64
	p        []float64
	params   []float64
	marginal float64
}

// chain runs the empirical Bayes loop described at HDA from the prior
// (alpha, p): at most n fits of at most 200 iterations, each followed by
// the maximisation of the marginal likelihood over the free parts of α and
// p, until they settle.
func (h HDA) chain(ctx context.Context, d *data.Dataset, set Settings, alpha float64, p []float64, n int, guard bool, tally *ebTally) (ebChain, error) {
	k := d.NumClasses()
	// An intermediate fit only feeds the next estimate of α and p: 200
	// iterations are plenty.
	if set.MaxIterations <= 0 || set.MaxIterations > 200 {
		set.MaxIterations = 200
	}
	var c ebChain
	for range n {
		r, used, err := h.fit(ctx, d, set, alpha, p, guard)
		if err != nil {
			return c, err
		}
		tally.add(r)
		// The guard may have relabelled p with the classes.
		p = used.P
		polys := buildPolys(r)
		na, np, ml := marginalEB(polys, k, alpha, p, h.Alpha, h.P)
		c = ebChain{na, np, r.Params, ml}
		settled := math.Abs(math.Log(na/alpha)) < 0.02 && floats.Distance(np, p, math.Inf(1)) < 0.005
		alpha, p, set.Start = na, np, r.Params
		if settled {
			break
		}
	}
	return c, nil
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

// FitDirichletMultinomial returns the maximum-likelihood concentration α
// and mean p of the Dirichlet-multinomial distribution of the rows of
// counts (J×K, nonnegative, not necessarily integers): the maximiser of
//
//	Σ_j [log Γ(α) - log Γ(α + n_j) + Σ_z log Γ(α p_z + m_j(z)) - log Γ(α p_z)],
//
// n_j = Σ_z m_j(z), over rows with n_j > 0. A positive alpha or a non-nil p
// is held fixed. α is kept within [1e-3, 1e4] (1e4 when the counts show no
// overdispersion, where the likelihood grows up to α = ∞) and every p_z is
// at least 1e-6.
func FitDirichletMultinomial(counts []float64, k int, alpha float64, p []float64) (float64, []float64) {
	const minA, maxA, minP = 1e-3, 1e4, 1e-6
	if alpha > 0 && p != nil {
		return alpha, p
	}
	// Start at α = K and p at the smoothed pooled frequencies.
	tot := make([]float64, k)
	var all float64
	for i, v := range counts {
		tot[i%k] += v
		all += v
	}
	x := make([]float64, k+1) // log α, logits of p
	x[0] = math.Log(float64(k))
	if alpha > 0 {
		x[0] = math.Log(alpha)
	}
	for z := range k {
		pz := (tot[z] + 1) / (all + float64(k))
		if p != nil {
			pz = p[z]
		}
		x[1+z] = math.Log(max(pz, minP))
	}
	rows := len(counts) / k
	ap := make([]float64, k)
	pp := make([]float64, k)
	grad := make([]float64, k)
	unpack := func(x []float64) float64 {
		a := math.Exp(min(max(x[0], math.Log(minA)), math.Log(maxA)))
		num.SoftmaxFrom(pp, x[1:], num.LogSumExp(x[1:]))
		for z := range ap {
			pp[z] = max(pp[z], minP)
			ap[z] = a * pp[z]
		}
		return a
	}
	f := func(x, g []float64) float64 {
		a := unpack(x)
		var v float64
		clear(grad)
		lgA, _ := math.Lgamma(a)
		psiA := mathext.Digamma(a)
		lgz := make([]float64, k)
		psiz := make([]float64, k)
		for z := range ap {
			lgz[z], _ = math.Lgamma(ap[z])
			psiz[z] = mathext.Digamma(ap[z])
		}
		for j := range rows {
			row := counts[j*k : (j+1)*k]
			var n float64
			for _, c := range row {
				n += c
			}
			if n <= 0 {
				continue
			}
			lg, _ := math.Lgamma(a + n)
			v += lgA - lg
			dA := psiA - mathext.Digamma(a+n)
			for z, c := range row {
				grad[z] += dA
				if c > 0 {
					lc, _ := math.Lgamma(ap[z] + c)
					v += lc - lgz[z]
					grad[z] += mathext.Digamma(ap[z]+c) - psiz[z]
				}
			}
		}
		if g != nil {
			// Chain rule to log α and the logits of p.
			var ga, mean float64
			for z := range ap {
				ga += ap[z] * grad[z]
				mean += pp[z] * grad[z]
			}
			g[0] = -ga
			if alpha > 0 {
				g[0] = 0
			}
			for z := range ap {
				g[1+z] = -a * pp[z] * (grad[z] - mean)
				if p != nil {
					g[1+z] = 0
				}
			}
		}
		return -v
	}
	prob := optimize.Problem{
		Func: func(x []float64) float64 { return f(x, nil) },
		Grad: func(g, x []float64) { f(x, g) },
	}
	res, _ := optimize.Minimize(prob, x, &optimize.Settings{GradientThreshold: 1e-6 * float64(max(rows, 1)), MajorIterations: 200}, &optimize.LBFGS{})
	if res != nil {
		copy(x, res.X)
	}
	a := unpack(x)
	if alpha > 0 {
		a = alpha
	}
	out := append([]float64(nil), pp...)
	if p != nil {
		out = append([]float64(nil), p...)
	} else {
		var s float64
		for _, v := range out {
			s += v
		}
		for z := range out {
			out[z] /= s
		}
	}
	return a, out
}
