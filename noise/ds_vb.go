package noise

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/noise/internal/dirichlet"
	"github.com/consensuslab/consensus/noise/internal/dsmix"
)

// Default pseudo-counts of the Dirichlet prior on a row of a Dawid-Skene
// confusion matrix in variational fits: π_w(z, ·) ~ Dirichlet(β_z) with
// β_z(z) = DefaultPriorDiag and β_z(y) = DefaultPriorOff for y ≠ z. The
// prior mean accuracy is 2/(K + 1), above chance for every K: a worker is
// believed better than a coin until the labels say otherwise, which breaks
// the label-switching symmetry of the likelihood, and the prior weighs
// K + 1 labels per row, little against a worker's own labels. It is the
// diagonal-favouring Dirichlet of the Bayesian classifier combination
// literature (IBCC, Kim and Ghahramani 2012; EBCC, Li, Rubinstein and
// Cohn 2019) at half their usual diagonal weight of 4; docs/models.md
// shows both on the shipped data sets. It is set once, not per data set.
const (
	DefaultPriorDiag = 2
	DefaultPriorOff  = 1
)

var _ Conjugate = DS{}

// NewVariational returns the variational posterior of the confusion
// matrices on d: every row π_w(z, ·) ~ Dirichlet(λ_wz), with prior
// pseudo-counts β_z (PriorDiag on the diagonal, PriorOff elsewhere) and
// λ_wz(y) = β_z(y) + C_w(z, y) for the expected counts C_w(z, y) = Σ g_i(z)
// over worker w's labels y_i = y. The E-step sees
//
//	E[log π_w(z, y)] = ψ(λ_wz(y)) − ψ(Σ_y' λ_wz(y')).
func (m DS) NewVariational(d *data.Dataset) Variational {
	k := d.NumClasses()
	diag, off := m.confusionPrior()
	v := &dsVB{
		e: dsEval{
			d: d, k: k,
			logPi: make([]float64, d.NumWorkers()*k*k),
			piT:   make([]float64, d.NumWorkers()*k*k),
		},
		diag: diag, off: off,
		lam: make([]float64, d.NumWorkers()*k*k),
	}
	if m.SharedPrior {
		v.beta = startPrior(k, diag, off)
	}
	if m.Averaged && k > 1 {
		v.mix = dsmix.New(d.NumWorkers(), k, diag, off)
		if v.beta != nil && k > 2 {
			v.pat = startPrior(k, diag, off)
		}
	}
	return v
}

// startPrior returns the rows β_z of the fixed prior, K×K: diag on the
// diagonal, off elsewhere; the start of an estimated one.
func startPrior(k int, diag, off float64) []float64 {
	beta := make([]float64, k*k)
	for z := range k {
		for y := range k {
			beta[z*k+y] = off
			if y == z {
				beta[z*k+y] = diag
			}
		}
	}
	return beta
}

// dsVB is DS's variational posterior. Its dsEval holds E[log π] in logPi
// and exp E[log π], transposed, in piT, so that LogProb, Prob and the
// accumulation of counts are DS's own.
type dsVB struct {
	e         dsEval
	diag, off float64
	lam       []float64 // λ_w(z, y), W·K², row-major per worker
	kl        []float64 // Update's KL divergence of every row
	load      []float64 // Load's counts, kept from one call to the next
	fixed     []bool    // Hold's marks, laid out as lam; nil: none
	// beta holds the prior's rows β_z, K×K, when they are estimated by
	// empirical Bayes (DS.SharedPrior); nil: diag and off.
	beta []float64
	// pat holds rows like beta's, learned from the workers better than
	// chance, whose errors' shape is the pattern of the one-coin and
	// per-class kinds (K > 2 with mix and beta; nil otherwise). It is
	// learned at every Update and is part of the state Params carries
	// (mixState), so that the fit's SQUAREM steps extrapolate it with the
	// pseudo-counts: learned apart from them, it doubled the passes
	// (K = 10, 3,000 tasks of two labels among 2,000 workers).
	pat []float64
	// mix averages every worker over kinds of confusion matrix
	// (DS.Averaged); nil: full matrices only.
	mix *dsmix.Mix
	// heldState holds the averaged state when Hold was called, for the
	// values of it that Hold marks.
	heldState []float64
	// cav holds what CavityProbs reads, computed after the posterior
	// last changed; nil until then.
	cav *dsCavity
	rc  []dirichlet.RowCounts // learnRows' scratch
}

