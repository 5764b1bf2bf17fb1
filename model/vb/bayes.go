package vb

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/shared"
	"github.com/consensuslab/consensus/internal/unvoted"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/ebcc"
	"github.com/consensuslab/consensus/model/gibbs"
	"github.com/consensuslab/consensus/model/internal/temper"
	"github.com/consensuslab/consensus/noise"
)

// Bayes is a consensus model with a prior on every parameter: a noise
// model under a latent assumption, fitted by mean-field variational Bayes
// (the noise model must be conjugate, noise.Conjugate: Dawid-Skene), so that
// the output averages over the uncertainty of the parameters instead of
// plugging in maximum-likelihood values. A noise model without a conjugate
// prior that implements noise.MAPVariational (GLAD) takes part with point
// estimates of its parameters, the mode of their posterior (variational
// EM): vb-la-glad, vb-da-glad and vb-hda-glad. Its optimum lies inside the
// parameter space: fits converge, and no output is exactly 0 or 1.
//
//	Bayes{Noise: noise.DS{}, Latent: latent.LA{}}                     // vb-la-ds: IBCC
//	Bayes{Noise: noise.DS{}, Latent: latent.DA{}}                     // vb-da-ds
//	Bayes{Noise: noise.DS{SharedPrior: true, Averaged: true}, Latent: latent.LA{}, Both: true} // vb-ds: the default model
//	Bayes{Noise: noise.DS{}, Latent: latent.DA{}, Hierarchical: true} // vb-hda-ds
//
// The priors: every confusion row π_w(z, ·) ~ Dirichlet with
// noise.DefaultPriorDiag on the diagonal and noise.DefaultPriorOff elsewhere;
// under LA the class prior p ~ Dirichlet(1, …, 1), held uniform instead
// where no task has labels of two workers, and at unvoted.HeldShares where
// a fit with it all but drops or (K = 2) drifts from a class the labels
// give and agree on (unvoted.Dropped, Drifted) and keepHeld keeps the refit;
// under DA every q_j ~ Dirichlet(a).
//
// The three forms:
//   - LA (IBCC, Kim and Ghahramani 2012): the output is the posterior
//     ρ_j of the true class.
//   - DA: workers and q_j are fitted together, a mixed-membership model
//     (latent Dirichlet allocation with objects as documents and labels as
//     tokens), every q_j ~ Dirichlet(a, …, a), a = Prior (zero:
//     JeffreysPrior, 1/2). The output is E[q_j]; with every worker perfect,
//     (n_jz + a) / (n_j + K a). With Staged the workers are the LA fit's
//     and only the q_j are fitted given them: faster, but such workers take
//     the objects' ambiguity for their noise and the q_j are over-corrected
//     towards the vertices (MSE 1.6 times the statistical limit on the
//     paper's synthetic design, 1.07 joint; docs/choosing-a-model.md).
//   - Hierarchical DA: as DA, with a = α p by empirical Bayes; where that
//     drives a to its bound (every q_j held at p, the workers carrying the
//     tasks: K = 10, two labels a task, accuracy 0.23 against majority
//     vote's 0.77) or all but drops a class the labels give and agree on
//     (unvoted.Dropped), the fit is redone with a = JeffreysPrior, unless
//     it started from given parameters (Settings.Start).
//
// docs/models.md has the updates, docs/choosing-a-model.md the evidence.
type Bayes struct {
	// Noise is the noise model; it must implement noise.Conjugate or
	// noise.MAPVariational.
	Noise noise.Model
	// Latent is latent.LA or latent.DA (their settings are not used).
	Latent latent.Assumption
	// Both, under LA, gives both answers of the default model (vb-X, such
	// as vb-ds): the posterior of the true class of the LA fit, calibrated
	// without gold (temper.Truth), in Result.Probs, and every object's
	// label distribution q_j ~ Dirichlet(1/2, …, 1/2) given the fitted
	// workers, its posterior mean, in Result.Distribution.
	Both bool
	// Hierarchical, under DA, fits the workers under DA together with
	// the q_j and estimates their Dirichlet prior by empirical Bayes.
	Hierarchical bool
	// Prior is the pseudo-count a of every class in the prior
	// Dirichlet(a, …, a) of each q_j under DA without Hierarchical; zero
	// means JeffreysPrior.
	Prior float64
	// Staged, under DA without Hierarchical, takes the workers from the LA
	// fit and fits only the q_j given them (see Bayes).
	Staged bool
	// Gold, if not nil, holds the known class of every object of the data
	// set to fit (-1 for none, as latent.GoldClasses returns): those
	// objects are clamped to it during the fit, as latent.WithGold does
	// for maximum likelihood (LA: ρ_j = e_g; DA: q_j = e_g, every label's
	// subjective class g), so that their labels teach the workers, and
	// their output is e_g. The fit is then made from two starts, the
	// label frequencies' (the paper's) and one from the gold objects
	// alone, and the one of higher bound is kept: from the majority vote a
	// majority of adversarial workers is followed, from the gold it is
	// found. Gold must have one entry per object.
	Gold []int
	// Challenge, under LA with Both, puts EBCC's subtypes against the
	// true class's posterior where workers agree beyond independence, and
	// takes EBCC's where it wins (ebcc.Challenge), and gibbs-kinds's
	// where the answer all but drops a class the labels agree on and the
	// sampler keeps it (gibbs.Challenge); not with Gold or a
	// Settings.Start. vb-ds, the default model, sets it.
	Challenge bool

	// held, if not empty, says why the LA fits hold the class prior at
	// unvoted.HeldShares (newLA): set where a learned one all but dropped
	// a class or drifted; dropped is then the first fit's answer, at K > 2.
	held    string
	dropped []float64
}

