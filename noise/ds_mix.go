package noise

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// dsMix averages every worker's confusion matrix over two kinds of worker
// (DS.Averaged): a full matrix, rows π_w(z, ·) ~ Dirichlet(β_z), and a
// one-coin one, P(y | z) = a_w for y = z and (1 − a_w) μ_z(y) otherwise,
// with a_w ~ Beta(a, b) and μ_z the prior's errors, β_z off the diagonal
// normalised (uniform under the fixed prior). Given a worker's expected
// counts C_w(z, y), each kind's evidence is the marginal likelihood of the
// counts with its parameters integrated out,
//
//	F_full = Σ_z log B(β_z + C_w(z, ·)) − log B(β_z),
//	F_coin = log B(a + c, b + e) − log B(a, b) + Σ_{y≠z} C_w(z, y) log μ_z(y),
//
// c = Σ_z C_w(z, z) and e the rest, and the worker is of the full kind with
// posterior probability m_w = σ(logit ρ + F_full − F_coin). The E-step
// reads the average E[log P(y | z)] = m_w E_full[log π_w(z, y)] + (1 − m_w)
// E_coin[log P(y | z)]. The share ρ of full workers and the Beta prior
// (a, b) are estimated from all workers by empirical Bayes (learn). A
// worker with few labels is then one-coin, one number borrowed from the
// crowd's accuracies; a busy one with a systematic confusion is full.
type dsMix struct {
	rho  float64   // the share of full workers
	a, b float64   // the one-coin prior's pseudo-counts
	m    []float64 // every worker's posterior probability of the full kind
	// Per worker, from the last counts: the full kind's log evidence and
	// the one-coin counts c (diagonal) and e (off it).
	full, c, e []float64
	// pat holds, per worker, Σ_{z ≠ y} C_w(z, y) log μ_z(y); lpat the
	// pattern's logarithms log μ_z(y), K×K (0 on the diagonal).
	pat, lpat []float64
}

// Bounds of the mixture's hyperparameters and the steps of their fixed
// point a pass.
const (
	minMixShare = 0.02
	mixSteps    = 100
	mixTol      = 1e-6
)

func newDSMix(w, k int, diag, off float64) *dsMix {
	return &dsMix{rho: 0.5, a: diag, b: off * float64(k-1), m: make([]float64, w),
		full: make([]float64, w), c: make([]float64, w), e: make([]float64, w),
		pat: make([]float64, w), lpat: make([]float64, k*k)}
}

// counts sets every worker's one-coin counts and full-kind evidence from
// the expected counts acc (laid out as dsVB's) under the prior rows prior.
func (x *dsMix) counts(acc []float64, k int, prior func(z, y int) float64) {
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
				s += pr[z*k+y]
			}
		}
		lg, _ := math.Lgamma(sums[z])
		lnB[z] -= lg
		for y := range k {
			x.lpat[z*k+y] = 0
			if y != z {
				x.lpat[z*k+y] = math.Log(pr[z*k+y] / s)
			}
		}
	}
	for w := range x.m {
		base := w * k2
		var c, e, f, pat float64
		for z := range k {
			var nz float64
			for y := range k {
				n := max(acc[countAt(base, k, z, y)], 0)
				if n == 0 {
					continue
				}
				nz += n
				if y == z {
					c += n
				} else {
					e += n
					pat += n * x.lpat[z*k+y]
				}
			}
			if nz == 0 {
				continue // the row's evidence is 1
			}
			// log B(β_z + C_w(z, ·)) − log B(β_z).
			for y := range k {
				lg, _ := math.Lgamma(pr[z*k+y] + max(acc[countAt(base, k, z, y)], 0))
				f += lg
			}
			lg, _ := math.Lgamma(sums[z] + nz)
			f -= lg + lnB[z]
		}
		x.c[w], x.e[w], x.full[w], x.pat[w] = c, e, f, pat
	}
}