var (
	_ WorkerPosteriorSetter = DS{}
	_ Holder                = (*dsVB)(nil)
)

func (v *dsVB) AccDim() int { return len(v.lam) }

func (v *dsVB) prior(z, y int) float64 {
	if v.beta != nil {
		return v.beta[z*v.e.k+y]
	}
	if z == y {
		return v.diag
	}
	return v.off
}

// priorRows writes the prior's rows β_z, K×K, into dst (grown if short)
// and returns it.
func (v *dsVB) priorRows(dst []float64) []float64 {
	k := v.e.k
	dst = slices.Grow(dst[:0], k*k)[:k*k]
	for z := range k {
		for y := range k {
			dst[z*k+y] = v.prior(z, y)
		}
	}
	return dst
}

// patternPrior returns the rows whose errors' shape is the pattern μ_z of
// the one-coin and per-class kinds (dsmix.Mix.Counts): pat where it is
// learned, otherwise the prior's own rows.
func (v *dsVB) patternPrior() func(z, y int) float64 {
	if v.pat == nil {
		return v.prior
	}
	return func(z, y int) float64 { return v.pat[z*v.e.k+y] }
}

func (v *dsVB) Start(freq data.TaskWeights) {
	c := make([]float64, len(v.lam))
	RFECounts(v.e.d, freq, c)
	k := v.e.k
	acc := make([]float64, len(c))
	for r := range c { // to the transposed order of the accumulated counts
		base, z, y := r/(k*k)*(k*k), (r%(k*k))/k, r%k
		acc[countAt(base, k, z, y)] = c[r]
	}
	v.Update(acc)
}

func (v *dsVB) LogProb(j int, l []float64)              { v.e.LogProb(j, l) }
func (v *dsVB) Prob(lo, hi int, p []float64)            { v.e.Prob(lo, hi, p) }
func (v *dsVB) Accumulate(lo, hi int, g, acc []float64) { v.e.BackpropProb(lo, hi, nil, g, acc, nil) }

// Params returns λ, laid out as the worker rows; with DS.Averaged, followed
// by the state the average is computed from (dsmix.Mix.State): the prior's rows
// β_z, the share ρ of full workers, the one-coin prior (a, b) and, for
// K > 2, the per-class kind's share ρ_c and prior (a_c, b_c) and the
// errors' precisions κ_o and κ_c, so that
// Load of Params in a new posterior gives the same probabilities.
func (v *dsVB) Params(dst []float64) []float64 {
	dst = append(dst, v.lam...)
	if v.mix != nil {
		dst = v.mixState(dst)
	}
	return dst
}

// Load sets λ to params and updates the expected logarithms: Update with
// the counts λ − β.
func (v *dsVB) Load(params []float64) float64 { return v.loadParams(params, false) }

// loadParams is Load, with λ = params as given (at least sharedFloor)
// instead of at least β when exact is set (LoadStart).
func (v *dsVB) loadParams(params []float64, exact bool) float64 {
	k := v.e.k
	if v.mix != nil && len(params) > len(v.lam) {
		v.setMixState(slices.Clone(params[len(v.lam):]))
		params = params[:len(v.lam)]
	}
	if len(v.load) != len(v.lam) {
		v.load = make([]float64, len(v.lam))
	}
	acc := v.load
	pr := v.priorRows(nil)
	for base := 0; base < len(acc); base += k * k {
		for z := range k {
			for y := range k {
				acc[countAt(base, k, z, y)] = params[base+z*k+y] - pr[z*k+y]
			}
		}
	}
	if v.mix != nil {
		v.mix.Counts(acc, k, v.prior, v.patternPrior())
		v.mix.Weights()
	}
	if exact {
		return v.update(acc, params)
	}
	return v.update(acc, nil)
}