// WithGold returns b with the known classes class (GoldTrainer).
func (b Bayes) WithGold(class []int) model.Estimator {
	b.Gold = class
	return b
}

// JeffreysPrior is the default pseudo-count of every class in q_j's
// Dirichlet prior under DA: Jeffreys' prior for a multinomial proportion,
// Dirichlet(1/2, …, 1/2), the invariant non-informative choice. Dirichlet(1,
// …, 1), uniform on the simplex, pulls every q_j towards the centre by one
// label per class.
const JeffreysPrior = 0.5

// Name returns "vb-", the assumption's name ("la", "da", or "hda" when
// Hierarchical), a hyphen and the noise model's name, such as "vb-da-ds",
// followed under DA by " (staged)" when Staged is set and by " (prior a)"
// when Prior is set to a value other than JeffreysPrior, so that a
// hand-built form is not mistaken for the registry's.
func (b Bayes) Name() string {
	if b.Noise == nil || b.Latent == nil {
		return model.IncompleteName
	}
	a := b.Latent.Name()
	if b.Hierarchical {
		a = "hda"
	}
	name := "vb-" + a + "-" + b.Noise.Name()
	if b.Both && a == "la" {
		name = "vb-" + b.Noise.Name()
	}
	if a == "da" && b.Staged {
		name += " (staged)"
	}
	if a == "da" && b.Prior != 0 && b.Prior != JeffreysPrior {
		name += fmt.Sprintf(" (prior %g)", b.Prior)
	}
	return name
}

// NumParams returns the number of variational parameters on d: the noise
// model's pseudo-counts and, per object, K (LA's ρ_j or DA's γ_j), plus K
// shared ones.
func (b Bayes) NumParams(d *data.Dataset) int {
	k := d.NumClasses()
	return d.NumWorkers()*b.Noise.WorkerDim(k) + d.NumTasks()*k + k
}

// The stopping rule of variational fits when Settings leaves it zero: the
// bound's relative change at most VBFunctionTol and no output probability
// moving by more than VBParamTol in one iteration. The bound creeps along
// flat directions while some outputs still move, and the second half holds
// such fits back: on the shipped data sets and 10⁶ simulated labels the
// rule ends within 2.2·10⁻⁴ of the outputs of a fit with FunctionTol 10⁻¹⁴
// and ParamTol 10⁻¹⁰, which takes 2 to 10 times the passes
// (BenchmarkVBStop).
const (
	VBFunctionTol = 1e-9
	VBParamTol    = 1e-5
)

