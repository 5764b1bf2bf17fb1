package dsmix

import (
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/noise/internal/betaprior"
	"github.com/consensuslab/consensus/noise/internal/dirichlet"
)

// betaStep returns num.BetaBinomialStep's step from (a, b) for the
// counts (c_i, e_i) weighted by u_i, every value at least minSharedPrior
// and a + b at most maxSharedConcentration.
func betaStep(a, b float64, c, e, u []float64) (float64, float64) {
	na, nb := num.BetaBinomialStep(a, b, c, e, u)
	na, nb = max(na, minSharedPrior), max(nb, minSharedPrior)
	scale := min(1, maxSharedConcentration/(na+nb))
	return na * scale, nb * scale
}

// priorBounds are the Beta priors' bounds, as betaStep's.
var priorBounds = betaprior.Bounds{Min: minSharedPrior, MaxSum: maxSharedConcentration}

// priorsStep returns one joint step (betaprior.Bounds.Step) on the
// one-coin prior (a, b), for the one-coin counts (c_w, e_w) weighted by
// u, and the per-class prior (a_c, b_c), for the rows' counts weighted by
// cl.u: their means free, their log concentrations shrunk toward each
// other with the strength by empirical Bayes (package betaprior).
func (x *Mix) priorsStep(u []float64) (a, b, ac, bc float64) {
	cl := x.cls
	gO, hO := betaprior.Derivs(x.a, x.b, x.c, x.e, u)
	gC, hC := betaprior.Derivs(cl.a, cl.b, cl.cz, cl.ez, cl.u)
	return priorBounds.Step(x.a, x.b, cl.a, cl.b, gO, gC, hO, hC)
}

// dsClass is Mix's per-class kind and the Dirichlet errors of the
// one-coin and per-class kinds, for K > 2.
type dsClass struct {
	k     int       // the number of classes
	share float64   // ρ_c
	a, b  float64   // (a_c, b_c)
	m     []float64 // every worker's posterior probability of the kind
	// one and cls are the errors of the one-coin and the per-class kind.
	one, cls *dirichlet.Errors
	// Every worker's counts c_z and e_z of each row, W×K, and its counts
	// off the diagonal, W×K×K, row-major (0 on the diagonal).
	cz, ez, off []float64
	// lb holds log B(a_c + c_wz, b_c + e_wz) of every row, W×K, from the
	// last weights; kinds every worker's evidences F_full, F_class and
	// F_coin, W×3, lik their exponentials, scaled, and sel scratch.
	lb, kinds, lik, sel []float64
	// fresh says that one and cls hold the values of the current counts
	// and precisions (refresh).
	fresh   bool
	u       []float64 // scratch of W×K weights
	scratch dirichlet.Scratch
	// betaArgs is scratch of 6·W·(K + 1): the arguments of lb's log Γ
	// and the one-coin kind's, and their values.
	betaArgs []float64
}

func newDSClass(w, k int, diag, off float64) *dsClass {
	// The errors start held to the crowd's pattern.
	return &dsClass{k: k, share: 1.0 / 3, a: diag, b: off * float64(k-1),
		one: dirichlet.New(maxSharedConcentration, k, w), cls: dirichlet.New(maxSharedConcentration, k, w),
		m: make([]float64, w), cz: make([]float64, w*k), ez: make([]float64, w*k),
		off: make([]float64, w*k*k), lb: make([]float64, w*k), kinds: make([]float64, 3*w), lik: make([]float64, 3*w), sel: make([]float64, 3*w),
		u: make([]float64, w*k), betaArgs: make([]float64, 6*w*(k+1))}
}

// counts returns the workers' counts the errors read.
func (cl *dsClass) counts() dirichlet.Counts { return dirichlet.Counts{K: cl.k, Off: cl.off, E: cl.ez} }

// refresh sets both kinds' values (dirichlet.Errors.Fill) for the current counts,
// precisions and the pattern's logarithms lpat, unless they are fresh.
func (cl *dsClass) refresh(lpat []float64) {
	if cl.fresh {
		return
	}
	c := cl.counts()
	dirichlet.FillAll(c, lpat, &cl.scratch, cl.one, cl.cls)
	cl.fresh = true
}

