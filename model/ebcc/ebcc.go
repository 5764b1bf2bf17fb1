package ebcc

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/pool"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/fitting"
)

// EBCC is enhanced Bayesian classifier combination (Li, Rubinstein and
// Cohn, ICML 2019, "Exploiting worker correlation for label aggregation in
// crowdsourcing"). Every true class z has up to M latent subtypes; an
// object j has a true class z_j and a subtype g_j, and worker w labels it
// from a confusion row of its own for the pair (z_j, g_j):
//
//	τ ~ Dirichlet(1, …, 1),  π_z ~ Dirichlet(a/M, …, a/M),
//	v_w(z, m, ·) ~ Dirichlet(β_z),  β_z(z) = Diagonal, β_z(y) = OffDiagonal (y ≠ z),
//	z_j ~ Categorical(τ),  g_j | z_j ~ Categorical(π_{z_j}),
//	y_ij | z_j = z, g_j = m ~ Categorical(v_w(z, m, ·)).
//
// Workers who share a systematic mistake on some objects of a class (both
// call a subtype of class 0 class 1) then agree through the subtype, not
// through the class: the subtype absorbs the correlation of their errors,
// which a model of independent workers (Dawid-Skene, vb-ds) reads as
// evidence for the wrong class. With M = 1 it is IBCC (vb-la-ds) with a
// fixed prior. The fixed, diagonal-heavy prior keeps every subtype tied to
// its class; the subtypes cost accuracy where the workers' errors are
// independent and each worker's own bias is what matters (see
// docs/choosing-a-model.md).
//
// The fit is mean-field variational Bayes with q(z_j, g_j) joint per object
// (Li et al.'s updates): it starts from the label frequencies, split among
// the subtypes by Dirichlet(1, …, 1) draws from Seed, and Starts such fits
// are made from different draws; the one of highest evidence lower bound is
// kept. The output is the posterior of the true class, Σ_m q(z_j = z, g_j = m).
type EBCC struct {
	// Subtypes is M, the number of subtypes of every class; zero means
	// DefaultSubtypes.
	Subtypes int
	// Concentration is a, the total pseudo-count of every class's
	// subtype shares π_z; zero means DefaultConcentration. A small value
	// leaves unused subtypes empty.
	Concentration float64
	// Diagonal and OffDiagonal are the pseudo-counts of every confusion
	// row's prior; zero means DefaultDiagonal and DefaultOffDiagonal.
	Diagonal, OffDiagonal float64
	// Starts is the number of random starts; zero means DefaultStarts.
	Starts int
	// Seed seeds the random starts: start i draws from Seed + i.
	Seed uint64
}

// The defaults of EBCC's settings: Li, Rubinstein and Cohn's M, a and β,
// and three starts.
const (
	DefaultSubtypes      = 10
	DefaultConcentration = 0.1
	DefaultDiagonal      = 4
	DefaultOffDiagonal   = 1
	DefaultStarts        = 3
)

// DefaultTol is the stopping rule of every start when Settings.ParamTol is
// zero: no q(z_j = z) moves by more than DefaultTol in one pass (Li et
// al.'s rule).
const DefaultTol = 1e-3

// DefaultMaxIterations bounds the passes of every start when
// Settings.MaxIterations is zero (Li et al.'s bound).
const DefaultMaxIterations = 500

// Name returns "ebcc".
func (EBCC) Name() string { return "ebcc" }

// Variational reports true: EBCC is fitted by variational Bayes.
func (EBCC) Variational() bool { return true }

// Posterior reports true: a fit's Result.Probs is the posterior of the
// true class (model.PosteriorAnswerer).
func (EBCC) Posterior() bool { return true }

// NumParams returns the number of variational parameters on d: the
// pseudo-counts of every worker's K·M rows of K, and per object the K·M
// probabilities of q(z_j, g_j).
func (e EBCC) NumParams(d *data.Dataset) int {
	k, m := d.NumClasses(), cmp.Or(e.Subtypes, DefaultSubtypes)
	return d.NumWorkers()*k*m*k + d.NumTasks()*k*m
}

// Reads reports whether fits read the setting s: MaxIterations (the passes
// of every start) and ParamTol (the stopping rule, see DefaultTol).
func (EBCC) Reads(s model.Setting) bool {
	return s == model.SetMaxIterations || s == model.SetParamTol
}