// Fit fits the model to d. Settings.MaxIterations bounds the variational
// iterations of each stage, FunctionTol and ParamTol set the stopping rule
// (zero: VBFunctionTol and VBParamTol) and Threads apply; Method and Ridge
// do not. Start, if not nil, is the noise posterior's start (laid out as
// Init returns it; with Staged, the LA stage's), and Fixed marks the
// pseudo-counts it holds there (the noise model must be a
// noise.WorkerPosteriorSetter; see WorkerStarter); a fit from Start makes
// one start, with Gold too. A cancelled ctx stops the fit between passes.
func (b Bayes) Fit(ctx context.Context, d *data.Dataset, s *model.Settings) (*model.Result, error) {
	if err := model.CheckFit(ctx, d); err != nil {
		return nil, err
	}
	if err := model.CheckParts(b.Noise, b.Latent, true); err != nil {
		return nil, err
	}
	var own model.Settings
	if s != nil {
		own = *s
	}
	if own.FunctionTol == 0 {
		own.FunctionTol = VBFunctionTol
	}
	if own.ParamTol == 0 {
		own.ParamTol = VBParamTol
	}
	set := own.WithDefaults()
	if err := noise.CheckClasses(b.Noise, d.NumClasses()); err != nil {
		return nil, fmt.Errorf("model %s: %w", b.Name(), err)
	}
	if err := model.CheckGold(b.Gold, d); err != nil {
		return nil, fmt.Errorf("model %s: %w", b.Name(), err)
	}
	// Runtime covers every stage of the fit: the LA fit and, for the
	// default form, its priors, calibration, EBCC challenge and label
	// distributions.
	begin := time.Now()
	r, rb, err := b.fitFrom(ctx, d, set, nil)
	if err != nil || set.Start != nil || slices.IndexFunc(b.Gold, func(g int) bool { return g >= 0 }) < 0 {
		if r != nil {
			r.Runtime = time.Since(begin)
		}
		return r, err
	}
	// With gold, a second start from the gold tasks alone, unless the
	// caller gave the start; the fit of higher bound is kept (see
	// Bayes.Gold).
	g, gb, err := b.fitFrom(ctx, d, set, model.GoldWeights(b.Gold))
	if err != nil {
		return nil, err
	}
	r = model.KeepBetter(r, g, rb, gb)
	r.Runtime = time.Since(begin)
	return r, nil
}

// fitFrom is Fit with the noise posterior started from the label weights
// weight (nil: the label frequencies, the paper's start; see
// noise.Variational.Start). It also returns the bound that tells two
// starts apart: the fit's, or for the staged form the LA stage's (the fit
// of the workers; the final stage's bound leaves the workers out).
func (b Bayes) fitFrom(ctx context.Context, d *data.Dataset, set model.Settings, weight data.TaskWeights) (*model.Result, float64, error) {
	var note string
	if sp, ok := b.Noise.(noise.SharedPriorer); ok && !d.Crossed() {
		// No two workers label one task: nothing tells a worker's accuracy
		// from the prior, and a prior learned from the workers runs to
		// certainty, every label its task's truth (p = 0.9995 at K = 2,
		// ECE 0.27 on one-coin workers of accuracy 0.7). The fixed prior's
		// posterior is given instead (TestDefaultSingleLabels).
		if fixed := sp.WithFixedPrior(); fixed != b.Noise {
			b.Noise = fixed
			note = ", the workers' prior fixed"
		}
	} else if pp, ok := b.Noise.(noise.PatternPriorer); ok && !d.Tripled() && d.NumClasses() == 2 {
		// Most labels are on tasks of one or two workers, which do not
		// identify the crowd's pattern of confusion (noise.PatternPriorer):
		// a learned one ran to a class prior and an asymmetric confusion
		// that fit the label pairs (K = 2, two labels a task by 2,000
		// workers: every task p = 0.99 sure, ECE 0.34; the fixed
		// pattern's ECE 0.025). TestDefaultPairs. For K > 2 see
		// pairsFallback.
		if fixed := pp.WithFixedPattern(); fixed != b.Noise {
			b.Noise = fixed
			note = pairsNote
		}
	}
	r, ll, err := b.fitWith(ctx, d, set, weight)
	if r != nil {
		r.Method += note
	}
	return r, ll, err
}

// pairsNote is the method's note where the confusion rows' prior is fixed
// on tasks of one or two workers.
const pairsNote = ", the confusion rows' prior fixed (most labels are on tasks of one or two workers)"