// weightsClass is weights for K > 2, with the per-class kind: every
// worker's three evidences (Mix), from the errors' values (refresh) and
// log B(a_c + c_wz, b_c + e_wz) of every row, which it keeps in lb for
// blend; ab is log B(a, b).
func (x *Mix) weightsClass(ab float64) {
	cl := x.cls
	k := cl.k
	cl.refresh(x.lpat)
	// log B(a_c + c_wz, b_c + e_wz) of every row, and every worker's
	// log B(a + c_w, b + e_w), by one batch of log Γ (num.LogBeta's
	// values).
	n, nw := len(cl.cz), len(x.m)
	args, lg := cl.betaArgs[:3*(n+nw)], cl.betaArgs[3*(n+nw):]
	for i, cz := range cl.cz {
		ez := cl.ez[i]
		args[i], args[n+i], args[2*n+i] = cl.a+cz, cl.b+ez, cl.a+cl.b+cz+ez
	}
	for w := range nw {
		pa, pb := x.a+x.c[w], x.b+x.e[w]
		args[3*n+w], args[3*n+nw+w], args[3*n+2*nw+w] = pa, pb, pa+pb
	}
	num.LgammaTo(lg, args)
	for i := range cl.lb {
		cl.lb[i] = lg[i] + lg[n+i] - lg[2*n+i]
	}
	coin := lg[3*n:]
	lbc := num.LogBeta(cl.a, cl.b)
	for w := range x.m {
		f := cl.kinds[3*w : 3*w+3]
		f[0], f[1], f[2] = x.full[w], cl.cls.Ev[w], coin[w]+coin[nw+w]-coin[2*nw+w]-ab+cl.one.Ev[w]
		for z := range k {
			f[1] += cl.lb[w*k+z] - lbc
		}
	}
	x.kindsOf()
}

// kindsOf sets the shares of the kinds to the maximiser of the likelihood
// of the workers' evidences F_wk (left in kinds by weightsClass) over the
// workers with labels, Σ_w log Σ_k ρ_k e^{F_wk}, each share at least
// minMixShare (num.MixtureWeights), and then every worker's probabilities
// of the kinds, ∝ ρ_k e^{F_wk}. The shares are thus a function of the
// evidences, the same in Load as in Update: EM's steps on them crawled
// where two kinds explain most workers alike, as the one-coin and the
// per-class kinds do workers of a few labels (779 passes, against 42, on
// 4,000 tasks of 5 labels by 4,000 workers at K = 10).
func (x *Mix) kindsOf() {
	cl := x.cls
	lik := cl.sel[:0]
	for w := range x.m {
		f := cl.kinds[3*w : 3*w+3]
		top := max(f[0], f[1], f[2])
		cl.lik[3*w], cl.lik[3*w+1], cl.lik[3*w+2] = f[0]-top, f[1]-top, f[2]-top
	}
	num.MathExpTo(cl.lik, cl.lik) // math.Exp's values
	for w := range x.m {
		if x.c[w]+x.e[w] > 0 {
			lik = append(lik, cl.lik[3*w:3*w+3]...)
		}
	}
	if len(lik) > 0 && !x.sharesHeld {
		p := []float64{x.rho, cl.share, 1 - x.rho - cl.share}
		num.MixtureWeights(lik, 3, minMixShare, p)
		x.rho, cl.share = p[0], p[1]
	}
	for w := range x.m {
		l := cl.lik[3*w : 3*w+3]
		pf, pc, po := x.rho*l[0], cl.share*l[1], (1-x.rho-cl.share)*l[2]
		s := pf + pc + po
		x.m[w], cl.m[w] = pf/s, pc/s
	}
}

// blendClass is blend's average for K > 2: into elog (the full kind's
// E[log π] of worker w, weight m) it mixes the one-coin kind's (weight mo;
// right and wrong are its E[log a_w] and E[log(1 − a_w)]) and the
// per-class kind's (weight mc), each with its errors' E[log ε_wz]
// (errRow), and it returns their weighted divergences from the priors.
// psi holds the rows' digammas (BlendScratch).
func (x *Mix) blendClass(w int, m, mc, mo, right, wrong float64, elog, psi []float64, s *BlendScratch) float64 {
	cl := x.cls
	k := cl.k
	var kl float64
	lbc := s.abc
	eo, ec := s.eo, s.ec
	for z := range k {
		qa, qb := cl.a+cl.cz[w*k+z], cl.b+cl.ez[w*k+z]
		qs := psi[3*z]
		cr, cw := psi[3*z+1]-qs, psi[3*z+2]-qs
		klo := cl.one.Row(cl.counts(), w, z, eo)
		klc := cl.cls.Row(cl.counts(), w, z, ec)
		// KL(Beta(qa, qb) ‖ Beta(a_c, b_c)).
		klc += lbc - cl.lb[w*k+z] + (qa-cl.a)*cr + (qb-cl.b)*cw
		kl += mo*klo + mc*klc
		for y := range k {
			v, vc := wrong+eo[y], cw+ec[y]
			if y == z {
				v, vc = right, cr
			}
			elog[z*k+y] = m*elog[z*k+y] + mo*v + mc*vc
		}
	}
	return kl
}
