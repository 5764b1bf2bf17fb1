// Package latent holds the two latent assumptions of the paper, which turn
// the per-label log probabilities of a noise model (package noise) into a
// log-likelihood, its gradient, and a consensus distribution per object.
//
// Under the latent label assumption (LA, the paper's eq. 1) each object j has
// one true class z_j drawn from a prior p shared by all objects, and
//
//	L_LA = Σ_j log Σ_z p_z Π_{i ∈ j} P(y_i | z).
//
// Its consensus output is the posterior γ_j(z) ∝ p_z Π_{i ∈ j} P(y_i | z),
// which sharpens to 0 or 1 as labels accumulate.
//
// Under the latent distribution assumption (DA, the paper's eq. 3) each
// object has its own distribution q_j and each label comes from a fresh
// subjective class z ~ q_j, so
//
//	L_DA = Σ_j Σ_{i ∈ j} log Σ_z q_j(z) P(y_i | z),
//
// and the consensus output is q_j itself, a consistent estimate of the
// object's label distribution.
//
// Both work only through the contract of package noise: given
// l_i(z) = log P(y_i | z) for the labels of one object they return the
// object's term of L and the weights g_i(z) = ∂L/∂l_i(z), which the noise
// model back-propagates into its own parameters.
package latent
