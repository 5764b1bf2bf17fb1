package plan

import "math"

// population is the model of a crowd behind Flags: a worker is a spammer
// (every confusion row the same distribution, with a uniform Dirichlet
// prior), a reliable worker (rows from the symmetric Dirichlet good) or an
// adversarial one (rows from broad), the two priors' means and
// concentrations fitted to the crowd, with prior weights mix.
type population struct {
	good, broad symmetric
	mix         [3]float64
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

// weights returns the posterior probabilities of the three kinds given the
// log marginal likelihoods lm.
func (m *population) weights(lm [3]float64) [3]float64 {
	top := math.Inf(-1)
	for i, l := range lm {
		top = max(top, l+math.Log(m.mix[i]))
	}
	var out [3]float64
	var s float64
	for i, l := range lm {
		out[i] = math.Exp(l + math.Log(m.mix[i]) - top)
		s += out[i]
	}
	for i := range out {
		out[i] /= s
	}
	return out
}

// popWorkers bounds the workers whose samples fit the population: at most
// this many, evenly spaced.
const popWorkers = 2000

// fitPopulation fits the priors of the reliable and the adversarial
// workers (each on a grid of means and concentrations) and the three
// weights (by EM, with a Dirichlet(2, 2, 2) prior on them), maximising the
// marginal likelihood of the workers' labels: spam holds every worker's
// log marginal likelihood as a spammer, samples its importance sample
// (sampleWorker), from which the marginal likelihood under every prior of
// the grid is estimated.
func fitPopulation(spam []float64, samples []*workerSample, k int) *population {
	type cand struct {
		prior symmetric
		lm    []float64
	}
	grid := func(lo, hi float64, n int, concs []float64) []cand {
		var out []cand
		for t := range n {
			mu := lo + (hi-lo)*float64(t)/float64(n-1)
			for _, conc := range concs {
				c := cand{prior: symmetric{mu, conc}, lm: make([]float64, len(samples))}
				for w, s := range samples {
					c.lm[w] = s.logMarginal(c.prior, k)
				}
				out = append(out, c)
			}
		}
		return out
	}
	chance := 1 / float64(k)
	good := grid(chance+(1-chance)*0.1, chance+(1-chance)*0.9, 9, []float64{2, 4, 8, 16, 32, 64})
	bad := grid(chance*0.1, chance*0.8, 4, []float64{2, 8})
	var best *population
	bestLL := math.Inf(-1)
	e := make([][3]float64, len(samples)) // exp(l_i − top) of every worker
	top := make([]float64, len(samples))
	for _, g := range good {
		for _, b := range bad {
			for w := range samples {
				l := [3]float64{spam[w], g.lm[w], b.lm[w]}
				top[w] = max(l[0], l[1], l[2])
				for i := range l {
					e[w][i] = math.Exp(l[i] - top[w])
				}
			}
			mix := [3]float64{1. / 3, 1. / 3, 1. / 3}
			for range 30 {
				var sum [3]float64
				for w := range samples {
					s := mix[0]*e[w][0] + mix[1]*e[w][1] + mix[2]*e[w][2]
					for i := range sum {
						sum[i] += mix[i] * e[w][i] / s
					}
				}
				n := float64(len(samples)) + 3
				for i := range mix {
					mix[i] = (sum[i] + 1) / n
				}
			}
			var ll float64
			for w := range samples {
				ll += top[w] + math.Log(mix[0]*e[w][0]+mix[1]*e[w][1]+mix[2]*e[w][2])
			}
			if ll > bestLL {
				bestLL, best = ll, &population{good: g.prior, broad: b.prior, mix: mix}
			}
		}
	}
	return best
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
