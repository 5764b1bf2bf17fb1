package dsmix

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// Mix averages every worker's confusion matrix over kinds of worker
// (DS.Averaged): a full matrix, rows π_w(z, ·) ~ Dirichlet(β_z), and a
// one-coin one, P(y | z) = a_w for y = z and (1 − a_w) ε_wz(y) otherwise,
// with a_w ~ Beta(a, b); for K > 2 a third, per-class kind between them,
// P(y | z) = a_wz for y = z and (1 − a_wz) ε_wz(y) otherwise, with every
// a_wz ~ Beta(a_c, b_c). (At K = 2 a per-class worker is a full one.) The
// errors of the one-coin and per-class kinds, ε_wz over the classes y ≠ z,
// follow the crowd's pattern μ_z (rows like the prior's β_z learned from
// the workers better than chance, off the diagonal, normalised; uniform
// under the fixed prior) up to the worker's own
// counts: ε_wz ~ Dirichlet(κ μ_z), with a precision κ of each kind, κ_o
// and κ_c (at K = 2, ε_wz = 1). A large κ holds a worker's errors to the
// crowd's; a small one lets a busy worker's own pattern show. Given a
// worker's expected counts C_w(z, y), each kind's evidence is the marginal
// likelihood of the counts with its parameters integrated out,
//
//	F_full  = Σ_z log B(β_z + C_w(z, ·)) − log B(β_z),
//	F_coin  = log B(a + c, b + e) − log B(a, b) + E_w(κ_o),
//	F_class = Σ_z [log B(a_c + c_z, b_c + e_z) − log B(a_c, b_c)] + E_w(κ_c),
//	E_w(κ)  = Σ_z log B(κ μ_z + C_w(z, ≠z)) − log B(κ μ_z),
//
// with c_z = C_w(z, z), e_z = Σ_{y≠z} C_w(z, y) and c and e their sums
// over z, and the worker is of kind k with posterior probability m_wk ∝
// ρ_k exp F_k. The E-step reads the average of E[log P(y | z)] over the
// kinds. The shares ρ_k of the kinds and the priors (a, b), (a_c, b_c),
// κ_o and κ_c are estimated by empirical Bayes, each from the workers of
// its kind (learn; for K > 2 the shares are solved for the evidences,
// kindsOf), but for the two Beta priors' concentrations a + b and
// a_c + b_c: their logarithms have a hierarchical prior, N(0, τ²) on their
// difference, with τ² by empirical Bayes (priorsStep, package betaprior),
// so that they are tied where the counts do not tell them apart, as light
// workers' do not, and free where they do; the means are free, for a
// crowd's spammers pull a shared mean. The full kind's prior β is the
// crowd's (dsVB's learnPrior). A worker with few labels is then one-coin, one number
// borrowed from the crowd's accuracies; a busy one whose accuracy depends
// on the class is per-class, and one whose errors fit no Dirichlet around
// the crowd's pattern (an adversary) is full. The per-class kind keeps a
// busy worker's accuracies and errors where the full kind's evidence,
// under a prior fitted to a crowd of good workers, spammers and
// adversaries, pays for K(K − 1) free error rates.
type Mix struct {
	rho  float64   // the share of full workers
	a, b float64   // the one-coin prior's pseudo-counts
	m    []float64 // every worker's posterior probability of the full kind
	// Per worker, from the last counts: the full kind's log evidence and
	// the one-coin counts c (diagonal) and e (off it).
	full, c, e []float64
	// pat holds, per worker, Σ_{z ≠ y} C_w(z, y) log μ_z(y) (K = 2); lpat
	// the pattern's logarithms log μ_z(y), K×K (0 on the diagonal).
	pat, lpat []float64
	// mu holds the pattern μ_z(y) itself, K×K (0 on the diagonal).
	mu []float64
	// lgArgs, lgVals and lgRows are counts' scratch: the arguments of
	// log Γ of a block of workers, their values and their rows; lgAt the
	// places in lgVals of the arguments that are not the prior's own, and
	// lgPr log Γ of the prior's pseudo-counts, K×K.
	lgArgs, lgVals, lgPr []float64
	lgRows               []int
	lgAt                 []int32
	// cls holds the per-class kind and the errors' precisions; nil at
	// K = 2.
	cls *dsClass
	// kapHeld says that Learn leaves the errors' precisions as they are
	// (HoldPrecisions), sharesHeld the kinds' shares (HoldShares),
	// betaHeld the Beta priors (HoldBetas).
	kapHeld, sharesHeld, betaHeld bool
}

