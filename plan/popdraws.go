package plan

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// dirichletInto writes the logarithm of a draw from Dirichlet(alpha) into
// dst, every value at least 10⁻³⁰⁰.
func dirichletInto(alpha []float64, src rand.Source, dst []float64) {
	var sum float64
	for y, a := range alpha {
		dst[y] = distuv.Gamma{Alpha: a, Beta: 1, Src: src}.Rand()
		sum += dst[y]
	}
	for y := range dst {
		dst[y] = math.Log(max(dst[y]/sum, 1e-300))
	}
}

// popPosterior is every worker's posterior under a population fitted to
// the crowd (fitPopulation, one pseudo-count a prior): a mixture over the
// population's priors, each weighted by its share times the worker's
// marginal likelihood under it. Given a prior, a full matrix's rows are
// drawn from the Dirichlet posterior of the prior's pseudo-counts plus the
// worker's counts against its tasks' other labels (workerCounts), a
// one-coin worker's accuracy from its posterior on the grid of
// coinLikelihood, and a spammer's one row from Dirichlet(1 + its label
// counts).
type popPosterior struct {
	k       int
	pop     *population
	workers []workerPost
}

// coinEntry marks the entry of workerPost.comps that stands for all the
// one-coin priors.
const coinEntry = -1

// workerPost is one worker's posterior under a population.
type workerPost struct {
	// comps lists the spammers' and full matrices' priors of
	// non-negligible posterior weight, and coinEntry for the one-coin
	// priors together; cdf holds their cumulative weights.
	comps []int
	cdf   []float64
	// coin holds the cumulative posterior weights of the accuracy grid's
	// nodes coinLo, coinLo + 1, … given a one-coin prior, the nodes of
	// negligible weight at either end left out.
	coinLo int
	coin   []float64
	// counts are the worker's counts (K×K) and labels its label counts.
	counts, labels []float64
}

// newPopPosterior fits a population to p's workers (draws importance
// draws a worker, seeded with seed) and returns their posteriors. The
// workers' counts are taken against the tasks' posteriors from p, then
// rounds − 1 times more against those from the last population's
// posterior means (the mean-field posterior of vb-la-ds makes light
// workers at K > 2 look much worse than they are, and the first
// population's workers look better than they are in turn).
func newPopPosterior(p *Posterior, draws int, seed uint64, rounds int) *popPosterior {
	pp := popRound(p, draws, seed)
	for range rounds - 1 {
		pp = popRound(pp.posterior(p), draws, seed)
	}
	return pp
}

// meanWorkers is a WorkerPosterior of known matrices m (W×K×K), whose
// prior pseudo-counts are zero.
type meanWorkers struct {
	k int
	m []float64
}

// Confusion writes worker w's matrix into dst.
func (mw meanWorkers) Confusion(w int, dst []float64) { copy(dst, mw.m[w*mw.k*mw.k:]) }

// ConfusionPrior writes zeros into dst.
func (mw meanWorkers) ConfusionPrior(dst []float64) { clear(dst) }

// posterior returns p with the workers' posterior means for its workers
// and the tasks' class posteriors under them and p's class prior.
func (pp *popPosterior) posterior(p *Posterior) *Posterior {
	d := p.Data
	k := pp.k
	m := make([]float64, d.NumWorkers()*k*k)
	for w := range pp.workers {
		pp.mean(w, m[w*k*k:(w+1)*k*k])
	}
	prior := classPrior(p)
	probs := make([]float64, len(p.Probs))
	for j := range d.Tasks {
		o := probs[j*k : (j+1)*k]
		copy(o, prior)
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w, y := int(d.Worker[i]), int(d.Label[i])
			for z := range k {
				o[z] += math.Log(max(m[(w*k+z)*k+y], 1e-300))
			}
		}
		softmax(o)
	}
	return &Posterior{Data: d, Workers: meanWorkers{k: k, m: m}, Probs: probs}
}

// mean writes worker w's posterior mean confusion matrix into dst.
func (pp *popPosterior) mean(w int, dst []float64) {
	k := pp.k
	wp := &pp.workers[w]
	clear(dst)
	row := make([]float64, k*k)
	prev := 0.0
	for i, ci := range wp.comps {
		v := wp.cdf[i] - prev
		prev = wp.cdf[i]
		switch {
		case ci == coinEntry:
			var acc, last float64
			for g, x := range wp.coin {
				acc += (x - last) * coinAcc(wp.coinLo+g)
				last = x
			}
			coinMatrix(acc/last, k, row)
		case pp.pop.comps[ci].form == formSpam:
			alpha := pp.pop.comps[ci].prior.conc
			var n float64
			for _, x := range wp.labels {
				n += x
			}
			for z := range k {
				for y := range k {
					row[z*k+y] = (alpha + wp.labels[y]) / (float64(k)*alpha + n)
				}
			}
		default:
			c := pp.pop.comps[ci].prior
			symmetricInto(row, k, c.mu, c.conc)
			for z := range k {
				var sum float64
				for y := range k {
					row[z*k+y] += wp.counts[z*k+y]
					sum += row[z*k+y]
				}
				for y := range k {
					row[z*k+y] /= sum
				}
			}
		}
		for i, x := range row {
			dst[i] += v * x
		}
	}
}

