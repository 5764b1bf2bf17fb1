package noise

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
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

// dsClass is dsMix's per-class kind and the Dirichlet errors of the
// one-coin and per-class kinds, for K > 2.
type dsClass struct {
	k     int       // the number of classes
	share float64   // ρ_c
	a, b  float64   // (a_c, b_c)
	m     []float64 // every worker's posterior probability of the kind
	// one and cls are the errors of the one-coin and the per-class kind.
	one, cls errKind
	// Every worker's counts c_z and e_z of each row, W×K, and its counts
	// off the diagonal, W×K×K, row-major (0 on the diagonal).
	cz, ez, off []float64
	// lb holds log B(a_c + c_wz, b_c + e_wz) of every row, W×K, from the
	// last weights.
	lb []float64
	// fresh says that one and cls hold the values of the current counts
	// and precisions (refresh).
	fresh bool
	u     []float64 // scratch of W×K weights
	args  []float64 // scratch of W×K×K arguments
	// betaArgs is scratch of 6·W·K: the arguments of lb's log Γ and
	// their values.
	betaArgs []float64
}

// errKind holds one kind's errors, ε_wz ~ Dirichlet(κ μ_z) over the
// classes y ≠ z, and the values of the special functions that their
// evidence, expectations and precision read, computed for all workers at
// once (refresh) in vectorised batches (num.LgammaTo, num.DigammaTo).
type errKind struct {
	kap float64 // the precision κ
	// lg0 and ps0 hold log Γ and ψ of the prior's pseudo-counts: κ μ_z(y)
	// at z·K + y for y ≠ z, and κ at z·K + z.
	lg0, ps0 []float64
	// lg and ps hold log Γ and ψ of every worker's posterior pseudo-counts:
	// κ μ_z(y) + C_w(z, y) at w·K² + z·K + y for y ≠ z, and κ + e_wz at
	// w·K² + z·K + z.
	lg, ps []float64
	ev     []float64 // every worker's log evidence of its errors, E_w(κ)
}

func newDSClass(w, k int, diag, off float64) *dsClass {
	// The errors start held to the crowd's pattern.
	return &dsClass{k: k, share: 1.0 / 3, a: diag, b: off * float64(k-1),
		one: newErrKind(maxSharedConcentration, k, w), cls: newErrKind(maxSharedConcentration, k, w),
		m: make([]float64, w), cz: make([]float64, w*k), ez: make([]float64, w*k),
		off: make([]float64, w*k*k), lb: make([]float64, w*k),
		u: make([]float64, w*k), args: make([]float64, w*k*k), betaArgs: make([]float64, 6*w*k)}
}

// newErrKind returns the errors of precision kap of w workers at K = k,
// with none of their values yet (fill).
func newErrKind(kap float64, k, w int) errKind {
	return errKind{kap: kap, lg0: make([]float64, k*k), ps0: make([]float64, k*k),
		lg: make([]float64, w*k*k), ps: make([]float64, w*k*k), ev: make([]float64, w)}
}

// refresh sets both kinds' values (errKind) for the current counts,
// precisions and the pattern's logarithms lpat, unless they are fresh.
func (cl *dsClass) refresh(lpat []float64) {
	if cl.fresh {
		return
	}
	cl.one.fill(cl, lpat)
	cl.cls.fill(cl, lpat)
	cl.fresh = true
}

