// Package dsmix averages every Dawid-Skene worker of a variational fit over
// kinds of worker (noise.DS.Averaged): a full confusion matrix, one
// accuracy, and for K > 2 one accuracy a class, each worker weighted by
// the evidence of its expected counts for each kind, with the kinds'
// shares and priors learned from the crowd by empirical Bayes. Mix holds
// the kinds' state; package noise's Dawid-Skene posterior calls it once a
// pass. The formulas are Mix's doc comment.
package dsmix

// MinPrior and MaxConcentration bound the priors the kinds learn: every
// pseudo-count at least MinPrior, every concentration (a Beta prior's
// a + b, an error Dirichlet's κ) at most MaxConcentration.
const (
	MinPrior         = 0.05
	MaxConcentration = 50

	minSharedPrior         = MinPrior
	maxSharedConcentration = MaxConcentration
)

// countAt is the index of the expected count C_w(z, y) of the worker
// whose counts start at base in noise's accumulator, which holds every
// worker's K×K counts transposed.
func countAt(base, k, z, y int) int { return base + y*k + z }