// pairsFallback returns the noise model with the pattern of confusion
// fixed (noise.PatternPriorer), pairsNote, and true where most labels of d are on
// tasks of one or two workers, K > 2, and the LA fit's posterior nv
// learned no pattern (noise.PatternReporter: every row's errors equal);
// the fit is then redone with the fixed pattern, whose workers' errors
// can take the precision of drawn counts (sampledPrecisions). A learned
// pattern is kept: the fixed one holds errors around uniform ones, and
// agreeing labels are then too sure where errors fall on neighbouring
// classes (K = 10, two labels a task, seeds 1-3: ECE 0.10-0.13 fixed,
// 0.009-0.026 learned; TestDefaultPairsPattern; on 16 such crowds the same
// accuracy, ECE 0.026 against 0.068; CROWDS=pairs of light-crowds.sh).
func (b Bayes) pairsFallback(d *data.Dataset, nv noise.Variational) (noise.Model, string, bool) {
	pr, ok := nv.(noise.PatternReporter)
	if !ok || d.NumClasses() < 3 || d.Tripled() || pr.PatternFound() {
		return nil, "", false
	}
	fixed, ok := b.fixedPattern()
	return fixed, pairsNote, ok
}

// fixedPattern returns b's noise model with the pattern of confusion fixed
// (noise.PatternPriorer) and true, or false where b's model has no such
// form or is that form already.
func (b Bayes) fixedPattern() (noise.Model, bool) {
	pp, ok := b.Noise.(noise.PatternPriorer)
	if !ok {
		return nil, false
	}
	fixed := pp.WithFixedPattern()
	return fixed, fixed != b.Noise
}

// unvotedFallback returns the noise model with the pattern of confusion
// fixed (noise.PatternPriorer), a note for the method, and true where the
// LA fit's posteriors probs on d make a class the label of many tasks on
// which no worker gave it (unvoted.Classes): the learned pattern let the
// class stand for a group of tasks the workers label otherwise, each
// busy worker's row of it spread over the other labels. The fit is then
// redone with the fixed pattern, which holds the crowd's errors around
// uniform ones. On a simulated crowd whose third class is seldom given
// and whose subtype of class 1 three workers of every task call class 0
// (compare's TestUnvotedClasses, TestDefaultUnvotedClass) the accuracy goes
// from 0.431 to 0.783 (majority vote 0.780, vb-la-ds 0.783); on a public
// set of 3 classes (fact evaluation, not shipped) from 0.847 to 0.879.
func (b Bayes) unvotedFallback(d *data.Dataset, probs []float64) (noise.Model, string, bool) {
	fixed, ok := b.fixedPattern()
	if !ok || d.NumClasses() < 3 {
		return nil, "", false
	}
	cs := unvoted.Classes(d, probs)
	if len(cs) == 0 {
		return nil, "", false
	}
	c := cs[0]
	return fixed, fmt.Sprintf(", the confusion rows' prior fixed (the learned one made class %s the label of %.1f%% of the tasks, %.0f%% of them without a label %s)",
		d.Classes[c.Class], 100*c.Share, 100*c.Unvoted, d.Classes[c.Class]), true
}

// fitLA fits the LA side of b with the noise posterior nv and, where the
// fit all but drops a class or drifts (unvoted.Dropped, Drifted) on
// crossed data, refits with the class prior held at unvoted.HeldShares
// from a fresh posterior; it returns the form, posterior and fit that
// keepHeld keeps (b's held and dropped set when the refit is).
func (b Bayes) fitLA(ctx context.Context, d *data.Dataset, set model.Settings, nv noise.Variational, weight data.TaskWeights) (Bayes, noise.Variational, *model.Result, error) {
	r, err := vbFit(ctx, b.Name(), d, set, nv, b.newLA(d), vbFresh, weight)
	if err != nil || b.held != "" || !d.Crossed() {
		return b, nv, r, err
	}
	dropped := unvoted.Dropped(d, r.Probs)
	if !dropped && !unvoted.Drifted(d, r.Probs) {
		return b, nv, r, nil
	}
	held := b
	if held.held = droppedNote; !dropped {
		held.held = driftedNote
	}
	hnv, err := held.posterior(d)
	if err != nil {
		return b, nil, nil, err
	}
	hr, err := vbFit(ctx, b.Name(), d, set, hnv, held.newLA(d), vbFresh, weight)
	if err != nil {
		return b, nil, nil, err
	}
	if !keepHeld(d, r, hr, !dropped) {
		return b, nv, r, nil
	}
	if dropped && d.NumClasses() > 2 {
		held.dropped = r.Probs
	}
	return held, hnv, hr, nil
}