// learn estimates the share ρ of full workers and the one-coin prior
// (a, b) by empirical Bayes, from the current values (the fit carries them
// from one pass to the next). Every step sets each m_w from its evidence,
// ρ = mean_w m_w, and takes one Newton step on (a, b) for the
// Beta-binomial likelihood of the workers' one-coin counts (c_w, e_w)
// weighted by u_w = 1 − m_w,
//
//	L(a, b) = Σ_w u_w [log B(a + c_w, b + e_w) − log B(a, b)],
//
// whose gradient and Hessian are sums of digammas and trigammas (Minka's
// fixed point, Estimating a Dirichlet distribution, 2000, eq. 55, where
// the Hessian is not negative definite), until no value moves by more
// than mixTol of itself, or mixSteps times; then it sets every m_w.
func (x *dsMix) learn(k int) {
	for range mixSteps {
		x.weights()
		var s, n float64
		var ga, gb, haa, hbb, hab, den float64
		pa, pb, pab := num.Digamma(x.a), num.Digamma(x.b), num.Digamma(x.a+x.b)
		ta, tb, tab := num.Trigamma(x.a), num.Trigamma(x.b), num.Trigamma(x.a+x.b)
		for w, m := range x.m {
			t := x.c[w] + x.e[w]
			if t <= 0 {
				continue
			}
			s += m
			n++
			u := 1 - m
			if u < 1e-12 {
				continue
			}
			dn, tn := num.Digamma(x.a+x.b+t), num.Trigamma(x.a+x.b+t)
			ga += u * (num.Digamma(x.a+x.c[w]) - pa)
			gb += u * (num.Digamma(x.b+x.e[w]) - pb)
			den += u * (dn - pab)
			haa += u * (num.Trigamma(x.a+x.c[w]) - ta)
			hbb += u * (num.Trigamma(x.b+x.e[w]) - tb)
			hab += u * (tab - tn)
		}
		if n == 0 {
			break
		}
		rho := min(max(s/n, minMixShare), 1-minMixShare)
		a, b := x.a, x.b
		if den > 0 && ga > 0 && gb > 0 {
			// The gradient is (ga − den, gb − den); the Hessian adds the
			// cross term hab to both diagonal entries.
			a, b = x.a*ga/den, x.b*gb/den // the fixed point's step
			haa, hbb = haa+hab, hbb+hab
			if det := haa*hbb - hab*hab; haa < 0 && det > 0 {
				fa, fb := ga-den, gb-den
				da := -(hbb*fa - hab*fb) / det
				db := -(haa*fb - hab*fa) / det
				// At most halve or double a value in one step.
				step := 1.0
				for _, r := range [...]float64{da / x.a, db / x.b} {
					if r < -0.5 {
						step = min(step, -0.5/r)
					} else if r > 1 {
						step = min(step, 1/r)
					}
				}
				a, b = x.a+step*da, x.b+step*db
			}
			a, b = max(a, minSharedPrior), max(b, minSharedPrior)
			scale := min(1, maxSharedConcentration/(a+b))
			a, b = a*scale, b*scale
		}
		done := math.Abs(rho-x.rho) <= mixTol*x.rho && math.Abs(a-x.a) <= mixTol*x.a && math.Abs(b-x.b) <= mixTol*x.b
		x.rho, x.a, x.b = rho, a, b
		if done {
			break
		}
	}
	x.weights()
}

// weights sets every m_w from its evidence under the current
// hyperparameters.
func (x *dsMix) weights() {
	ab := num.LogBeta(x.a, x.b)
	logit := math.Log(x.rho / (1 - x.rho))
	for w := range x.m {
		coin := num.LogBeta(x.a+x.c[w], x.b+x.e[w]) - ab + x.pat[w]
		x.m[w] = 1 / (1 + math.Exp(-(logit + x.full[w] - coin)))
	}
}

// blend writes into elog (a worker's K×K E[log π], row-major, of the full
// kind) the average over the kinds for worker w, whose weight of the full
// kind is m, and returns the one-coin kind's share of the divergence from
// the prior, (1 − m) KL(Beta), plus the kinds' own, KL(m ‖ ρ); the caller
// weighs the full kind's divergence by m.
func (x *dsMix) blend(w, k int, m float64, elog []float64) float64 {
	pa, pb := x.a+x.c[w], x.b+x.e[w]
	ps := num.Digamma(pa + pb)
	right := num.Digamma(pa) - ps
	wrong := num.Digamma(pb) - ps
	for z := range k {
		for y := range k {
			v := wrong + x.lpat[z*k+y]
			if y == z {
				v = right
			}
			elog[z*k+y] = m*elog[z*k+y] + (1-m)*v
		}
	}
	// KL(Beta(pa, pb) ‖ Beta(a, b)).
	klb := num.LogBeta(x.a, x.b) - num.LogBeta(pa, pb) + (pa-x.a)*right + (pb-x.b)*wrong
	kl := (1 - m) * klb
	if m > 0 {
		kl += m * math.Log(m/x.rho)
	}
	if m < 1 {
		kl += (1 - m) * math.Log((1-m)/(1-x.rho))
	}
	return kl
}

// state appends the values the average is computed from, besides the
// pseudo-counts: the prior's rows β_z (K×K, by prior), ρ, a and b.
func (x *dsMix) state(dst []float64, k int, prior func(z, y int) float64) []float64 {
	for z := range k {
		for y := range k {
			dst = append(dst, prior(z, y))
		}
	}
	return append(dst, x.rho, x.a, x.b)
}

// setState sets ρ, a and b, and the prior's rows into beta if it is not
// nil (an estimated prior), from what state wrote, each within its
// bounds: Load of Params starts a new posterior where another left off,
// and within a fit the state follows the pseudo-counts through the fit's
// SQUAREM steps, which extrapolate it with them (on the shipped data sets
// the fits take 23 to 303 passes this way, against 42 to 550 with the
// state learned by Update alone).
func (x *dsMix) setState(s []float64, k int, beta []float64) {
	for i := range beta { // nil: a fixed prior
		beta[i] = max(s[i], minSharedPrior)
	}
	x.rho = min(max(s[k*k], minMixShare), 1-minMixShare)
	x.a, x.b = max(s[k*k+1], minSharedPrior), max(s[k*k+2], minSharedPrior)
}

// mean writes worker w's posterior mean P(y | z) over the kinds, given the
// full kind's row mean full.
func (x *dsMix) mean(w, z int, m float64, full []float64) {
	k := len(full)
	pa, pb := x.a+x.c[w], x.b+x.e[w]
	right := pa / (pa + pb)
	for y := range full {
		v := (1 - right) * math.Exp(x.lpat[z*k+y])
		if y == z {
			v = right
		}
		full[y] = m*full[y] + (1-m)*v
	}
}