// HoldPrecisions sets whether Learn leaves the errors' precisions κ_o and
// κ_c as they are (K > 2): held, the other values are learned under them.
func (x *Mix) HoldPrecisions(held bool) { x.kapHeld = held }

// HoldBetas sets whether Learn leaves the Beta priors of the accuracies,
// (a, b) and (a_c, b_c), as they are (K > 2).
func (x *Mix) HoldBetas(held bool) { x.betaHeld = held }

// HoldShares sets whether the kinds' shares ρ and ρ_c stay as they are
// (K > 2): Learn leaves them, and Weights sets the workers' probabilities
// of the kinds under them instead of solving them for the evidences.
func (x *Mix) HoldShares(held bool) { x.sharesHeld = held }

// Bounds of the mixture's hyperparameters and the steps of their fixed
// point a pass.
const (
	minMixShare = 0.02
	mixSteps    = 100
	mixTol      = 1e-6
	// classSteps bounds the steps a pass with the per-class kind (K > 2),
	// whose every step reads all W×K rows: the fit carries the values from
	// one pass to the next, so that the steps of all passes add up.
	classSteps = 10
)

func New(w, k int, diag, off float64) *Mix {
	x := &Mix{rho: 0.5, a: diag, b: off * float64(k-1), m: make([]float64, w),
		full: make([]float64, w), c: make([]float64, w), e: make([]float64, w),
		pat: make([]float64, w), lpat: make([]float64, k*k), mu: make([]float64, k*k)}
	if k > 2 {
		x.rho = 1.0 / 3
		x.cls = newDSClass(w, k, diag, off)
	}
	return x
}

