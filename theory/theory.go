package theory

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/combin"

	"github.com/consensuslab/consensus/internal/num"
)

// LabelProb returns the probability that one noisy label of the object is 1
// under the DA generating process,
//
//	f(q) = q·a + (1-q)·(1-a),
//
// where q is the probability of the latent label 1 and a the probability
// that a worker reports the latent label correctly. It panics if q or a is
// not in [0, 1].
func LabelProb(q, a float64) float64 {
	checkProb("q", q)
	checkProb("a", a)
	return q*a + (1-q)*(1-a)
}

// LAPosterior returns the LA estimate of q, the posterior probability that
// the single true label of the object is 1 after n1 ones among n noisy
// labels, each correct with probability a, under the prior P(z = 1) = r:
//
//	q̂^LA(n1) = r·aⁿ¹(1-a)ⁿ⁻ⁿ¹ / (r·aⁿ¹(1-a)ⁿ⁻ⁿ¹ + (1-r)·(1-a)ⁿ¹aⁿ⁻ⁿ¹).
//
// It is computed in log space, as the logistic function of the log odds
//
//	logit q̂^LA = log(r/(1-r)) + (2·n1 - n)·log(a/(1-a)),
//
// so it neither underflows nor loses precision for large n (n = 10000 is
// fine, where the direct formula gives 0/0). For n = 0 it returns r, and
// for a = 1/2 it returns r whatever n1.
//
// LAPosterior returns NaN if the observed labels have probability zero
// under both classes, for instance a = 1 with 0 < n1 < n, or a = 1, n1 = n
// and r = 0. It panics if a or r is not in [0, 1] or n1 is not in [0, n].
func LAPosterior(n1, n int, a, r float64) float64 {
	checkCount(n1, n)
	checkProb("a", a)
	checkProb("r", r)
	if a > 0 && a < 1 && r > 0 && r < 1 {
		// Interior: the log odds without cancellation.
		return num.Sigmoid(math.Log(r) - math.Log1p(-r) + float64(2*n1-n)*(math.Log(a)-math.Log1p(-a)))
	}
	m1, m0 := float64(n1), float64(n-n1)
	l1 := math.Log(r) + xlogy(m1, a) + xlogy(m0, 1-a)
	l0 := math.Log1p(-r) + xlogy(m1, 1-a) + xlogy(m0, a)
	switch {
	case math.IsInf(l1, -1) && math.IsInf(l0, -1):
		return math.NaN()
	case math.IsInf(l1, -1):
		return 0
	case math.IsInf(l0, -1):
		return 1
	}
	return num.Sigmoid(l1 - l0)
}

// Expectation returns the expectation of an estimator est(n1) of q when the
// number N1 of ones among n noisy labels follows the DA generating process,
// N1 ~ Binomial(n, f(q)) with f = LabelProb:
//
//	E[est] = Σ_{n1=0}^{n} est(n1) · C(n, n1) f(q)ⁿ¹ (1-f(q))ⁿ⁻ⁿ¹.
//
// The binomial weights are computed in log space and normalized to sum to
// 1, which cancels the rounding of the log-gamma coefficients; est is not
// called where the weight is zero. It panics if q or a is not in [0, 1] or
// n < 0.
func Expectation(q, a float64, n int, est func(n1 int) float64) float64 {
	if n < 0 {
		panic(fmt.Sprintf("theory: n = %d labels, need n ≥ 0", n))
	}
	p := LabelProb(q, a)
	var sum, norm float64
	for n1 := 0; n1 <= n; n1++ {
		w := math.Exp(logBinomPMF(n1, n, p))
		if w == 0 {
			continue
		}
		sum += w * est(n1)
		norm += w
	}
	return sum / norm
}

// ExpectedLA returns the expectation of the LA estimate LAPosterior under
// the DA generating process with true parameter q, the paper's equation for
// E(q̂^LA) in appendix A:
//
//	E[q̂^LA] = Σ_{n1=0}^{n} q̂^LA(n1) · C(n, n1) f(q)ⁿ¹ (1-f(q))ⁿ⁻ⁿ¹,
//
// with f(q) = q·a + (1-q)·(1-a). It differs from q (Proposition 1: the LA
// estimate is biased), and as n grows it tends to 0 for q < 1/2 and to 1
// for q > 1/2 (see LimitLA). It returns NaN if a noisy label count of
// positive probability has an undefined posterior (see LAPosterior), which
// happens for a ∈ {0, 1} with 0 < q < 1 and n ≥ 2. It panics if q, a or r
// is not in [0, 1] or n < 0.
func ExpectedLA(q, a, r float64, n int) float64 {
	checkProb("r", r)
	return Expectation(q, a, n, func(n1 int) float64 { return LAPosterior(n1, n, a, r) })
}

// DAUnclipped returns the unconstrained DA estimate of q from n1 ones among
// n noisy labels, each correct with probability a,
//
//	f⁻¹(n1/n) = (n1/n - (1-a)) / (2a - 1),
//
// the inverse of LabelProb applied to the observed frequency of ones. It is
// linear in n1, hence an unbiased estimate of q under the DA generating
// process (Proposition 2: E[f⁻¹(N1/n)] = f⁻¹(E[N1]/n) = q), but it falls
// outside [0, 1] when n1/n is not between 1-a and a. It panics if a is not
// in [0, 1], if a = 1/2 (where every q gives the same label distribution, so
// q is not identifiable), if n < 1 or if n1 is not in [0, n].
func DAUnclipped(n1, n int, a float64) float64 {
	checkCount(n1, n)
	checkProb("a", a)
	if n < 1 {
		panic("theory: DA estimate from n = 0 labels")
	}
	if a == 0.5 {
		panic("theory: a = 1/2: q is not identifiable")
	}
	return (float64(n1)/float64(n) - (1 - a)) / (2*a - 1)
}

