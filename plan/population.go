package plan

import (
	"math"
	"slices"
)

// population is the model of a crowd behind Flags: a worker's confusion
// matrix is drawn from one of the priors of comps, with probability its
// share. The priors form a grid (popGrid) of three kinds: spammers (every
// row the same distribution), reliable workers (above chance) and
// adversaries (below), and the shares are fitted to the crowd: a
// nonparametric estimate of the distribution of the workers' confusion
// matrices rather than one prior of each kind, whose tails would make a
// reliable worker of unusual accuracy look like a spammer.
type population struct {
	comps []component
}

// The kinds of worker of a population.
const (
	kindSpammer = iota
	kindReliable
	kindAdversarial
)

// The forms of a component's prior.
const (
	// formSpam: every row the same distribution, from Dirichlet(conc, …,
	// conc) (mu unused).
	formSpam = iota
	// formFull: rows drawn independently from the symmetric Dirichlet
	// prior.
	formFull
	// formCoin: one accuracy shared by every row, from Beta(mu·conc, (1 −
	// mu)·conc), the errors spread evenly.
	formCoin
)

// component is one prior of the grid of a population with its kind, form
// and share; a one-coin prior also holds its log weights at the nodes of
// the grid of the accuracy (coinPrior).
type component struct {
	prior      symmetric
	kind, form int
	share      float64
	nodes      []float64
	// index is the component's place in the grid, where a worker's sample
	// keeps its log marginal likelihood (workerSample.lm).
	index int
}

// spamMarginal returns the log marginal likelihood of a worker's label
// counts n (K) when its labels do not depend on the true class and their
// distribution is drawn from Dirichlet(alpha, …, alpha).
func spamMarginal(n []float64, alpha float64) float64 {
	post := make([]float64, len(n))
	prior := make([]float64, len(n))
	for y, x := range n {
		prior[y] = alpha
		post[y] = alpha + x
	}
	return logBeta(post) - logBeta(prior)
}

// popWorkers bounds the workers whose samples fit the population: at most
// this many, evenly spaced.
const popWorkers = 2000

// popGrid returns the priors of a population's grid at K classes: a
// spammer's label distribution uniform (Dirichlet(1, …, 1)); reliable
// workers' means from chance + 10% to chance + 90% of the way to one and
// adversaries' from 10% to 80% of chance, each at two concentrations, in
// full and one-coin form.
func popGrid(k int) []component {
	out := []component{{prior: symmetric{conc: 1}, kind: kindSpammer, form: formSpam}}
	chance := 1 / float64(k)
	add := func(lo, hi float64, n int, concs []float64, kind, form int) {
		for t := range n {
			mu := lo + (hi-lo)*float64(t)/float64(n-1)
			for _, conc := range concs {
				c := component{prior: symmetric{mu, conc}, kind: kind, form: form, index: len(out)}
				if form == formCoin {
					c.nodes = coinPrior(c.prior)
				}
				out = append(out, c)
			}
		}
	}
	for _, form := range []int{formFull, formCoin} {
		add(chance+(1-chance)*0.1, chance+(1-chance)*0.9, 9, []float64{16, 64}, kindReliable, form)
		add(chance*0.1, chance*0.8, 4, []float64{2, 8}, kindAdversarial, form)
	}
	return out
}

// popIterations is the number of EM steps of fitPopulation.
const popIterations = 300

// fitPopulation fits the shares of a population's grid (popGrid) by EM,
// maximising the marginal likelihood of the workers' labels with one
// pseudo-count for each of the three kinds (spread over a kind's priors
// in proportion to their shares) and smooth more for every prior: samples
// holds every worker's importance sample (sampleWorker), from which the
// marginal likelihood under every prior of the grid is estimated. Priors
// whose share ends below 10⁻⁶ are dropped.
//
// Without smoothing the shares settle on a few priors (the maximum
// likelihood mixture of a nonparametric prior is discrete), which suits
// telling kinds apart (Flags) but pulls a worker far from those priors
// towards them: posteriors from it are too narrow there (ClassIntervals
// smooths with one pseudo-count a prior).
func fitPopulation(samples []*workerSample, k int, smooth float64) *population {
	comps := popGrid(k)
	n := len(comps)
	// e holds exp(l − top) of every worker and prior, top its largest;
	// the samples keep l. Every worker's entries are its own: the
	// goroutines do not change them.
	e := make([]float64, len(samples)*n)
	forWorkers(len(samples), func(w int) {
		s := samples[w]
		l := e[w*n : (w+1)*n]
		top := math.Inf(-1)
		for c, p := range comps {
			l[c] = s.logMarginal(p, k)
			top = max(top, l[c])
		}
		s.lm = slices.Clone(l)
		for c := range l {
			l[c] = math.Exp(l[c] - top)
		}
	})
	share := make([]float64, n)
	for c := range share {
		share[c] = 1 / float64(n)
	}
	sum := make([]float64, n)
	for range popIterations {
		clear(sum)
		for w := range samples {
			l := e[w*n : (w+1)*n]
			var s float64
			for c, x := range l {
				s += share[c] * x
			}
			for c, x := range l {
				sum[c] += share[c] * x / s
			}
		}
		// One pseudo-count a kind, spread over its priors by their shares.
		var kind [3]float64
		for c, p := range comps {
			kind[p.kind] += share[c]
		}
		total := float64(len(samples)) + 3
		for c, p := range comps {
			share[c] = (sum[c] + share[c]/kind[p.kind] + smooth) / (total + smooth*float64(n))
		}
	}
	pop := &population{}
	for c, p := range comps {
		if share[c] >= 1e-6 {
			p.share = share[c]
			pop.comps = append(pop.comps, p)
		}
	}
	return pop
}

// symmetricPrior returns the K×K pseudo-counts with mean accuracy mu and
// concentration conc: mu·conc on the diagonal, the rest spread evenly.
func symmetricPrior(k int, mu, conc float64) []float64 {
	p := make([]float64, k*k)
	symmetricInto(p, k, mu, conc)
	return p
}

// symmetricInto writes symmetricPrior(k, mu, conc) into dst.
func symmetricInto(dst []float64, k int, mu, conc float64) {
	for z := range k {
		for y := range k {
			dst[z*k+y] = (1 - mu) * conc / float64(k-1)
			if y == z {
				dst[z*k+y] = mu * conc
			}
		}
	}
}