// Update sets λ = β + acc; with an estimated prior, β is first set to
// the maximiser of the marginal likelihood of the expected counts acc
// (learnPrior). Load keeps β as it is.
func (v *dsVB) Update(acc []float64) float64 {
	// With every value of the state held, as in the refit under the
	// cavity priors, learning it would be undone: it is skipped.
	learn := !v.stateHeld()
	if v.beta != nil && learn {
		v.learnPrior(acc)
	}
	if v.mix != nil {
		if learn {
			v.mix.Counts(acc, v.e.k, v.prior, v.patternPrior())
			v.mix.Learn(v.e.k)
		}
		if len(v.fixed) > len(v.lam) {
			// Learned with the held values of the state free (or not at
			// all); they are put back, and the kinds weighed under them
			// (for K > 2 Weights refits the kinds' shares). The counts
			// are read again unless learning read these, under the same
			// prior and pattern rows.
			rows := append(slices.Clone(v.beta), v.pat...)
			v.setMixState(v.mixState(nil))
			if !learn || !slices.Equal(rows, append(slices.Clone(v.beta), v.pat...)) {
				v.mix.Counts(acc, v.e.k, v.prior, v.patternPrior())
			}
			v.mix.Weights()
		}
	}
	return v.update(acc, nil)
}

// stateHeld reports whether Hold holds every value of the averaged state
// (dsmix.Mix.State's: the prior's rows and the kinds' hyperparameters).
func (v *dsVB) stateHeld() bool {
	return v.mix != nil && len(v.heldState) > 0 && !slices.Contains(v.fixed[len(v.lam):], false)
}

// setMixState sets the averaged state to st (laid out as dsmix.Mix.State),
// except the values Hold marks (Hold over Params), which keep the ones
// they had when Hold was called (heldState).
func (v *dsVB) setMixState(st []float64) {
	for i, f := range v.fixed[min(len(v.fixed), len(v.lam)):] {
		if f && i < len(st) {
			st[i] = v.heldState[i]
		}
	}
	v.mix.SetState(st, v.e.k, v.beta, v.pat)
}

// mixState appends the averaged posterior's state (dsmix.Mix.State): the
// prior's rows, the pattern's rows pat where they are learned, and the
// kinds' hyperparameters.
func (v *dsVB) mixState(dst []float64) []float64 {
	return v.mix.State(dst, v.e.k, v.prior, v.pat)
}

// The bounds of an estimated prior pseudo-count, and the stopping rule of
// its fixed point: the relative change of every pseudo-count at most
// sharedPriorTol, or sharedPriorSteps steps. The fit carries β from one
// pass to the next, and the fixed point rarely meets its tolerance: ten
// steps a pass reach the same fits as fifty did, in fewer passes (at
// K = 10, 29 against 35 on 2·10⁵ simulated labels), at a fifth of the
// prior's cost a pass.
const (
	minSharedPrior         = dsmix.MinPrior
	maxSharedConcentration = dsmix.MaxConcentration
	sharedPriorTol         = 1e-5
	sharedPriorSteps       = 10
	// sharedFloor is the least pseudo-count SetWorkerPosterior writes
	// under a shared prior.
	sharedFloor = 1e-6
)