// keepHeld reports whether the refit held replaces first (unvoted.Dropped
// and unvoted.Drifted give the evidence): where its labels are a most
// frequent vote (ebcc.Modal) on as many tasks, after a prior that only
// drifted on ebcc.ChallengeVotes more, its bound on the evidence at most
// driftNats below first's (a Bayes factor of e² against it).
func keepHeld(d *data.Dataset, first, held *model.Result, drifted bool) bool {
	const driftNats = 2
	gain := ebcc.Modal(d, held.Probs) - ebcc.Modal(d, first.Probs)
	if drifted {
		return gain >= ebcc.ChallengeVotes && held.LogLikelihood >= first.LogLikelihood-driftNats
	}
	return gain >= 0
}

// fitWith is fitFrom with b's noise model as it is.
func (b Bayes) fitWith(ctx context.Context, d *data.Dataset, set model.Settings, weight data.TaskWeights) (*model.Result, float64, error) {
	nv, err := b.posterior(d)
	if err != nil {
		return nil, 0, err
	}
	switch b.Latent.Name() {
	case "la":
		if b.Both {
			return b.fitTruth(ctx, d, set, nv, weight)
		}
		_, _, r, err := b.fitLA(ctx, d, set, nv, weight)
		return bounded(r, err)
	case "da":
		a := symmetric(d.NumClasses(), cmp.Or(b.Prior, JeffreysPrior))
		if b.Hierarchical {
			h := newVBDA(d, true, nil, b.Gold) // at its bound or dropping a class: see Bayes (not from given workers)
			first, err := vbFit(ctx, b.Name(), d, set, nv, h, vbFresh, weight)
			if err != nil || !d.Crossed() || set.Start != nil || (slices.Max(h.a) < vbMaxA && !unvoted.Dropped(d, first.Probs)) {
				return bounded(first, err)
			}
			r, err := vbFit(ctx, b.Name(), d, set, nv, newVBDA(d, false, symmetric(d.NumClasses(), JeffreysPrior), b.Gold), vbFresh, weight)
			if err == nil {
				r.Method += "; " + hdaDroppedNote
				r.Iterations, r.Evaluations, r.Runtime = r.Iterations+first.Iterations, r.Evaluations+first.Evaluations, r.Runtime+first.Runtime
			}
			return bounded(r, err)
		}
		if !b.Staged {
			return bounded(vbFit(ctx, b.Name(), d, set, nv, newVBDA(d, false, a, b.Gold), vbFresh, weight))
		}
		// The LA stage only supplies the workers, to 1000 times the final
		// tolerances (against 100: output within 0.0006 on the shipped
		// sets; K = 10, q_j ~ Dirichlet(1): 83 passes instead of 887).
		ws := set
		ws.FunctionTol *= 1000
		ws.ParamTol *= 1000
		la, err := vbFit(ctx, b.Name(), d, ws, nv, b.newLA(d), vbFresh, weight)
		if err != nil {
			return nil, 0, err
		}
		r, err := vbFit(ctx, b.Name(), d, set, nv, newVBDA(d, false, a, b.Gold), vbFrozen, nil)
		if err != nil {
			return nil, 0, err
		}
		r.Iterations += la.Iterations
		r.Evaluations += la.Evaluations
		r.Converged = r.Converged && la.Converged
		if !la.Converged {
			r.Status = "IterationLimit (workers)"
		}
		r.Method = "vb, workers from the LA fit, " + r.Method[len("vb, "):]
		r.Runtime += la.Runtime
		return r, la.LogLikelihood, nil
	}
	return nil, 0, fmt.Errorf("model %s: variational fits support the la and da assumptions, not %s", b.Name(), b.Latent.Name())
}

// bounded returns r, its bound and err.
func bounded(r *model.Result, err error) (*model.Result, float64, error) {
	if err != nil {
		return nil, 0, err
	}
	return r, r.LogLikelihood, nil
}