// DAEstimate returns the DA maximum likelihood estimate of q from n1 ones
// among n noisy labels, each correct with probability a,
//
//	q̂^DA(n1) = argmax_{q∈[0,1]} n1·log f(q) + (n-n1)·log(1-f(q))
//	         = min(1, max(0, (n1/n - (1-a)) / (2a - 1))),
//
// that is DAUnclipped clipped to [0, 1]; the log-likelihood is concave in q,
// so clipping the unconstrained maximizer gives the constrained one. For
// the paper's example, 110 ones among 210 labels with a = 0.8, it is
// (110/210 - 0.2)/0.6 ≈ 0.5397.
//
// The paper's Proposition 2 holds for the unclipped estimate. Clipping makes
// DAEstimate biased: where n1/n can fall below 1-a, that is near q = 0, it
// overestimates q on average, and near q = 1 it underestimates it; the bias
// vanishes as n grows for 0 < q < 1, and the estimate stays consistent. See
// ExpectedDA. DAEstimate panics as DAUnclipped does.
func DAEstimate(n1, n int, a float64) float64 {
	return min(1, max(0, DAUnclipped(n1, n, a)))
}

// ExpectedDA returns the exact expectation of the clipped DA estimate
// DAEstimate under the DA generating process with true parameter q and n
// labels,
//
//	E[q̂^DA] = Σ_{n1=0}^{n} q̂^DA(n1) · C(n, n1) f(q)ⁿ¹ (1-f(q))ⁿ⁻ⁿ¹.
//
// Because of the clipping it is above q near q = 0 (ExpectedDA(0, a, n) > 0
// for 0 < a < 1) and below q near q = 1; the unclipped estimate has
// expectation exactly q (use Expectation with DAUnclipped). It panics if q
// or a is not in [0, 1], if a = 1/2 or if n < 1.
func ExpectedDA(q, a float64, n int) float64 {
	if n < 1 {
		panic("theory: DA estimate from n = 0 labels")
	}
	if a == 0.5 {
		panic("theory: a = 1/2: q is not identifiable")
	}
	return Expectation(q, a, n, func(n1 int) float64 { return DAEstimate(n1, n, a) })
}

// LimitLA returns the limit of the LA estimate LAPosterior as the number of
// labels n grows, under the DA generating process with true parameter q, as
// the paper states it in appendix A for 0 < a < 1, a ≠ 1/2:
//
//	lim q̂^LA = 0 if q < 1/2,  r if q = 1/2,  1 if q > 1/2.
//
// It follows from logit q̂^LA = log(r/(1-r)) + n·(1 - 2·N1/n)·log((1-a)/a)
// and N1/n → f(q), with 1 - 2f(q) = (1-2q)(2a-1): the log odds diverge to
// -∞ or +∞ unless q = 1/2. (The sign does not depend on whether a is above
// or below 1/2, because a is known.) For q < 1/2 and q > 1/2 the limit is a
// limit in probability, and ExpectedLA converges to it.
//
// For q = 1/2 the value r is what the formula gives at the limiting
// frequency N1/n = 1/2, but it is not a limit in probability: 2·N1 - n
// fluctuates on the scale √n, so q̂^LA tends to 0 or 1 with probability
// 1/2 each, and ExpectedLA tends to 1/2 whatever r is. For a = 1/2 the
// estimate is r for every n and LimitLA returns r; for r = 0 or r = 1 it
// returns r. LimitLA panics if q or r is not in [0, 1] or a is not in
// (0, 1).
func LimitLA(q, a, r float64) float64 {
	checkProb("q", q)
	checkProb("r", r)
	if !(a > 0 && a < 1) {
		panic(fmt.Sprintf("theory: a = %v, need 0 < a < 1", a))
	}
	switch {
	case a == 0.5 || r == 0 || r == 1 || q == 0.5:
		return r
	case q < 0.5:
		return 0
	default:
		return 1
	}
}

// logBinomPMF returns log P(N = k) for N ~ Binomial(n, p), with the
// convention 0·log 0 = 0 so that p = 0 and p = 1 are handled.
func logBinomPMF(k, n int, p float64) float64 {
	fk, fn := float64(k), float64(n)
	return combin.LogGeneralizedBinomial(fn, fk) + xlogy(fk, p) + xlogy(fn-fk, 1-p)
}

// xlogy returns x·log y with 0·log 0 = 0.
func xlogy(x, y float64) float64 {
	if x == 0 {
		return 0
	}
	return x * math.Log(y)
}

func checkProb(name string, v float64) {
	if !(v >= 0 && v <= 1) {
		panic(fmt.Sprintf("theory: %s = %v, need 0 ≤ %s ≤ 1", name, v, name))
	}
}

func checkCount(n1, n int) {
	if n < 0 || n1 < 0 || n1 > n {
		panic(fmt.Sprintf("theory: n1 = %d ones among n = %d labels, need 0 ≤ n1 ≤ n", n1, n))
	}
}