// Counts sets every worker's counts and full-kind evidence from the
// expected counts acc (laid out as dsVB's) under the prior rows prior, and
// the pattern μ_z of the other kinds' errors from the rows pattern (its
// values off the diagonal, normalised).
func (x *Mix) Counts(acc []float64, k int, prior, pattern func(z, y int) float64) {
	k2 := k * k
	// The prior's pseudo-counts, each row's sum and log B(β_z), once for
	// all workers.
	pr, sums, lnB := make([]float64, k2), make([]float64, k), make([]float64, k)
	for z := range k {
		var s float64
		for y := range k {
			pr[z*k+y] = prior(z, y)
			sums[z] += pr[z*k+y]
			lg, _ := math.Lgamma(pr[z*k+y])
			lnB[z] += lg
			if y != z {
				s += pattern(z, y)
			}
		}
		lg, _ := math.Lgamma(sums[z])
		lnB[z] -= lg
		for y := range k {
			x.lpat[z*k+y], x.mu[z*k+y] = 0, 0
			if y != z {
				x.mu[z*k+y] = pattern(z, y) / s
				x.lpat[z*k+y] = math.Log(x.mu[z*k+y])
			}
		}
	}
	cl := x.cls
	if cl != nil {
		cl.fresh = false
	}
	// The full kind's evidence needs log Γ of K + 1 values a row; they are
	// taken by num.LgammaTo (math.Lgamma's values, vectorised) for a block
	// of workers at a time, and summed in the order of the formula. A
	// count of 0 leaves the prior's pseudo-count, whose log Γ is taken
	// once (lgPr): a worker of few labels has counts in few columns.
	rowArgs := k + 1
	if len(x.lgArgs) < countsBlock*k*rowArgs {
		x.lgArgs = make([]float64, countsBlock*k*rowArgs)
		x.lgVals = make([]float64, 2*countsBlock*k*rowArgs)
		x.lgRows = make([]int, countsBlock*k)
		x.lgAt = make([]int32, countsBlock*k*rowArgs)
	}
	if len(x.lgPr) != k2 {
		x.lgPr = make([]float64, k2)
	}
	num.LgammaTo(x.lgPr, pr)
	for lo := 0; lo < len(x.m); lo += countsBlock {
		hi := min(lo+countsBlock, len(x.m))
		// Every row read, as w·K + z, and the arguments of its log Γ
		// that are not the prior's (args, at their places at in lg).
		args, rows, at := x.lgArgs[:0], x.lgRows[:0], x.lgAt[:0]
		lg := x.lgVals[:cap(x.lgArgs)]
		nv := 0
		for w := lo; w < hi; w++ {
			base := w * k2
			var c, e, pat float64
			for z := range k {
				var nz, ez float64
				na, nat, nv0 := len(args), len(at), nv
				prz, lgz, lpz := pr[z*k:(z+1)*k], x.lgPr[z*k:(z+1)*k], x.lpat[z*k:(z+1)*k]
				for y := range k {
					n := max(acc[countAt(base, k, z, y)], 0)
					if cl != nil && y != z {
						cl.off[base+z*k+y] = n
					}
					if n == 0 {
						lg[nv] = lgz[y]
						nv++
						continue
					}
					args = append(args, prz[y]+n)
					at = append(at, int32(nv))
					nv++
					nz += n
					if y == z {
						c += n
					} else {
						e += n
						ez += n
						pat += n * lpz[y]
					}
				}
				if cl != nil {
					cl.cz[w*k+z], cl.ez[w*k+z] = max(acc[countAt(base, k, z, z)], 0), ez
				}
				if nz == 0 { // the row's evidence is 1
					args, at, nv = args[:na], at[:nat], nv0
					continue
				}
				args = append(args, sums[z]+nz)
				at = append(at, int32(nv))
				nv++
				rows = append(rows, w*k+z)
			}
			x.c[w], x.e[w], x.pat[w] = c, e, pat
		}
		vals := x.lgVals[len(x.lgArgs):][:len(args)]
		num.LgammaTo(vals, args)
		for i, j := range at {
			lg[j] = vals[i]
		}
		// log B(β_z + C_w(z, ·)) − log B(β_z) of every row with counts.
		clear(x.full[lo:hi])
		for i, r := range rows {
			f := x.full[r/k]
			for _, v := range lg[i*rowArgs : i*rowArgs+k] {
				f += v
			}
			x.full[r/k] = f - (lg[i*rowArgs+k] + lnB[r%k])
		}
	}
}

// countsBlock is the number of workers whose log Γ values counts takes in
// one batch.
const countsBlock = 64

