// Package theory computes the paper's analysis of one binary object
// (Fedorova, Gusev and Serdyukov, "Latent Distribution Assumption for
// Unbiased and Consistent Consensus Modelling", section 4 and appendix A):
// how the traditional LA estimate and the novel DA estimate of the latent
// probability q behave when the labels come from the DA generating process.
//
// # Setting
//
// One object has a latent Bernoulli(q) distribution of labels. Each of n
// workers draws a subjective label z ~ Ber(q) and reports it correctly with
// a known probability a, so a noisy label is 1 with probability
//
//	f(q) = q·a + (1-q)·(1-a)        (LabelProb)
//
// and the number N1 of ones is Binomial(n, f(q)).
//
// # LA estimate (Proposition 1)
//
// The LA model assumes one true label z with prior P(z = 1) = r and
// estimates q by the posterior
//
//	q̂^LA(n1) = r·aⁿ¹(1-a)ⁿ⁻ⁿ¹ / (r·aⁿ¹(1-a)ⁿ⁻ⁿ¹ + (1-r)·(1-a)ⁿ¹aⁿ⁻ⁿ¹)   (LAPosterior).
//
// Its expectation under the DA process, ExpectedLA, differs from q: it is
// pulled towards 0 below q = 1/2 and towards 1 above (with r = 1/2 it is
// symmetric, E(1-q) = 1 - E(q)). As n grows it tends to 0 for q < 1/2 and
// to 1 for q > 1/2 (LimitLA), so the LA estimate is neither unbiased nor
// consistent.
//
// At q = 1/2 the paper gives the limit r. That is the value of the formula
// at the limiting frequency N1/n = 1/2, but the posterior does not converge
// there: 2·N1 - n fluctuates on the scale √n, so q̂^LA tends to 0 or 1 with
// probability 1/2 each, and its expectation tends to 1/2 whatever r is.
// LimitLA returns the paper's r and documents this.
//
// # DA estimate (Proposition 2)
//
// The DA model estimates q by maximum likelihood of N1 ~ Binomial(n, f(q)):
// the unconstrained maximizer f⁻¹(n1/n) = (n1/n - (1-a))/(2a-1)
// (DAUnclipped) is linear in n1, hence unbiased, and consistent. Restricted
// to [0, 1] it is clipped (DAEstimate), which makes it slightly biased near
// q = 0 and q = 1 for finite n; ExpectedDA gives its exact expectation.
// Expectation computes the expectation of any estimator of n1.
//
// # Worked example
//
// The paper's motivating example (section 2): 210 workers with a = 0.8 and
// a uniform prior give 110 ones and 100 zeros. The LA posterior is
// a¹⁰/(a¹⁰ + (1-a)¹⁰) = 1/(1 + 2⁻²⁰) > 1 - 2⁻²⁰, practically certain that
// the label is 1, while the DA estimate is (110/210 - 0.2)/0.6 ≈ 0.5397.
//
// All functions work in log space where it matters: LAPosterior and
// ExpectedLA are accurate for n = 10000. Arguments out of range
// (probabilities outside [0, 1], counts with n1 > n) are programming errors
// and make the functions panic.
package theory
