package gibbs

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/fitting"
)

// Kinds is Bayesian Dawid-Skene over five kinds of worker, fitted by
// collapsed Gibbs sampling (gibbs-kinds). Every task j has a true class
// z_j, with the class prior τ ~ Dirichlet(1, …, 1); every worker w is of
// a kind κ_w, with the kinds' shares ρ ~ Dirichlet(1, …, 1):
//
//   - full: confusion rows π_w(z, ·) ~ Dirichlet(β_z);
//   - one-coin: P(y | z) = a_w for y = z and (1 − a_w) μ_z(y) otherwise,
//     a_w ~ Beta(a, b), μ_z the crowd's pattern of errors;
//   - per-class: the same with an accuracy a_wz ~ Beta(a_c, b_c) for
//     every class;
//   - spammer: labels drawn from φ_w ~ Dirichlet(1, …, 1) whatever the
//     class;
//   - adversary: rows ~ Dirichlet(γ_z), γ_z(z) = 0.5 and 2 shared by the
//     other classes, worse than chance.
//
// β, (a, b) and (a_c, b_c) are learned from the crowd during the burn-in:
// every ebEvery sweeps each is set to the maximiser of the marginal
// likelihood of the current counts of the workers of its kind (Minka's
// fixed point), empirical Bayes within the sampler; μ_z(y) to the
// one-coin and per-class workers' errors, with one pseudo-count a cell
// (uniform errors gave 2.4 points less on adult, whose classes are
// ordered and whose errors fall on neighbours). τ, ρ and every
// worker's parameters are integrated out: a sweep draws every task's
// class given the others' and the workers' kinds, with each worker's
// posterior predictive from its counts on the other tasks, and then every
// worker's kind given its counts. The output is the mean over the kept
// sweeps and the chains of every task's conditional class probabilities
// (Rao-Blackwellised), a posterior of the true class; the result's noise
// view gives every worker's posterior mean confusion and probabilities of
// the kinds (the workers file).
//
// A mean-field fit (vb-ds, the default) counts every label twice, in its
// task's posterior and in its worker's counts; a light worker's labels
// then look like the crowd's, and spammers and adversaries are not told
// apart from reliable workers. The sampler reads each label once. On
// crowds of light workers with spammers and adversaries at K > 2 it is up
// to 3 points ahead of the default (docs/models.md); on two classes with a
// rare class its chains can settle on a class prior far from the truth,
// where the default is ahead.
type Kinds struct {
	// Burn and Sweeps are the sweeps of every chain before and while
	// keeping; zero means DefaultBurn and DefaultSweeps.
	Burn, Sweeps int
	// Chains is the number of chains, run in parallel; zero means
	// DefaultChains.
	Chains int
	// Seed seeds the chains: chain i draws from the stream (Seed, i).
	Seed uint64
	// Init, if not nil, holds class probabilities (J×K) from which the
	// chains draw their first classes; nil starts every task at the class
	// most of its labels name (ties drawn).
	Init []float64
}

// The defaults of Kinds's settings.
const (
	DefaultBurn   = 100
	DefaultSweeps = 200
	DefaultChains = 2
)

// ebEvery is the number of sweeps between empirical Bayes steps of the
// kinds' priors during the burn-in.
const ebEvery = 5

// Name returns "gibbs-kinds".
func (Kinds) Name() string { return "gibbs-kinds" }

// Posterior reports true: a fit's Result.Probs is the posterior of the
// true class (model.PosteriorAnswerer).
func (Kinds) Posterior() bool { return true }