// fill sets e's values at its precision for the counts of cl, and every
// worker's evidence E_w(κ) = Σ_z log B(κ μ_z + C_w(z, ≠z)) − log B(κ μ_z),
//
//	E_w(κ) = Σ_z [log Γ(κ) − log Γ(κ + e_wz) + Σ_{y≠z} log Γ(κ μ_z(y) + C_w(z, y)) − log Γ(κ μ_z(y))].
func (e *errKind) fill(cl *dsClass, lpat []float64) {
	k := cl.k
	k2 := k * k
	p0 := cl.args[:k2]
	for i := range p0 {
		p0[i] = e.kap
		if i/k != i%k {
			p0[i] = e.kap * math.Exp(lpat[i])
		}
	}
	num.LgammaTo(e.lg0, p0)
	num.DigammaTo(e.ps0, p0)
	// The prior's pseudo-counts are read back from the last row of args,
	// which every worker's arguments overwrite after it is read.
	last := len(cl.args) - k2
	copy(cl.args[last:], p0)
	for w := range e.ev {
		for z := range k {
			for y := range k {
				i := z*k + y
				n := cl.off[w*k2+i]
				if y == z {
					n = cl.ez[w*k+z]
				}
				cl.args[w*k2+i] = cl.args[last+i] + n
			}
		}
	}
	num.LgammaTo(e.lg, cl.args)
	num.DigammaTo(e.ps, cl.args)
	for w := range e.ev {
		var f float64
		lg := e.lg[w*k2 : (w+1)*k2]
		for i, v := range lg {
			if i/k == i%k {
				f += e.lg0[i] - v
			} else {
				f += v - e.lg0[i]
			}
		}
		e.ev[w] = f
	}
}

// errRow writes into errs worker w's E[log ε_wz(y)] = ψ(κ μ_z(y) +
// C_w(z, y)) − ψ(κ + e_wz) for y ≠ z (0 at y = z) under the errors'
// posterior Dirichlet(κ μ_z + C_w(z, ≠z)) of kind e, and returns its
// divergence from the prior Dirichlet(κ μ_z). e must be fresh.
func (cl *dsClass) errRow(w, z int, e *errKind, errs []float64) float64 {
	k := cl.k
	i0 := (w*k + z) * k
	lg, ps := e.lg[i0:i0+k], e.ps[i0:i0+k]
	kl := lg[z] - e.lg0[z*k+z]
	for y, n := range cl.off[i0 : i0+k] {
		if y == z {
			errs[y] = 0
			continue
		}
		errs[y] = ps[y] - ps[z]
		if n > 0 {
			kl += e.lg0[z*k+y] - lg[y] + n*errs[y]
		}
	}
	return kl
}

// precisionStep returns e's precision after one step towards the
// maximiser of the likelihood of the workers' errors of every row,
// weighted by u_w, under Dirichlet(κ μ_z) errors of known mean μ_z,
//
//	L(κ) = Σ_w u_w Σ_z [log Γ(κ) − log Γ(κ + e_wz) + Σ_{y≠z} log Γ(κ μ_z(y) + C_w(z, y)) − log Γ(κ μ_z(y))],
//
// with gradient g = Σ_w u_w Σ_z [ψ(κ) − ψ(κ + e_wz) + Σ_{y≠z} μ_z(y) (ψ(κ μ_z(y) + C_w(z, y)) − ψ(κ μ_z(y)))]
// and second derivative h, the same sums over trigammas with μ_z(y)²:
// Newton's step in t = log κ, t ← t − κg / (κg + κ²h), where that
// curvature is negative (Minka, Estimating a Dirichlet distribution, 2000,
// section 3.2), changing κ by at most a factor of e, and otherwise Minka's
// fixed point κ ← κ (g + D) / D with D = Σ_w u_w Σ_z [ψ(κ + e_wz) − ψ(κ)]
// (eq. 118); κ at least minSharedPrior and at most maxSharedConcentration.
// The digammas are e's (it must be fresh); only the trigammas are
// computed here.
func (cl *dsClass) precisionStep(e *errKind, u, lpat []float64) float64 {
	k := cl.k
	k2 := k * k
	kap := e.kap
	var top, den, h float64
	pk, tk := e.ps0[0], num.Trigamma(kap)
	// μ_z(y) and ψ'(κ μ_z(y)), once for all workers.
	mu, tm := make([]float64, k2), make([]float64, k2)
	for i := range mu {
		if i/k != i%k {
			mu[i] = math.Exp(lpat[i])
			tm[i] = num.Trigamma(kap * mu[i])
		}
	}
	for i, ez := range cl.ez {
		w, z := i/k, i%k
		if u[w] < 1e-12 || ez <= 0 {
			continue
		}
		ps := e.ps[i*k : (i+1)*k]
		den += u[w] * (ps[z] - pk)
		h += u[w] * (tk - num.Trigamma(kap+ez))
		var t, th float64
		for y, n := range cl.off[i*k : (i+1)*k] {
			if n > 0 {
				m := mu[z*k+y]
				t += m * (ps[y] - e.ps0[z*k+y])
				th += m * m * (num.Trigamma(kap*m+n) - tm[z*k+y])
			}
		}
		top += u[w] * t
		h += u[w] * th
	}
	if den <= 0 || top <= 0 {
		return kap
	}
	g := top - den
	next := kap * top / den
	if c := kap*g + kap*kap*h; c < 0 {
		next = kap * math.Exp(max(min(-kap*g/c, 1), -1))
	}
	return min(max(next, minSharedPrior), maxSharedConcentration)
}