// WithQPrior returns b with the prior pseudo-count of q_j set to a (zero:
// JeffreysPrior) and the staged form when staged, and true, when b is a DA
// form without Hierarchical, the form these settings apply to; otherwise
// it returns b unchanged and false.
func (b Bayes) WithQPrior(a float64, staged bool) (model.Estimator, bool) {
	if b.Latent == nil || b.Latent.Name() != "da" || b.Hierarchical {
		return b, false
	}
	b.Prior, b.Staged = a, staged
	return b, true
}

// AmbiguousTemper is the temperature below which the default form (Both)
// takes the labels for those of ambiguous tasks: the held-out labels then
// ask for a true-class posterior much less sure than independent workers
// under one true class explain, and the label distributions come from a
// joint DA fit instead of the LA fit's workers (see fitTruth). On LA
// simulations the temperature is 0.98 to 1; on the paper's synthetic DA
// design 0.32, and 0.5 to 0.6 on DA-GLAD data with 10 labels a task
// (docs/choosing-a-model.md).
const AmbiguousTemper = 0.7

// fitTruth fits the form that gives both answers (Both): the LA fit, its
// true-class posterior calibrated by temper.Truth, and every task's label
// distribution. The fit is redone with a fixed prior where the learned one
// misleads it (pairsFallback, unvotedFallback, cavityPriors), and with the
// class prior held where the first fit all but drops a class (fitLA).
// Where the labels ask for it the true class's posterior is instead that
// of the ambiguity model (ambiguousTruth, then tempered) or of the trap
// model of workers who share mistakes (shared.Truth, with TruthFloor mixed
// in), whichever beats LA by more net of its price; and with Challenge,
// EBCC's where it wins ebcc.Challenge and gibbs-kinds's where it wins
// gibbs.Challenge (the workers of the label distributions then start from
// it). Where the labels are ambiguous (temperature below AmbiguousTemper)
// the distributions are those of the joint DA fit (vb-da-ds's, with this
// form's noise model) started from the LA fit's workers, which take the
// tasks' ambiguity for their own noise; otherwise q_j ~ Dirichlet(1/2, …,
// 1/2) given the LA fit's workers, one pass.
func (b Bayes) fitTruth(ctx context.Context, d *data.Dataset, set model.Settings, nv noise.Variational, weight data.TaskWeights) (*model.Result, float64, error) {
	b, nv, r, err := b.fitLA(ctx, d, set, nv, weight)
	if err != nil {
		return nil, 0, err
	}
	fixed, note, ok := b.pairsFallback(d, nv)
	if !ok {
		fixed, note, ok = b.unvotedFallback(d, r.Probs)
	}
	if ok {
		b.Noise = fixed
		if nv, err = b.posterior(d); err != nil {
			return nil, 0, err
		}
		r, ll, err := b.fitTruth(ctx, d, set, nv, weight)
		if r != nil {
			r.Method += note
		}
		return r, ll, err
	}
	r, nv, cebNote, rejected, err := b.cavityPriors(ctx, d, set, nv, r, weight)
	if err != nil {
		return nil, 0, err
	}
	if sp, ok := b.Noise.(noise.SharedPriorer); ok && rejected {
		// The learned priors all but dropped a class, under cavity
		// empirical Bayes and under mean field alike: the fit is redone
		// with the workers' prior fixed.
		if fixed := sp.WithFixedPrior(); fixed != b.Noise {
			b.Noise = fixed
			if nv, err = b.posterior(d); err != nil {
				return nil, 0, err
			}
			r, ll, err := b.fitTruth(ctx, d, set, nv, weight)
			if r != nil {
				r.Method += cebNote + ", the workers' prior fixed"
			}
			return r, ll, err
		}
	}
	r, nv, precNote, err := b.sampledPrecisions(ctx, d, set, nv, r, weight)
	if err != nil {
		return nil, 0, err
	}
	_, workerOnly := nv.(noise.WorkerOnly)
	// With the cavity priors the temperature reads each label's worker without it (heldOut).
	var held func(w int32, j, z int, p []float64)
	if cp, ok := nv.(noise.CavityProber); ok {
		if cebNote != "" {
			held = heldOut(d, r.Probs, cp)
		}
		r.Probs = cavityTruth(d, r.Probs, cp, b.Gold)
	}
	// The true class's posterior under ambiguity or shared mistakes, the
	// stronger evidence, if any, else LA's; the one-coin check runs once.
	cond, probs := nv.Conditional, r.Probs
	ambNet, amb := b.ambiguousTruth(d, r.Probs, cond, workerOnly)
	oneCoin := sync.OnceValue(func() []shared.Pair { return shared.OneCoinPairs(d) })
	trapNet, trap, flagged := shared.Truth(d, r.Probs, cond, workerOnly, b.Gold, TruthFloor, oneCoin)
	var truth string
	tau := 1.0
	switch {
	case trapNet > 0 && trapNet > ambNet:
		truth = trap(r.Probs)
	case ambNet > 0:
		truth, probs = amb()
		tau = temper.Truth(d, probs, b.Gold, cond, workerOnly, TruthFloor)
	case held != nil:
		tau = temper.Truth(d, probs, b.Gold, held, false, TruthFloor)
		truth = fmt.Sprintf("true class tempered by %.3g", tau)
	default:
		tau = temper.Truth(d, probs, b.Gold, cond, workerOnly, TruthFloor)
		truth = fmt.Sprintf("true class tempered by %.3g", tau)
	}
	if b.Challenge && b.Gold == nil && set.Start == nil && (flagged || len(oneCoin()) > 0) {
		// Workers who agree beyond independence, under this fit or one
		// of one accuracy a worker: do EBCC's subtypes explain them
		// better? Its splits' fits are not challenged again.
		own := b
		own.Challenge = false
		quiet := set // the splits' fits report no progress of their own
		quiet.Progress = nil
		p, note, err := ebcc.Challenge(ctx, d, set.Threads, func(ctx context.Context, tr *data.Dataset) (*model.Result, error) { return own.Fit(ctx, tr, &quiet) }, r.Probs, TruthFloor)
		if err != nil {
			return nil, 0, err
		} else if p != nil {
			r.Probs, truth = p, note
		}
	}
	if b.Challenge && b.Gold == nil && set.Start == nil {
		// A class the labels agree on, all but dropped: the sampler's
		// answer where it keeps it, and workers that read it as it does;
		// against the first fit where the class prior was then held.
		challenged := r.Probs
		if b.dropped != nil {
			challenged = b.dropped
		}
		p, note, err := gibbs.Challenge(ctx, d, set.Threads, challenged, TruthFloor)
		if err == nil && p != nil {
			nv, err = b.posterior(d)
		}
		if err != nil {
			return nil, 0, err
		} else if p != nil {
			nv.Start(data.DenseWeights{K: d.NumClasses(), W: p})
			r.Probs, truth = p, note
		}
	}
	a := symmetric(d.NumClasses(), JeffreysPrior)
	var q *model.Result
	how := "given the workers"
	if tau < AmbiguousTemper {
		var err error
		if q, how, err = b.jointDA(ctx, d, set, nv.Params(nil), a, weight, jointLearnPasses); err != nil {
			return nil, 0, err
		}
		if !q.Converged {
			// The distributions are part of the answer: a fit whose q_j
			// stopped at the iteration limit has not converged.
			r.Status, r.Converged = q.Status, false
		}
	} else {
		// With the workers frozen every object's update runs to its own
		// fixed point within a pass (vbDA), so that one pass gives the q_j.
		// Only the q_j are read, not the bound (distOnly).
		one := set
		one.MaxIterations = 1
		side := newVBDA(d, false, a, b.Gold)
		side.distOnly = true
		q, err = vbFit(ctx, b.Name(), d, one, nv, side, vbFrozen, nil)
		if err != nil {
			return nil, 0, err
		}
	}
	r.Distribution = q.Probs
	r.Method += fmt.Sprintf("%s%s, %s; label distributions %s", cebNote, precNote, truth, how)
	return r, r.LogLikelihood, nil
}

// symmetric returns the pseudo-counts of Dirichlet(a, …, a) on K classes.
func symmetric(k int, a float64) []float64 {
	v := make([]float64, k)
	for z := range v {
		v[z] = a
	}
	return v
}

// Variational reports true: b is fitted by variational Bayes.
func (Bayes) Variational() bool { return true }

// BothAnswers reports whether b's fits hold the label distribution q_j
// beside the posterior of the true class: Both under LA.
func (b Bayes) BothAnswers() bool { return b.Both && !b.Hierarchical && b.Latent.Name() == "la" }
