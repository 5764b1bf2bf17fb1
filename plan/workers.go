package plan

import (
	"cmp"
	"math"
	"sync"

	"github.com/consensuslab/consensus/internal/num"
)

// FlagSettings are the settings of Flags. The zero value is the default
// of every field.
type FlagSettings struct {
	// Level is the credible level of the accuracy interval; zero means
	// 0.9.
	Level float64
	// Threshold is the posterior probability at which a worker is flagged;
	// zero means 0.5.
	Threshold float64
	// Draws is the number of importance draws per worker behind the
	// probabilities, the accuracy and its interval (beside a grid of a
	// one-coin worker's accuracy); zero means 400.
	Draws int
	// Seed seeds the draws; worker w draws from a generator seeded with
	// (Seed, w), so that the output does not depend on the order of the
	// workers or the number of goroutines.
	Seed uint64
}

func (s *FlagSettings) withDefaults() FlagSettings {
	var o FlagSettings
	if s != nil {
		o = *s
	}
	o.Level = cmp.Or(o.Level, 0.9)
	o.Threshold = cmp.Or(o.Threshold, 0.5)
	o.Draws = cmp.Or(o.Draws, 400)
	return o
}

// The flags Flags sets.
const (
	Spammer     = "spammer"
	Adversarial = "adversarial"
)

// WorkerFlag is the evidence on one worker.
type WorkerFlag struct {
	// Labels is the number of labels the worker gave.
	Labels int
	// Agreement is the fraction of them equal to their task's consensus
	// label (NaN without labels).
	Agreement float64
	// Accuracy is the posterior mean of the worker's balanced accuracy,
	// the mean over the true classes z of π_w(z, z); a spammer's is 1/K
	// whatever its labels (a point mass of the posterior, of weight
	// Spammer), an adversary's is below. Lo and Hi bound its equal-tailed
	// credible interval at FlagSettings.Level.
	Accuracy, Lo, Hi float64
	// Spammer is the posterior probability that the worker's labels do not
	// depend on the true class (every row of its confusion matrix the same
	// distribution), against a reliable or an adversarial worker: a
	// comparison of the three kinds' marginal likelihoods of the worker's
	// labels, with the kinds' shares fitted to the crowd.
	Spammer float64
	// Adversarial is the posterior probability that the worker is worse
	// than chance: not a spammer, and its balanced accuracy below 1/K.
	Adversarial float64
	// Flag is set when the posterior probability that the worker is bad,
	// Spammer + Adversarial (the two are disjoint), reaches
	// FlagSettings.Threshold: Spammer or Adversarial, whichever is the
	// more probable; it is empty otherwise.
	Flag string
}

// Flags returns the evidence on every worker of p, in the order of
// p.Data.Workers. A worker's labels are compared with its tasks' class
// posteriors from their other labels, r_i (see workerCounts); the
// likelihood of its labels y_i given a confusion matrix π is Π_i Σ_z
// r_i(z) π(z, y_i). The crowd is a mixture over a grid of priors of
// spammers, reliable workers and adversaries, whose shares are fitted to
// it (population). A spammer's (every row the same distribution, with a
// uniform Dirichlet prior) marginal likelihood is exact; a one-coin
// prior's is integrated on a grid of the accuracy (coinLikelihood); a
// full-matrix prior's is estimated by importance sampling from the
// Dirichlet posterior of the worker's expected counts (sampleWorker). The
// weighted draws and grid nodes also give the accuracy, its interval and
// the probability of being adversarial. A nil posterior, or one without
// data or workers, is an error.
func Flags(p *Posterior, s *FlagSettings) ([]WorkerFlag, error) {
	if err := checkPosterior(p); err != nil {
		return nil, err
	}
	set := s.withDefaults()
	d := p.Data
	k := d.NumClasses()
	out := make([]WorkerFlag, d.NumWorkers())
	agree := make([]int, d.NumWorkers())
	labels := consensusLabels(p.Probs, k)
	for j := range d.Tasks {
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w := d.Worker[i]
			out[w].Labels++
			if int(d.Label[i]) == labels[j] {
				agree[w]++
			}
		}
	}
	c := newCrowdSamples(p, set.Draws, set.Seed, 0)
	forWorkers(len(out), func(w int) {
		f := &out[w]
		f.Agreement = math.NaN()
		if f.Labels > 0 {
			f.Agreement = float64(agree[w]) / float64(f.Labels)
		}
		flagWorker(f, c.sample(w), c.pop, k, set)
	})
	return out, nil
}