// Fit fits g to d, the chains on at most Settings.Threads goroutines (s
// may be nil); its result is the same with any number of them. It reads no
// other setting. A cancelled ctx stops the fit between sweeps. The
// result's Method gives the kinds' mean shares.
func (g Kinds) Fit(ctx context.Context, d *data.Dataset, s *model.Settings) (*model.Result, error) {
	if err := model.CheckFit(ctx, d); err != nil {
		return nil, err
	}
	if g.Burn < 0 || g.Sweeps < 0 || g.Chains < 0 {
		return nil, fmt.Errorf("model %s: negative setting in %+v", g.Name(), g)
	}
	k := d.NumClasses()
	if g.Init != nil && len(g.Init) != d.NumTasks()*k {
		return nil, fmt.Errorf("model %s: Init holds %d values, want %d tasks × %d classes", g.Name(), len(g.Init), d.NumTasks(), k)
	}
	begin := time.Now()
	burn, sweeps, chains := cmp.Or(g.Burn, DefaultBurn), cmp.Or(g.Sweeps, DefaultSweeps), cmp.Or(g.Chains, DefaultChains)
	cs := make([]*chain, chains)
	errs := make([]error, chains)
	threads := 0
	if s != nil {
		threads = s.Threads
	}
	sem := make(chan struct{}, fitting.ThreadCount(threads))
	var wg sync.WaitGroup
	for i := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			cs[i], errs[i] = run(ctx, d, g.Seed, uint64(i), g.Init, burn, sweeps)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", g.Name(), err)
		}
	}
	probs := make([]float64, d.NumTasks()*k)
	var shares [numKinds]float64
	n := float64(sweeps * chains)
	for _, c := range cs { // in the chains' order, whatever finished first
		for i, v := range c.post {
			probs[i] += v / n
		}
		for i, v := range c.kinds {
			shares[i%numKinds] += v / (n * float64(max(d.NumWorkers(), 1)))
		}
	}
	r := &model.Result{
		Model: g.Name(),
		Data:  d,
		Probs: probs,
		Method: fmt.Sprintf("collapsed Gibbs, %d chains of %d sweeps after %d; kinds' shares: full %.3f, one-coin %.3f, per-class %.3f, spammer %.3f, adversary %.3f",
			chains, sweeps, burn, shares[full], shares[coin], shares[perClass], shares[spammer], shares[adversary]),
		Iterations:  chains * (burn + sweeps),
		Evaluations: chains * (burn + sweeps),
		Status:      "SweepLimit",
		Converged:   true,
		Runtime:     time.Since(begin),
	}
	return r.SetNoise(newView(cs, sweeps)), nil
}

// NumParams returns the number of worker values a fit to d reports
// (model.Parametric): every worker's K×K posterior mean confusion and its
// probability of each of the five kinds. The sampler integrates the
// workers' parameters out; these are their posterior means.
func (Kinds) NumParams(d *data.Dataset) int {
	k := d.NumClasses()
	return d.NumWorkers() * (k*k + numKinds)
}

// FitMemory estimates the memory of fitting g to d, in bytes: every
// chain's classes and kept posteriors of the tasks, and its workers'
// counts, kinds and kinds' tallies.
func (g Kinds) FitMemory(d *data.Dataset, _ *model.Settings) float64 {
	k, j, w := float64(d.NumClasses()), float64(d.NumTasks()), float64(d.NumWorkers())
	perChain := 8*j*(1+k) + 4*w*(k*k+k+2) + w*(1+8+8*numKinds)
	return float64(cmp.Or(g.Chains, DefaultChains))*perChain + 8*j*k
}

// run runs one chain of burn sweeps and then sweeps kept sweeps, seeded
// by (seed, stream).
func run(ctx context.Context, d *data.Dataset, seed, stream uint64, init []float64, burn, sweeps int) (*chain, error) {
	c := newChain(d, seed, stream, init)
	for s := range burn + sweeps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		keep := s >= burn
		c.sweepTasks(keep)
		c.sweepKinds(keep)
		if !keep && s%ebEvery == ebEvery-1 {
			c.learnPrior()
		}
	}
	return c, nil
}

func init() {
	model.Register(model.Family{
		Name:    "gibbs",
		Section: model.SectionVariational,
		Rank:    2, // after ebcc
		Entries: func() []model.Entry {
			return []model.Entry{{
				Name:    "gibbs-kinds",
				Summary: "Bayesian Dawid-Skene over full, one-coin, per-class, spammer and adversary workers, collapsed Gibbs sampling, output the posterior of the true class",
				New:     func() model.Estimator { return Kinds{} },
			}}
		},
	})
}