// learn estimates the shares of the kinds and their priors by empirical
// Bayes, from the current values (the fit carries them from one pass to
// the next). For K > 2 it first takes one step on each precision κ_o and
// κ_c (dirichlet.Errors.PrecisionStep). Then every step sets each worker's
// probabilities of the kinds from its evidence (for K > 2 with the shares
// solved, kindsOf), every share to the mean of its probabilities over the
// workers with labels, and takes one step on the Beta priors for the
// likelihoods of their counts weighted by the workers' probabilities of
// their kinds: the one-coin counts (c_w, e_w) for (a, b), by betaStep at
// K = 2, and for K > 2 with the counts (c_wz, e_wz) of every row for
// (a_c, b_c), one joint step on both (priorsStep); until no value moves by more
// than mixTol of itself, or mixSteps times (classSteps for K > 2); then it
// sets every worker's probabilities.
func (x *Mix) Learn(k int) {
	cl := x.cls
	u := make([]float64, len(x.m))
	if cl != nil && !x.kapHeld {
		// One step on each precision, from the kinds' probabilities and
		// values under the current ones; a step of less than mixTol of
		// the precision is not taken, which spares refreshing the values.
		x.Weights()
		for w, m := range x.m {
			u[w] = max(1-m-cl.m[w], 0)
		}
		c := cl.counts()
		ko := cl.one.PrecisionStep(c, u, minSharedPrior, maxSharedConcentration)
		kc := cl.cls.PrecisionStep(c, cl.m, minSharedPrior, maxSharedConcentration)
		if !still(ko, cl.one.Kap) || !still(kc, cl.cls.Kap) {
			cl.one.Kap, cl.cls.Kap = ko, kc
			cl.fresh = false
		}
	}
	steps := mixSteps
	if cl != nil {
		steps = classSteps
	}
	for range steps {
		x.Weights()
		var s, sc, n float64
		for w, m := range x.m {
			u[w] = 0
			if x.c[w]+x.e[w] <= 0 {
				continue
			}
			s += m
			n++
			u[w] = 1 - m
			if cl != nil {
				sc += cl.m[w]
				u[w] = max(u[w]-cl.m[w], 0)
			}
		}
		if n == 0 {
			break
		}
		rho, rc := clampShares(s/n, sc/n, cl != nil)
		if x.sharesHeld && cl != nil {
			rho, rc = x.rho, cl.share
		}
		a, b := x.a, x.b
		done := still(rho, x.rho)
		if cl == nil {
			a, b = betaStep(x.a, x.b, x.c, x.e, u)
		} else {
			for w, m := range cl.m {
				for z := range k {
					cl.u[w*k+z] = m
				}
			}
			ac, bc := cl.a, cl.b
			if !x.betaHeld {
				a, b, ac, bc = x.priorsStep(u)
			}
			done = done && still(rc, cl.share) && still(ac, cl.a) && still(bc, cl.b)
			cl.share, cl.a, cl.b = rc, ac, bc
		}
		done = done && still(a, x.a) && still(b, x.b)
		x.rho, x.a, x.b = rho, a, b
		if done {
			break
		}
	}
	x.Weights()
}

// still reports whether next is within mixTol of prev, relative to prev.
func still(next, prev float64) bool { return math.Abs(next-prev) <= mixTol*prev }

// clampShares returns the shares of the full and the per-class kinds
// within their bounds: each, and the one-coin kind's, at least
// minMixShare; rc is 0 without the per-class kind.
func clampShares(rho, rc float64, class bool) (float64, float64) {
	if !class {
		return min(max(rho, minMixShare), 1-minMixShare), 0
	}
	rho, rc = max(rho, minMixShare), max(rc, minMixShare)
	if s := rho + rc; s > 1-minMixShare {
		// The excess comes off the parts of the shares above the bound.
		f := (1 - 3*minMixShare) / (s - 2*minMixShare)
		rho, rc = minMixShare+(rho-minMixShare)*f, minMixShare+(rc-minMixShare)*f
	}
	return rho, rc
}

// weights sets every worker's probabilities of the kinds from its
// evidence under the current hyperparameters.
func (x *Mix) Weights() {
	ab := num.LogBeta(x.a, x.b)
	cl := x.cls
	if cl == nil {
		logit := math.Log(x.rho / (1 - x.rho))
		for w := range x.m {
			coin := num.LogBeta(x.a+x.c[w], x.b+x.e[w]) - ab + x.pat[w]
			x.m[w] = 1 / (1 + math.Exp(-(logit + x.full[w] - coin)))
		}
		return
	}
	x.weightsClass(ab)
}

// shares returns worker w's probabilities of the full and the per-class
// kinds: its posterior ones, or (1, 0) when held (its pseudo-counts all
// held, see dsVB.mixHeld).
func (x *Mix) Shares(w int, held bool) (full, class float64) {
	if held {
		return 1, 0
	}
	if x.cls != nil {
		class = x.cls.m[w]
	}
	return x.m[w], class
}