// crowdSamples are the workers' importance samples (sampleWorker) against
// their tasks' posteriors from their other labels (workerCounts) and the
// population fitted to them.
type crowdSamples struct {
	pop *population
	// counts holds every worker's counts (K×K) and kept the samples of
	// the workers the population was fitted to (nil for the others); draw
	// draws one worker's sample.
	counts [][]float64
	kept   []*workerSample
	draw   func(w int) *workerSample
}

// newCrowdSamples samples p's workers with draws draws each, seeded with
// seed, and fits the population (fitPopulation, smoothed by smooth) to at
// most popWorkers of them, evenly spaced, whose samples are kept.
func newCrowdSamples(p *Posterior, draws int, seed uint64, smooth float64) *crowdSamples {
	d := p.Data
	k := d.NumClasses()
	counts, r := workerCounts(p)
	byWorker := d.LabelsByWorker()
	c := &crowdSamples{counts: counts, kept: make([]*workerSample, d.NumWorkers())}
	c.draw = func(w int) *workerSample {
		return sampleWorker(byWorker[w], d.Label, r, counts[w], k, draws, seed, uint64(w))
	}
	fitted := spaced(d.NumWorkers(), popWorkers)
	samples := make([]*workerSample, len(fitted))
	forWorkers(len(fitted), func(i int) {
		samples[i] = c.draw(fitted[i])
		c.kept[fitted[i]] = samples[i]
	})
	c.pop = fitPopulation(samples, k, smooth)
	return c
}

// sample returns worker w's sample: the kept one, or one drawn now and not
// kept.
func (c *crowdSamples) sample(w int) *workerSample {
	if s := c.kept[w]; s != nil {
		return s
	}
	return c.draw(w)
}

// forWorkers calls f(w) for w = 0 … n−1 in blocks of 64 on four
// goroutines.
func forWorkers(n int, f func(w int)) {
	var wg sync.WaitGroup
	const block = 64
	sem := make(chan struct{}, 4)
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			for w := lo; w < hi; w++ {
				f(w)
			}
		}()
	}
	wg.Wait()
}

// flagWorker fills f's accuracy, interval and probabilities from the
// worker's importance sample s and the population model m. The weights of
// the sample's draws and of the one-coin grid's nodes under the mixture of
// m's priors that are not spammers', Σ_c share_c p_c(π), give the
// posterior of the worker's confusion matrix given that it is not a
// spammer, and their sum its marginal likelihood, against which the
// spammers' mixture's is weighed.
func flagWorker(f *WorkerFlag, s *workerSample, m *population, k int, set FlagSettings) {
	// Every prior's share times the marginal likelihood under it, in logs:
	// the posterior weights of the priors.
	post := make([]float64, len(m.comps))
	var spams, others []float64
	for i, c := range m.comps {
		post[i] = math.Log(c.share) + s.logMarginal(c, k)
		if c.form == formSpam {
			spams = append(spams, post[i])
		} else {
			others = append(others, post[i])
		}
	}
	spam, other := num.LogSumExp(spams), num.LogSumExp(others)
	f.Spammer = 1 / (1 + math.Exp(other-spam))
	// lw holds the posterior weight of every draw, then of every node of
	// the one-coin grid, given that the worker is not a spammer: each
	// prior's normalised weights times its posterior weight, the priors
	// of negligible weight left out.
	n := len(s.base)
	lw, tmp := make([]float64, n+coinNodes), make([]float64, max(n, coinNodes))
	for i, c := range m.comps {
		v := math.Exp(post[i] - other)
		if c.form == formSpam || v < 1e-12 {
			continue
		}
		dst, src := lw[:n], tmp[:n]
		if c.form == formCoin {
			dst, src = lw[n:], tmp[:coinNodes]
			coinWeights(s.coin, c.nodes, src)
		} else {
			s.logWeights(c.prior, k, src)
		}
		lm := post[i] - math.Log(c.share)
		for t, x := range src {
			dst[t] += v * math.Exp(x-lm)
		}
	}
	for t := range n {
		lw[t] /= float64(n)
	}
	// The accuracy's posterior: a spammer's, 1/K, with the probability
	// that the worker is one, and the draws' and nodes' otherwise.
	chance := 1 / float64(k)
	pairs := make([]weighted, len(lw), len(lw)+1)
	var below float64
	f.Accuracy = f.Spammer * chance
	for t, w := range lw {
		acc := coinAcc(t - n)
		if t < n {
			acc = s.acc[t]
		}
		pairs[t] = weighted{v: acc, w: (1 - f.Spammer) * w}
		f.Accuracy += pairs[t].w * acc
		if acc < chance {
			below += w
		}
	}
	pairs = append(pairs, weighted{v: chance, w: f.Spammer})
	sortWeighted(pairs)
	tail := (1 - set.Level) / 2
	f.Lo = weightedQuantile(pairs, tail)
	f.Hi = weightedQuantile(pairs, 1-tail)
	f.Adversarial = (1 - f.Spammer) * below
	// The two kinds are disjoint: the worker is bad with probability
	// their sum, and flagged as the more probable kind when that sum
	// reaches the threshold.
	if f.Spammer+f.Adversarial >= set.Threshold {
		f.Flag = Spammer
		if f.Adversarial > f.Spammer {
			f.Flag = Adversarial
		}
	}
}