// learnPrior moves every row β_z of the prior towards the maximiser of
// the Dirichlet-multinomial likelihood of the workers' expected counts of
// that row, Π_w Γ(Σβ_z) / Γ(Σβ_z + n_wz) Π_y Γ(β_z(y) + C_w(z, y)) /
// Γ(β_z(y)), the evidence for β_z with every worker's row integrated out,
// by Minka's fixed point for the Pólya distribution (Estimating a
// Dirichlet distribution, 2000, eq. 55),
//
//	β_z(y) ← β_z(y) Σ_w [ψ(C_w(z, y) + β_z(y)) − ψ(β_z(y))] / Σ_w [ψ(n_wz + Σβ_z) − ψ(Σβ_z)],
//
// from the current β_z, for at most sharedPriorSteps steps a pass (the fit
// carries β from one pass to the next). Every value is at least
// minSharedPrior, and a row whose concentration Σ_y β_z(y) exceeds
// maxSharedConcentration is scaled down to it after every step: when the
// workers' rows look alike on the labels at hand (a rare class, few labels
// a worker) the likelihood grows without bound in the concentration, and
// the cap keeps a busy worker's own counts weighing against the crowd's.
// (Newton's steps on the same likelihood, with the cap applied at every
// step or once at the end, made fits cycle or collapse onto one shared
// row; this fixed point, stopped early, does neither.) For K > 2 the row's
// errors then keep their pattern only where the counts support it
// (symmetricUnlessSupported).
//
// With the kinds of worker at K > 2 it also learns, the same way, the rows
// pat whose errors the one-coin and per-class kinds follow, from every
// worker's counts weighted by its probability of being better than chance
// (dsmix.BetterThanChance): the full kind's prior is the whole crowd's, the
// pattern of errors the honest workers'.
func (v *dsVB) learnPrior(acc []float64) {
	k := v.e.k
	w := len(v.lam) / (k * k)
	if len(v.rc) != k {
		v.rc = make([]dirichlet.RowCounts, k)
	}
	learnRows(v.beta, acc, k, w, nil, v.rc)
	if v.pat != nil {
		learnRows(v.pat, acc, k, w, dsmix.BetterThanChance(acc, k, w), v.rc)
	}
}

// learnRows is learnPrior's fixed point on the rows rows (K×K) from the
// expected counts acc of the w workers, K×K each, every worker's terms of
// the likelihood weighted by omega (nil: 1 each); a worker of weight 0 is
// left out. A row's counts above 0 of the workers with any, and their
// sums, are gathered once into rc (K of them, dirichlet.GatherRows): they
// do not change during the steps, and ψ(β_z(y)) is taken once a step for
// all workers.
func learnRows(rows, acc []float64, k, w int, omega []float64, rc []dirichlet.RowCounts) {
	dirichlet.GatherRows(rc, acc, k, w, omega)
	for z := range k {
		beta := rows[z*k : (z+1)*k]
		rc[z].FixedPoint(beta, sharedPriorSteps, sharedPriorTol, minSharedPrior, maxSharedConcentration)
		symmetricUnlessSupported(beta, &rc[z], z)
	}
}

func sum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

// update sets every pseudo-count not held to β + acc, at least β; with
// exact (laid out as λ) to exact's, at least sharedFloor. It updates the
// expected logarithms and returns the rows' KL divergences from the prior.
func (v *dsVB) update(acc, exact []float64) float64 {
	v.cav = nil
	k := v.e.k
	k2 := k * k
	if len(v.kl) != len(acc)/k {
		v.kl = make([]float64, len(acc)/k)
	}
	v.e.forWorkers(len(acc)/k2, func(lo, hi int) {
		beta := make([]float64, k)
		for y := range beta {
			beta[y] = v.prior(0, y)
		}
		// Every row's prior holds the same pseudo-counts in another order,
		// unless the prior is estimated.
		norm := num.DirichletLogNorm(beta)
		norms := make([]float64, k)
		for z := range norms {
			for y := range beta {
				beta[y] = v.prior(z, y)
			}
			norms[z] = num.DirichletLogNorm(beta)
		}
		var sc rowScratch
		v.setRows(lo*k2, hi*k2, acc, exact, norm, norms, true, &sc)
		if v.mix != nil {
			var bs dsmix.BlendScratch
			for w := lo; w < hi; w++ {
				if (w-lo)%blendBlock == 0 {
					bs.Set(v.mix, w, min(w+blendBlock, hi), k)
				}
				held := v.mixHeld(w)
				kl := v.mix.Blend(w, k, held, v.e.logPi[w*k2:(w+1)*k2], &bs)
				m, _ := v.mix.Shares(w, held)
				for z := range k {
					v.kl[w*k+z] *= m
				}
				v.kl[w*k] += kl
			}
		}
		v.e.transposeWorkers(lo, hi)
	})
	// The rows' divergences are added in row order, whatever the number
	// of goroutines.
	var kl float64
	for _, x := range v.kl {
		kl += x
	}
	return kl
}