// Fit fits e to d. Settings.MaxIterations bounds the passes of every start
// (zero: DefaultMaxIterations), Settings.ParamTol sets the stopping rule
// (zero: DefaultTol) and Settings.Threads bounds the starts fitted at the
// same time (zero: all cores; the result does not depend on it); the
// other settings do not apply. A cancelled ctx stops
// the fit between passes. The result's LogLikelihood is the evidence lower
// bound of the start kept, Iterations the passes of all starts, and its
// noise view the workers' posterior mean confusion, per object (the rows of
// the object's subtypes, weighted by q(g_j | z_j)).
func (e EBCC) Fit(ctx context.Context, d *data.Dataset, s *model.Settings) (*model.Result, error) {
	if err := model.CheckFit(ctx, d); err != nil {
		return nil, err
	}
	if err := e.check(); err != nil {
		return nil, err
	}
	begin := time.Now()
	var set model.Settings
	if s != nil {
		set = *s
	}
	best, passes, err := e.fitStarts(ctx, d, set)
	if err != nil {
		return nil, err
	}
	starts := cmp.Or(e.Starts, DefaultStarts)
	r := &model.Result{
		Model:         e.Name(),
		Data:          d,
		Probs:         best.z,
		LogLikelihood: best.elbo,
		Params:        best.mu,
		Method:        fmt.Sprintf("vb, %d subtypes a class, the best bound of %d starts", best.m, starts),
		Iterations:    passes,
		Evaluations:   passes,
		Status:        "Converged",
		Converged:     best.converged,
		Runtime:       time.Since(begin),
	}
	if !best.converged {
		r.Status = "IterationLimit"
	}
	return r.SetNoise(best.view()), nil
}

// fitStarts fits e's starts to d under set (see Fit) and returns the one
// kept and the passes of all.
func (e EBCC) fitStarts(ctx context.Context, d *data.Dataset, set model.Settings) (*fit, int, error) {
	maxIter := cmp.Or(set.MaxIterations, DefaultMaxIterations)
	tol := cmp.Or(set.ParamTol, DefaultTol)
	starts := cmp.Or(e.Starts, DefaultStarts)
	// The starts run at the same time on up to Settings.Threads
	// goroutines. The one kept is the best by a total order (the higher
	// bound, a NaN lowest, then the earlier start), so that neither the
	// number of goroutines nor the order in which the starts end changes
	// it; a start's posterior is dropped as soon as another beats it.
	var (
		lock  sync.Mutex
		best  *fit
		first = starts
		iters = make([]int, starts)
	)
	err := pool.Run(ctx, starts, pool.Settings{Threads: set.Threads, StopOnError: true}, func(i int) error {
		f := e.newFit(d)
		f.start(e.Seed + uint64(i))
		n, conv, err := f.run(ctx, maxIter, tol)
		iters[i] = n
		if err != nil {
			return err
		}
		f.elbo, f.converged, f.index = f.bound(), conv, i
		lock.Lock()
		defer lock.Unlock()
		if best == nil || beats(f.elbo, i, best.elbo, first) {
			best, first = f, i
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	var passes int
	for _, n := range iters {
		passes += n
	}
	return best, passes, nil
}

// beats reports whether the bound a of start i beats the bound b of start
// j: a total order in which a NaN bound is the lowest and equal bounds go
// to the earlier start.
func beats(a float64, i int, b float64, j int) bool {
	switch {
	case math.IsNaN(b) && !math.IsNaN(a):
		return true
	case math.IsNaN(a) && !math.IsNaN(b):
		return false
	case a != b && !math.IsNaN(a):
		return a > b
	}
	return i < j
}

// FitMemory estimates the memory of fitting e to d, in bytes: the
// posteriors of the starts being fitted at the same time (Settings.Threads
// of them, at most Starts) and of the one kept, each with q(z_j, g_j) and
// q(z_j), and every worker row's pseudo-counts and their expected
// logarithms.
func (e EBCC) FitMemory(d *data.Dataset, s *model.Settings) float64 {
	k, m := float64(d.NumClasses()), float64(cmp.Or(e.Subtypes, DefaultSubtypes))
	j, w := float64(d.NumTasks()), float64(d.NumWorkers())
	var threads int
	if s != nil {
		threads = s.Threads
	}
	running := min(fitting.ThreadCount(threads), cmp.Or(e.Starts, DefaultStarts))
	return float64(running+1) * 8 * (j*k*m + j*k + 2*w*k*m*k)
}

// check returns an error for a negative setting.
func (e EBCC) check() error {
	if e.Subtypes < 0 || e.Starts < 0 || !(e.Concentration >= 0) || !(e.Diagonal >= 0) || !(e.OffDiagonal >= 0) {
		return fmt.Errorf("model %s: negative setting in %+v", e.Name(), e)
	}
	return nil
}

func init() {
	model.Register(model.Family{
		Name:    "ebcc",
		Section: model.SectionVariational,
		Rank:    1, // after the vb-* forms
		Entries: func() []model.Entry {
			return []model.Entry{{
				Name:    "ebcc",
				Summary: "EBCC: Dawid-Skene workers over latent subtypes of every class, for correlated errors, variational Bayes, output the posterior of the true class",
				New:     func() model.Estimator { return EBCC{} },
			}}
		},
	})
}
