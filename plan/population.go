package plan

import "math"

// population is the model of a crowd behind Flags: a worker is a spammer
// (every confusion row the same distribution, with a uniform Dirichlet
// prior) with probability spam, or else its rows are drawn from one of the
// symmetric Dirichlet priors of comps, with probability its share. The
// priors form a grid of means and concentrations above chance (reliable
// workers) and below (adversarial ones), and the shares are fitted to the
// crowd: a nonparametric estimate of the distribution of the workers'
// accuracy rather than one prior of each kind, whose tails would make a
// reliable worker of unusual accuracy look like a spammer.
type population struct {
	spam  float64
	comps []component
}

// component is one prior of the grid of a population with its share:
// rows drawn independently from the symmetric Dirichlet prior, or, for a
// one-coin component (coin), one accuracy shared by every row drawn from
// Beta(mu·conc, (1 − mu)·conc), the errors spread evenly.
type component struct {
	prior symmetric
	coin  bool
	share float64
}

// spamMarginal returns the log marginal likelihood of counts c (K×K) when
// every row is the same distribution, drawn from Dirichlet(1, …, 1): that
// of the label counts Σ_z c(z, y), which do not depend on the tasks' class
// posteriors.
func spamMarginal(c []float64, k int) float64 {
	pooled := make([]float64, k)
	ones := make([]float64, k)
	for y := range k {
		ones[y] = 1
		pooled[y] = 1
		for z := range k {
			pooled[y] += c[z*k+y]
		}
	}
	return logBeta(pooled) - logBeta(ones)
}

// popWorkers bounds the workers whose samples fit the population: at most
// this many, evenly spaced.
const popWorkers = 2000

// popGrid returns the priors of a population's grid at K classes:
// reliable workers' means from chance + 10% to chance + 90% of the way to
// one, adversaries' from 10% to 80% of chance, each at several
// concentrations, with whether each is adversarial.
func popGrid(k int) (priors []component, adversarial []bool) {
	chance := 1 / float64(k)
	add := func(lo, hi float64, n int, concs []float64, adv, coin bool) {
		for t := range n {
			mu := lo + (hi-lo)*float64(t)/float64(n-1)
			for _, conc := range concs {
				priors = append(priors, component{prior: symmetric{mu, conc}, coin: coin})
				adversarial = append(adversarial, adv)
			}
		}
	}
	for _, coin := range []bool{false, true} {
		add(chance+(1-chance)*0.1, chance+(1-chance)*0.9, 9, []float64{16, 64}, false, coin)
		add(chance*0.1, chance*0.8, 4, []float64{2, 8}, true, coin)
	}
	return priors, adversarial
}

// popIterations is the number of EM steps of fitPopulation.
const popIterations = 300

// fitPopulation fits the shares of a population's grid (popGrid) by EM,
// maximising the marginal likelihood of the workers' labels with one
// pseudo-count for each of the three kinds (spammer, reliable,
// adversarial; spread over a kind's priors in proportion to their
// shares): spam holds every worker's log marginal likelihood as a
// spammer, samples its importance sample (sampleWorker), from which the
// marginal likelihood under every prior of the grid is estimated. Priors
// whose share ends below 10⁻⁶ are dropped.
func fitPopulation(spam []float64, samples []*workerSample, k int) *population {
	priors, adv := popGrid(k)
	n := len(priors) + 1 // the spammers first
	// e holds exp(l − top) of every worker and kind, top its largest.
	e := make([]float64, len(samples)*n)
	for w, s := range samples {
		l := e[w*n : (w+1)*n]
		l[0] = spam[w]
		top := l[0]
		for c, p := range priors {
			l[c+1] = s.logMarginal(p, k)
			top = max(top, l[c+1])
		}
		for c := range l {
			l[c] = math.Exp(l[c] - top)
		}
	}
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
		var kind [2]float64
		for c, a := range adv {
			kind[b2i(a)] += share[c+1]
		}
		total := float64(len(samples)) + 3
		share[0] = (sum[0] + 1) / total
		for c, a := range adv {
			share[c+1] = (sum[c+1] + share[c+1]/kind[b2i(a)]) / total
		}
	}
	pop := &population{spam: share[0]}
	for c, p := range priors {
		if share[c+1] >= 1e-6 {
			p.share = share[c+1]
			pop.comps = append(pop.comps, p)
		}
	}
	return pop
}

// b2i returns 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// symmetricPrior returns the K×K pseudo-counts with mean accuracy mu and
// concentration conc: mu·conc on the diagonal, the rest spread evenly.
func symmetricPrior(k int, mu, conc float64) []float64 {
	p := make([]float64, k*k)
	for z := range k {
		for y := range k {
			p[z*k+y] = (1 - mu) * conc / float64(k-1)
			if y == z {
				p[z*k+y] = mu * conc
			}
		}
	}
	return p
}