// blendBlock is the number of workers whose digammas Blend reads are
// taken in one batch (dsmix.BlendScratch).
const blendBlock = 64

// mixHeld reports whether worker w's pseudo-counts are all held (Hold)
// under DS.Averaged: they were written from the averaged posterior means
// (SetWorkerPosterior of WorkerValues) and so hold the average already,
// and the worker counts as of the full kind.
func (v *dsVB) mixHeld(w int) bool {
	if v.fixed == nil {
		return false
	}
	k2 := v.e.k * v.e.k
	for _, f := range v.fixed[w*k2 : (w+1)*k2] {
		if !f {
			return false
		}
	}
	return true
}

// SetThreads sets the number of goroutines of Update (Threaded).
func (v *dsVB) SetThreads(n int) { v.e.threads = n }

// WorkerOnly marks dsVB's conditionals as the worker's alone (noise.WorkerOnly).
func (*dsVB) WorkerOnly() {}

// Conditional writes the posterior mean λ_wz(y)/Σ_y' λ_wz(y').
func (v *dsVB) Conditional(w int32, _ int, z int, p []float64) {
	k := v.e.k
	row := v.lam[(int(w)*k+z)*k : (int(w)*k+z+1)*k]
	var s float64
	for _, x := range row {
		s += x
	}
	for y, x := range row {
		p[y] = x / s
	}
	if v.mix != nil {
		v.mix.Mean(int(w), z, v.mixHeld(int(w)), p)
	}
}

// WorkerColumns names the posterior means p[z,y] of the confusion rows, as
// DS's maximum-likelihood evaluator does, then n[z]: the number of the
// worker's labels that row z of the posterior weighs, Σ_y λ_wz(y) − Σ_y
// β_z(y) (the expected number of its labels on objects of class z); for a
// row held at what SetWorkerPosterior wrote under a shared prior, β_z is
// the static prior's, the one it was written with.
func (v *dsVB) WorkerColumns() []string {
	cols := v.e.WorkerColumns()
	for _, z := range v.e.d.Classes {
		cols = append(cols, "n["+z+"]")
	}
	return cols
}

func (v *dsVB) WorkerValues(w int, dst []float64) []float64 {
	k := v.e.k
	p := make([]float64, k)
	for z := range k {
		v.Conditional(int32(w), 0, z, p)
		dst = append(dst, p...)
	}
	for z := range k {
		var s, b float64
		held := v.beta != nil && v.fixed != nil
		for y, x := range v.lam[(w*k+z)*k : (w*k+z+1)*k] {
			s += x
			b += v.prior(z, y)
			held = held && v.fixed[(w*k+z)*k+y]
		}
		if held {
			// A row held at the pseudo-counts SetWorkerPosterior wrote
			// under a shared prior: they were built on the static
			// prior's mass (see DS.SetWorkerPosterior), so the row
			// reports the labels it was given.
			b = v.diag + float64(k-1)*v.off
		}
		dst = append(dst, s-b)
	}
	return dst
}

// confusionPrior returns the pseudo-counts of the prior on a confusion row,
// on the diagonal and off it: PriorDiag and PriorOff, or their defaults.
func (m DS) confusionPrior() (diag, off float64) {
	return cmp.Or(m.PriorDiag, DefaultPriorDiag), cmp.Or(m.PriorOff, DefaultPriorOff)
}

// WorkerPosteriorDim returns K²: a worker's pseudo-counts are its K rows
// of K, row-major.
func (DS) WorkerPosteriorDim(k int) int { return k * k }