// weightsClass is weights for K > 2, with the per-class kind: every
// worker's three evidences (dsMix), from the errors' values (refresh) and
// log B(a_c + c_wz, b_c + e_wz) of every row, which it keeps in lb for
// blend; ab is log B(a, b).
func (x *dsMix) weightsClass(ab float64) {
	cl := x.cls
	k := cl.k
	cl.refresh(x.lpat)
	// log B(a_c + c_wz, b_c + e_wz) of every row, by one batch of log Γ.
	n := len(cl.cz)
	args, lg := cl.betaArgs[:3*n], cl.betaArgs[3*n:]
	for i, cz := range cl.cz {
		ez := cl.ez[i]
		args[i], args[n+i], args[2*n+i] = cl.a+cz, cl.b+ez, cl.a+cl.b+cz+ez
	}
	num.LgammaTo(lg, args)
	for i := range cl.lb {
		cl.lb[i] = lg[i] + lg[n+i] - lg[2*n+i]
	}
	lbc := num.LogBeta(cl.a, cl.b)
	lf, lc, lo := math.Log(x.rho), math.Log(cl.share), math.Log(1-x.rho-cl.share)
	for w := range x.m {
		coin := lo + num.LogBeta(x.a+x.c[w], x.b+x.e[w]) - ab + cl.one.ev[w]
		cls := lc + cl.cls.ev[w]
		for z := range k {
			cls += cl.lb[w*k+z] - lbc
		}
		full := lf + x.full[w]
		top := max(coin, cls, full)
		pf, pc, po := math.Exp(full-top), math.Exp(cls-top), math.Exp(coin-top)
		s := pf + pc + po
		x.m[w], cl.m[w] = pf/s, pc/s
	}
}

// blendClass is blend's average for K > 2: into elog (the full kind's
// E[log π] of worker w, weight m) it mixes the one-coin kind's (weight mo;
// right and wrong are its E[log a_w] and E[log(1 − a_w)]) and the
// per-class kind's (weight mc), each with its errors' E[log ε_wz]
// (errRow), and it returns their weighted divergences from the priors.
func (x *dsMix) blendClass(w int, m, mc, mo, right, wrong float64, elog []float64) float64 {
	cl := x.cls
	k := cl.k
	var kl float64
	lbc := num.LogBeta(cl.a, cl.b)
	eo, ec := make([]float64, k), make([]float64, k)
	for z := range k {
		qa, qb := cl.a+cl.cz[w*k+z], cl.b+cl.ez[w*k+z]
		qs := num.Digamma(qa + qb)
		cr, cw := num.Digamma(qa)-qs, num.Digamma(qb)-qs
		klo := cl.errRow(w, z, &cl.one, eo)
		klc := cl.errRow(w, z, &cl.cls, ec)
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
