package plan

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
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
	// Draws is the number of posterior draws per worker behind the
	// interval and the probability of being adversarial; zero means 4000.
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
	o.Draws = cmp.Or(o.Draws, 4000)
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
	// whatever its labels, an adversary's is below. Lo and Hi bound its
	// equal-tailed credible interval at FlagSettings.Level.
	Accuracy, Lo, Hi float64
	// Spammer is the posterior probability that the worker's labels do not
	// depend on the true class (every row of its confusion matrix the same
	// distribution), against a free confusion matrix: a comparison of the
	// two models' marginal likelihoods of the worker's expected label
	// counts, with prior probability FlagSettings.SpammerPrior.
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
// p.Data.Workers. The counts behind it are the expected counts of the fit,
// C_w(z, y) = λ_w(z, y) − β(z, y); the free model gives every confusion
// row the fit's prior Dirichlet(β_z), the spammer model one distribution
// for all rows with a uniform Dirichlet prior. A nil posterior, or one
// without data or workers, is an error.
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
	beta := make([]float64, k*k)
	p.Workers.ConfusionPrior(beta)
	counts := workerCounts(p, beta)
	pop := fitPopulation(counts, k)
	var wg sync.WaitGroup
	const block = 64
	sem := make(chan struct{}, 4)
	for lo := 0; lo < len(out); lo += block {
		hi := min(lo+block, len(out))
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			for w := lo; w < hi; w++ {
				f := &out[w]
				f.Agreement = math.NaN()
				if f.Labels > 0 {
					f.Agreement = float64(agree[w]) / float64(f.Labels)
				}
				flagWorker(f, counts[w], pop, k, set, uint64(w))
			}
		}()
	}
	wg.Wait()
	return out, nil
}

// flagWorker fills f's accuracy, interval and probabilities from the
// worker's expected counts c (K×K) and the population model m.
func flagWorker(f *WorkerFlag, c []float64, m *population, k int, set FlagSettings, w uint64) {
	lm := m.logMarginals(c)
	post := m.weights(lm)
	f.Spammer = post[0]
	// The balanced accuracy given that the worker is not a spammer: a
	// draw picks the reliable or the broad component by their posterior
	// weights, then every diagonal entry π(z, z) ~ Beta(λ_zz, Σ_y λ_zy −
	// λ_zz) under that component's posterior, the rows independent.
	src := rand.NewPCG(set.Seed, w)
	rng := rand.New(src)
	comps := [2][]distuv.Beta{make([]distuv.Beta, k), make([]distuv.Beta, k)}
	var mean [2]float64
	for i, prior := range [2][]float64{m.good, m.broad} {
		for z := range k {
			var s float64
			for y := range k {
				s += prior[z*k+y] + c[z*k+y]
			}
			a := prior[z*k+z] + c[z*k+z]
			mean[i] += a / s / float64(k)
			comps[i][z] = distuv.Beta{Alpha: a, Beta: s - a, Src: src}
		}
	}
	pGood := post[1] / (post[1] + post[2])
	if math.IsNaN(pGood) {
		pGood = 0.5
	}
	f.Accuracy = pGood*mean[0] + (1-pGood)*mean[1]
	draws := make([]float64, set.Draws)
	below := 0
	for i := range draws {
		comp := comps[1]
		if rng.Float64() < pGood {
			comp = comps[0]
		}
		var acc float64
		for z := range comp {
			acc += comp[z].Rand()
		}
		acc /= float64(k)
		draws[i] = acc
		if acc < 1/float64(k) {
			below++
		}
	}
	slices.Sort(draws)
	tail := (1 - set.Level) / 2
	f.Lo = quantileSorted(draws, tail)
	f.Hi = quantileSorted(draws, 1-tail)
	f.Adversarial = (1 - f.Spammer) * float64(below) / float64(len(draws))
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
// worker look more reliable than it is when tasks have few labels.
func workerCounts(p *Posterior, beta []float64) [][]float64 {
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
	counts := make([][]float64, d.NumWorkers())
	for w := range counts {
		counts[w] = make([]float64, k*k)
	}
	prior := classPrior(p)
	logMean := make([]float64, len(mean))
	for i, x := range mean {
		logMean[i] = math.Log(max(x, 1e-300))
	}
	all := make([]float64, k)
	r := make([]float64, k)
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
			for z := range k {
				r[z] = all[z] - logMean[(w*k+z)*k+y]
			}
			softmax(r)
			for z := range k {
				counts[w][z*k+y] += r[z]
			}
		}
	}
	return counts
}