// blend writes into elog (a worker's K×K E[log π], row-major, of the full
// kind) the average over the kinds for worker w (held: see shares), and
// returns the other kinds' shares of the divergence from the prior, the
// one-coin kind's KL(Beta) and the per-class kind's Σ_z KL(Beta_z), with
// their errors' Σ_z KL(Dirichlet) for K > 2, each weighed by the worker's
// probability of its kind, plus the kinds' own, KL(m ‖ ρ); the caller
// weighs the full kind's divergence by the full kind's probability.
//
// s holds the digammas of a range of workers including w (BlendScratch.Set).
func (x *Mix) Blend(w, k int, held bool, elog []float64, s *BlendScratch) float64 {
	m, mc := x.Shares(w, held)
	mo := max(1-m-mc, 0)
	pa, pb := x.a+x.c[w], x.b+x.e[w]
	psi := s.psi[(w-s.lo)*s.per:]
	ps := psi[0]
	right := psi[1] - ps
	wrong := psi[2] - ps
	// KL(Beta(pa, pb) ‖ Beta(a, b)).
	kl := mo * (s.ab - s.lb[w-s.lo] + (pa-x.a)*right + (pb-x.b)*wrong)
	cl := x.cls
	if cl == nil {
		for z := range k {
			for y := range k {
				v := wrong + x.lpat[z*k+y]
				if y == z {
					v = right
				}
				elog[z*k+y] = m*elog[z*k+y] + mo*v
			}
		}
	} else {
		kl += x.blendClass(w, m, mc, mo, right, wrong, elog, psi[3:], s)
	}
	rho, rc := x.rho, 0.0
	if cl != nil {
		rc = cl.share
	}
	for _, p := range [...][2]float64{{m, rho}, {mc, rc}, {mo, 1 - rho - rc}} {
		if p[0] > 0 {
			kl += p[0] * math.Log(p[0]/p[1])
		}
	}
	return kl
}

// BlendScratch holds what Blend reads for a range of workers, for one
// goroutine: the digammas of the workers [lo, lo + len(psi)/per), per
// worker ψ(pa + pb), ψ(pa) and ψ(pb) of its one-coin posterior and for
// K > 2 ψ(qa + qb), ψ(qa) and ψ(qb) of every row's per-class one, taken
// in one num.DigammaTo call (bit for bit num.Digamma's); log B of the
// priors, and the per-class rows' scratch.
type BlendScratch struct {
	lo, per     int
	ab, abc     float64
	psi, eo, ec []float64
	// lb holds every worker's log B(pa, pb) (num.LogBeta's values), lg
	// scratch of its log Γ.
	lb, lg []float64
}

// Set sets s for Blend of the workers [lo, hi) at K = k.
func (s *BlendScratch) Set(x *Mix, lo, hi, k int) {
	s.lo, s.per = lo, 3
	cl := x.cls
	if cl != nil {
		s.per += 3 * k
		s.abc = num.LogBeta(cl.a, cl.b)
		if len(s.eo) != k {
			s.eo, s.ec = make([]float64, k), make([]float64, k)
		}
	}
	s.ab = num.LogBeta(x.a, x.b)
	s.psi = s.psi[:0]
	for w := lo; w < hi; w++ {
		pa, pb := x.a+x.c[w], x.b+x.e[w]
		s.psi = append(s.psi, pa+pb, pa, pb)
		if cl == nil {
			continue
		}
		for z := range k {
			qa, qb := cl.a+cl.cz[w*k+z], cl.b+cl.ez[w*k+z]
			s.psi = append(s.psi, qa+qb, qa, qb)
		}
	}
	num.DigammaTo(s.psi, s.psi)
	n := hi - lo
	s.lg = s.lg[:0]
	for w := lo; w < hi; w++ {
		s.lg = append(s.lg, x.a+x.c[w])
	}
	for w := lo; w < hi; w++ {
		s.lg = append(s.lg, x.b+x.e[w])
	}
	for i := range n {
		s.lg = append(s.lg, s.lg[i]+s.lg[n+i])
	}
	s.lb = append(s.lb[:0], s.lg...) // room for the values
	num.LgammaTo(s.lb, s.lg)
	for i := range n {
		s.lb[i] = s.lb[i] + s.lb[n+i] - s.lb[2*n+i]
	}
}