// coinMatrix writes the K×K matrix of a one-coin worker of accuracy acc
// into dst: acc on the diagonal, the rest spread evenly.
func coinMatrix(acc float64, k int, dst []float64) {
	for z := range k {
		for y := range k {
			dst[z*k+y] = (1 - acc) / float64(k-1)
			if y == z {
				dst[z*k+y] = acc
			}
		}
	}
}

// popRound fits a population to p's workers and returns their posteriors.
func popRound(p *Posterior, draws int, seed uint64) *popPosterior {
	k := p.Data.NumClasses()
	c := newCrowdSamples(p, draws, seed, 1)
	out := &popPosterior{k: k, pop: c.pop, workers: make([]workerPost, p.Data.NumWorkers())}
	forWorkers(len(out.workers), func(w int) {
		out.workers[w] = workerPosterior(c.sample(w), c.pop, k, c.counts[w])
	})
	return out
}

// workerPosterior returns the posterior of the worker whose importance
// sample is s under the population pop.
func workerPosterior(s *workerSample, pop *population, k int, counts []float64) workerPost {
	post := make([]float64, len(pop.comps))
	top := math.Inf(-1)
	for i, c := range pop.comps {
		post[i] = math.Log(c.share) + s.logMarginal(c, k)
		top = max(top, post[i])
	}
	var sum float64
	for i := range post {
		post[i] = math.Exp(post[i] - top)
		sum += post[i]
	}
	wp := workerPost{counts: counts, labels: s.labels}
	// The one-coin priors' mixture: every prior's weight times its
	// posterior over the nodes.
	var coinW float64
	nodes := make([]float64, coinNodes)
	var cum float64
	for i, c := range pop.comps {
		v := post[i] / sum
		if c.form == formCoin {
			coinW += v
			lm := s.logMarginal(c, k) // coinWeights' sum: kept by fitPopulation for its samples
			for g, x := range s.coin {
				nodes[g] += v * math.Exp(x+c.nodes[g]-lm)
			}
			continue
		}
		if v < 1e-9 {
			continue
		}
		cum += v
		wp.comps = append(wp.comps, i)
		wp.cdf = append(wp.cdf, cum)
	}
	if coinW >= 1e-9 {
		cum += coinW
		wp.comps = append(wp.comps, coinEntry)
		wp.cdf = append(wp.cdf, cum)
		lo, hi := 0, coinNodes
		for lo < hi-1 && nodes[lo] < 1e-12*coinW {
			lo++
		}
		for hi > lo+1 && nodes[hi-1] < 1e-12*coinW {
			hi--
		}
		wp.coinLo = lo
		var acc float64
		for _, x := range nodes[lo:hi] {
			acc += x
			wp.coin = append(wp.coin, acc)
		}
	}
	return wp
}

// uniform returns a uniform draw on [0, 1) from src.
func uniform(src rand.Source) float64 { return float64(src.Uint64()>>11) / (1 << 53) }

// pick returns the first index whose cumulative weight in cdf exceeds u
// times the last (by bisection: cdf does not decrease).
func pick(cdf []float64, u float64) int {
	u *= cdf[len(cdf)-1]
	lo, hi := 0, len(cdf)-1
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); u < cdf[m] {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// draw writes the logarithm of a draw of worker w's matrix into dst: a
// prior from the worker's posterior over them, then the matrix from its
// posterior under that prior. buf (K×K) holds the Dirichlet parameters.
func (pp *popPosterior) draw(w int, src rand.Source, dst, buf []float64) {
	k := pp.k
	wp := &pp.workers[w]
	ci := wp.comps[pick(wp.cdf, uniform(src))]
	switch {
	case ci == coinEntry:
		coinMatrix(coinAcc(wp.coinLo+pick(wp.coin, uniform(src))), k, dst)
		for i, x := range dst {
			dst[i] = math.Log(x)
		}
	case pp.pop.comps[ci].form == formSpam:
		alpha := buf[:k]
		for y := range alpha {
			alpha[y] = pp.pop.comps[ci].prior.conc + wp.labels[y]
		}
		dirichletInto(alpha, src, dst[:k])
		for z := 1; z < k; z++ {
			copy(dst[z*k:(z+1)*k], dst[:k])
		}
	default:
		c := pp.pop.comps[ci].prior
		symmetricInto(buf, k, c.mu, c.conc)
		for i := range buf {
			buf[i] += wp.counts[i]
		}
		for r := 0; r < k*k; r += k {
			dirichletInto(buf[r:r+k], src, dst[r:r+k])
		}
	}
}