// logBeta returns the logarithm of the multivariate beta function,
// Σ log Γ(a_i) − log Γ(Σ a_i).
func logBeta(a []float64) float64 {
	var s, sum float64
	for _, x := range a {
		lg, _ := math.Lgamma(x)
		s += lg
		sum += x
	}
	lg, _ := math.Lgamma(sum)
	return s - lg
}

// quantileSorted returns the q-quantile of the sorted values x by linear
// interpolation between order statistics.
func quantileSorted(x []float64, q float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	h := q * float64(len(x)-1)
	i := int(h)
	if i >= len(x)-1 {
		return x[len(x)-1]
	}
	return x[i] + (h-float64(i))*(x[i+1]-x[i])
}

// workerCounts returns every worker's label counts C_w(z, y), K×K, against
// its tasks' consensus with the worker's own label left out: label i of
// worker w on task j counts for class z with weight ρ_j(z)/π̄_w(z, y_i),
// normalised, where ρ_j is the consensus distribution and π̄_w the
// posterior mean of the worker's confusion. The fit's own expected counts
// include the label's pull on its task's consensus, which makes every
// worker look more reliable than it is when tasks have few labels. It
// also returns every label's weights, labels×K.
func workerCounts(p *Posterior) (counts [][]float64, r []float64) {
	d := p.Data
	k := d.NumClasses()
	mean := make([]float64, d.NumWorkers()*k*k)
	lam := make([]float64, k*k)
	for w := range d.Workers {
		p.Workers.Confusion(w, lam)
		for z := range k {
			var s float64
			for _, x := range lam[z*k : (z+1)*k] {
				s += x
			}
			for y := range k {
				mean[(w*k+z)*k+y] = lam[z*k+y] / s
			}
		}
	}
	counts = make([][]float64, d.NumWorkers())
	for w := range counts {
		counts[w] = make([]float64, k*k)
	}
	prior := classPrior(p)
	logMean := make([]float64, len(mean))
	for i, x := range mean {
		logMean[i] = math.Log(max(x, 1e-300))
	}
	all := make([]float64, k)
	r = make([]float64, d.NumLabels()*k)
	for j := range d.Tasks {
		copy(all, prior)
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w, y := int(d.Worker[i]), int(d.Label[i])
			for z := range k {
				all[z] += logMean[(w*k+z)*k+y]
			}
		}
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w, y := int(d.Worker[i]), int(d.Label[i])
			ri := r[i*k : (i+1)*k]
			for z := range k {
				ri[z] = all[z] - logMean[(w*k+z)*k+y]
			}
			softmax(ri)
			for z := range k {
				counts[w][z*k+y] += ri[z]
			}
		}
	}
	return counts, r
}