// SetWorkerPosterior sets λ_wz(y) = p[z,y]·(Σ_y β_z(y) + n[z]), at least
// β_z(y), from the values the posterior's WorkerValues reports: every row
// of p a distribution, every n[z] a finite number of labels, at least 0.
//
// With SharedPrior the prior's rows are learned during the fit, after the
// workers are set: β_z is then the static prior's (PriorDiag, PriorOff),
// and λ_wz(y) is at least sharedFloor instead of β_z(y), so that the row's
// posterior mean is p[z,·] exactly (the learned prior's entries can lie
// below the static prior's). A worker held at these pseudo-counts
// (noise.Holder) reports p and n again; one that the fit moves starts
// from them.
func (m DS) SetWorkerPosterior(d *data.Dataset, vals, params []float64) error {
	k := d.NumClasses()
	if err := valueCount(vals, k*k+k); err != nil {
		return err
	}
	if err := m.SetWorker(d, vals[:k*k], make([]float64, k*k)); err != nil {
		return err
	}
	diag, off := m.confusionPrior()
	for z := range k {
		n := vals[k*k+z]
		if !labelCount(n) {
			return fmt.Errorf("n[%s] = %v is not a number of labels (0 to 2^53)", d.Classes[z], n)
		}
		s := diag + float64(k-1)*off + n
		for y := range k {
			floor := off
			if y == z {
				floor = diag
			}
			if m.SharedPrior {
				floor = sharedFloor
			}
			params[z*k+y] = max(vals[z*k+y]*s, floor)
		}
	}
	return nil
}

// LoadStart sets λ to params: Load, except that under a shared prior a
// pseudo-count below the prior's (which Start has learned) is kept, at
// least sharedFloor (noise.StartLoader).
func (v *dsVB) LoadStart(params []float64) {
	// The start's shares of the kinds are kept: weighing the kinds would
	// solve them again from the start's counts.
	if v.mix != nil {
		v.mix.HoldShares(true)
		defer v.mix.HoldShares(false)
	}
	v.loadParams(params, v.beta != nil)
}

var _ StartLoader = (*dsVB)(nil)

// Hold keeps the pseudo-counts marked in fixed through Update and Load,
// and under DS.Averaged the values of the averaged state it marks after
// them (Params's layout) at their values now.
func (v *dsVB) Hold(fixed []bool) {
	v.fixed, v.heldState = fixed, nil
	if v.mix != nil && len(fixed) > len(v.lam) {
		v.heldState = v.mixState(nil)
		// At K > 2 the precisions, the kinds' shares and the Beta priors
		// held: the rest of the state is learned under them.
		n := len(fixed)
		held := func(tails ...int) bool {
			for _, t := range tails {
				if !fixed[n-t] {
					return false
				}
			}
			return v.e.k > 2
		}
		v.mix.HoldPrecisions(held(dsmix.TailKapO, dsmix.TailKapC))
		v.mix.HoldShares(held(dsmix.TailRho, dsmix.TailRhoC))
		v.mix.HoldBetas(held(dsmix.TailA, dsmix.TailB, dsmix.TailAC, dsmix.TailBC))
	}
}

var _ PatternPriorer = DS{}

// WithSharedPrior returns m with SharedPrior and Averaged set: the
// default model's workers, whose prior and kinds are learned from the
// crowd.
func (m DS) WithSharedPrior() Model {
	m.SharedPrior = true
	m.Averaged = true
	return m
}

// WithFixedPrior returns m with SharedPrior and Averaged off: the fixed
// Dirichlet(PriorDiag, PriorOff) rows (SharedPriorer).
func (m DS) WithFixedPrior() Model {
	m.SharedPrior = false
	m.Averaged = false
	return m
}

// WithFixedPattern returns m with SharedPrior off and Averaged as it is:
// the full kind's rows keep the fixed Dirichlet(PriorDiag, PriorOff) prior,
// and the kinds' shares and the one-coin and per-class priors are still
// learned (PatternPriorer).
func (m DS) WithFixedPattern() Model {
	m.SharedPrior = false
	return m
}

// Table returns exp E[log π_w(z, y)] transposed, at w·K² + y·K + z: the
// probabilities that Prob copies, laid out as Tabled's table, and where
// Accumulate adds a label's weights. The caller must not change it.
func (v *dsVB) Table() []float64 { return v.e.piT }