// The positions of the hyperparameters at K > 2 counted back from the end
// of State's values: st[len(st)-TailA] is a, the one-coin prior's first
// pseudo-count.
const (
	TailRho  = 8 // ρ, the full kind's share
	TailA    = 7 // a
	TailB    = 6 // b
	TailRhoC = 5 // ρ_c, the per-class kind's share
	TailAC   = 4 // a_c
	TailBC   = 3 // b_c
	TailKapO = 2 // κ_o
	TailKapC = 1 // κ_c
)

// State appends the values the average is computed from, besides the
// pseudo-counts: the prior's rows β_z (K×K, by prior), the rows pat whose
// errors' shape is the kinds' pattern where they are learned apart from β
// (K×K; nil: none), ρ, a and b, and for K > 2 the per-class kind's share
// ρ_c, a_c, b_c, κ_o and κ_c.
func (x *Mix) State(dst []float64, k int, prior func(z, y int) float64, pat []float64) []float64 {
	for z := range k {
		for y := range k {
			dst = append(dst, prior(z, y))
		}
	}
	dst = append(dst, pat...)
	dst = append(dst, x.rho, x.a, x.b)
	if cl := x.cls; cl != nil {
		dst = append(dst, cl.share, cl.a, cl.b, cl.one.Kap, cl.cls.Kap)
	}
	return dst
}

// SetState sets the hyperparameters, the prior's rows into beta if it is
// not nil (an estimated prior) and the pattern's rows into pat if it is
// not nil, from what State wrote (with the same pat), each within
// its bounds: Load of Params starts a new posterior where another left
// off, and within a fit the state follows the pseudo-counts through the
// fit's SQUAREM steps, which extrapolate it with them (on the shipped data
// sets the fits take 23 to 303 passes this way, against 42 to 550 with
// the state learned by Update alone).
func (x *Mix) SetState(s []float64, k int, beta, pat []float64) {
	for i := range beta { // nil: a fixed prior
		beta[i] = max(s[i], minSharedPrior)
	}
	s = s[k*k:]
	for i := range pat {
		pat[i] = max(s[i], minSharedPrior)
	}
	s = s[len(pat):]
	x.a, x.b = max(s[1], minSharedPrior), max(s[2], minSharedPrior)
	cl := x.cls
	if cl == nil || len(s) < 8 {
		x.rho, _ = clampShares(s[0], 0, false)
		return
	}
	x.rho, cl.share = clampShares(s[0], s[3], true)
	cl.a, cl.b = max(s[4], minSharedPrior), max(s[5], minSharedPrior)
	ko := min(max(s[6], minSharedPrior), maxSharedConcentration)
	kc := min(max(s[7], minSharedPrior), maxSharedConcentration)
	// The errors' values change with the precisions alone here.
	if ko != cl.one.Kap || kc != cl.cls.Kap {
		cl.one.Kap, cl.cls.Kap = ko, kc
		cl.fresh = false
	}
}

// mean writes worker w's posterior mean P(y | z) over the kinds (held:
// see shares), given the full kind's row mean full.
func (x *Mix) Mean(w, z int, held bool, full []float64) {
	m, mc := x.Shares(w, held)
	mo := max(1-m-mc, 0)
	k := len(full)
	pa, pb := x.a+x.c[w], x.b+x.e[w]
	right := pa / (pa + pb)
	cl := x.cls
	for y := range full {
		var v, vc float64
		switch {
		case y == z:
			v = right
			if cl != nil {
				vc = (cl.a + cl.cz[w*k+z]) / (cl.a + cl.b + cl.cz[w*k+z] + cl.ez[w*k+z])
			}
		case cl == nil:
			v = (1 - right) * x.mu[z*k+y]
		default:
			mu, n, ez := x.mu[z*k+y], cl.off[(w*k+z)*k+y], cl.ez[w*k+z]
			v = (1 - right) * (cl.one.Kap*mu + n) / (cl.one.Kap + ez)
			qa, qb := cl.a+cl.cz[w*k+z], cl.b+ez
			vc = qb / (qa + qb) * (cl.cls.Kap*mu + n) / (cl.cls.Kap + ez)
		}
		full[y] = m*full[y] + mo*v + mc*vc
	}
}
