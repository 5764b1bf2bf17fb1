// Package noise holds the noise models of the consensus library: for one
// noisy label given by worker w to object j, the probability P(y | z) that the
// worker reports class y when the latent class the worker saw is z.
//
// A noise model knows nothing about where z comes from. Package latent
// supplies that: under the latent label assumption (LA) z is one true class per
// object, under the latent distribution assumption (DA) a fresh subjective
// class drawn from the object's distribution q_j every time the object is
// labelled. Package model composes a noise model with an assumption, so every
// noise model here exists in both forms without further code.
//
// The contract between the two sides is the one in the paper's section 5
// written as back-propagation. For label i the noise model computes the log
// probabilities
//
//	l_i(z) = log P(y_i | z; worker parameters of w(i), object parameters of j(i)),
//
// the assumption turns them into a log-likelihood L and returns the weights
// g_i(z) = ∂L/∂l_i(z), and the noise model adds
//
//	Σ_i Σ_z g_i(z) ∂l_i(z)/∂θ
//
// to the gradient of its own parameters θ.
//
// Parameters are unconstrained real numbers so that any gradient method can
// move them freely: confusion rows are softmax-transformed logits, positive
// difficulties are exponentiated. Each model stores a fixed number of
// parameters per worker followed by a fixed number per object (see Model).
//
// The paper's three models (its section 3):
//
//   - DS, Dawid and Skene (1979): a K×K confusion matrix per worker,
//     P(y | z) = π_w(z, y).
//   - GLAD, Whitehill et al. (2009): a worker ability e_w and an object
//     difficulty d_j > 0, a = σ(e_w d_j), P(y | z) = a if y = z and
//     (1 - a)/(K - 1) otherwise.
//   - MME, the minimax entropy model of Zhou et al. (2015): K×K matrices per
//     worker and per object, P(y | z) ∝ exp(e_w(z, y) + d_j(z, y)).
//
// Beyond the paper: OneCoin (one accuracy per worker), TwoCoin (one accuracy
// per worker and latent class), MACE (spammers) and RegMME (minimax entropy
// with L2 penalties).
//
// Besides Model and its Evaluator, a noise model may implement optional
// capabilities, each a small interface the code that uses it asks for:
// Describer (its declaration for the registry of package model: summary,
// LA prior, supported numbers of classes, default solver), WorkerSetter
// (starting a fit from known worker parameters), Sampler (simulation),
// Conjugate (variational Bayes), and on its evaluator ProbEvaluator,
// MStepper and Penalizer.
package noise
