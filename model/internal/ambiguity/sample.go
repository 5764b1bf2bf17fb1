package ambiguity

import (
	"math"
	"slices"

	"github.com/consensuslab/consensus/internal/num"
)

// Sample holds the pair sums of some tasks, from which the hyperparameters
// are chosen by empirical Bayes.
type Sample struct {
	l     *Labels
	k     int
	tasks []int
	n     []int
	off   []int
	e     []float64
	prior []float64
	scale float64 // Σ_j Σ_i log max_x P_i(x) over the tasks
	// workers and labels hold the tasks' labels one after another, n[t]
	// of them for task t, which every update reads: copied once from the
	// data set, where the sampled tasks lie far apart in memory.
	workers []int32
	labels  []uint16
	maxN    int // the largest number of labels of a task
}

// maxSample bounds the number of pair sums a Sample holds.
const maxSample = 60_000

// MaxLabels is the largest number of labels of a task whose posterior
// Posterior computes, and that a Sample holds: the pair sums cost O(n²) a
// pair of classes for n labels.
const MaxLabels = 1000

// NewSample returns the Sample of every m-th task of d with at least two
// and at most MaxLabels labels and no gold class (gold[j] < 0; gold may be
// nil), under the class prior prior. m is chosen so that the sample holds
// about maxSample sums of the pairs of classes the tasks use: the pairs of
// K' = exp(H(prior)) classes, the prior's perplexity, but at least a
// quarter of all K(K−1)/2 (at K = 2, the one pair). A class that few
// tasks have adds pairs whose sums weigh little in the likelihood (through
// the prior and the distractors' weights), and would otherwise thin the
// sample: on the regime "ambiguous" with a fourth class that no label
// names, the sample sized by all pairs read a third of the tasks and the
// model's gain over LA fell from 21 to 6 nats.
func NewSample(l *Labels, prior []float64, gold []int) *Sample {
	d, k := l.d, l.k
	pairs := float64(k * (k - 1) / 2)
	var h float64
	for _, p := range prior {
		if p > 0 {
			h -= p * math.Log(p)
		}
	}
	if used := math.Exp(h); k > 2 {
		pairs = min(pairs, max(used*(used-1)/2, pairs/4))
	}
	stride := max(1, int(float64(d.NumLabels()+d.NumTasks())*pairs/maxSample))
	s := &Sample{l: l, k: k, prior: prior}
	for j := 0; j < d.NumTasks(); j += stride {
		n := d.Offsets[j+1] - d.Offsets[j]
		if n < 2 || n > MaxLabels || (gold != nil && gold[j] >= 0) {
			continue
		}
		s.tasks = append(s.tasks, j)
		s.n = append(s.n, n)
		s.maxN = max(s.maxN, n)
		workers, labels := d.TaskLabels(j)
		s.workers = append(s.workers, workers...)
		s.labels = append(s.labels, labels[:len(workers)]...)
	}
	s.update()
	return s
}

// update computes the pair sums of the tasks under the Labels' current
// deconvolution.
func (s *Sample) update() {
	var lk []float64
	var sc float64
	s.e, s.off, s.scale = s.e[:0], append(s.off[:0], 0), 0
	pairs := s.k * (s.k - 1) / 2
	from := 0 // task t's first label in s.workers and s.labels
	for t, j := range s.tasks {
		n := s.n[t]
		lk, sc = s.l.like(j, s.workers[from:from+n], s.labels[from:from+n], lk)
		from += n
		s.scale += sc
		at := len(s.e)
		// Room for the task's sums, every one of which pairSums writes,
		// without a zeroed slice to append.
		s.e = slices.Grow(s.e, pairs*(n+1))[:at+pairs*(n+1)]
		pairSums(lk, n, s.k, s.e[at:])
		s.off = append(s.off, len(s.e))
	}
}

// Tasks returns the number of tasks of s.
func (s *Sample) Tasks() int { return len(s.n) }

// LogLik returns Σ_j log Σ_c π_c ML_c(j) over the tasks of s under pr, at
// the Labels' current deconvolution, up to a constant that does not depend
// on pr.
func (s *Sample) LogLik(pr Prior) float64 {
	k := s.k
	ml := make([]float64, k)
	bbs := make([][]float64, s.maxN+1)
	prod := num.NewProduct()
	for t, n := range s.n {
		if bbs[n] == nil {
			bbs[n] = pr.weights(n, nil)
		}
		marginal(s.e[s.off[t]:s.off[t+1]], n, k, bbs[n], s.l.w, ml)
		var l float64
		for c, v := range ml {
			l += s.prior[c] * v
		}
		prod.Mul(max(l, 1e-300))
	}
	// The per-label scales that like divides out depend on the
	// deconvolution.
	return prod.Log() + s.scale
}

// profile returns the concentration κ = U + V of largest LogLik at the
// mean μ = U/(U+V) (the Labels deconvolved by μ), and that LogLik. It
// raises *la to LA's LogLik at the same Labels, if that is larger.
func (s *Sample) profile(mu float64, la *float64) (float64, float64) {
	s.l.SetMean(mu)
	s.update()
	*la = max(*la, s.LogLik(Prior{}))
	f := func(lk float64) float64 {
		kappa := math.Exp(lk)
		return s.LogLik(Prior{mu * kappa, (1 - mu) * kappa})
	}
	lk, fx, _, _ := num.GoldenMax(math.Log(0.1), math.Log(1000), 10, f)
	return math.Exp(lk), fx
}

// Estimate returns the Prior of largest LogLik on s, each at the Labels
// deconvolved by its mean: the profile over the concentration on a grid of
// means, then a golden-section search of the mean around the grid's best.
// It also returns the gain of its LogLik over LA's (U = 0) at the best of
// the same deconvolutions, which sharpen the workers whatever the
// ambiguity, and leaves the Labels deconvolved by the Prior's mean.
func (s *Sample) Estimate() (Prior, float64) {
	s.l.SetMean(0)
	s.update()
	la := s.LogLik(Prior{})
	if s.Tasks() == 0 {
		return Prior{}, 0
	}
	best, bm, bk := la, 0.0, 0.0
	try := func(mu float64) float64 {
		k, x := s.profile(mu, &la)
		if x > best {
			best, bm, bk = x, mu, k
		}
		return x
	}
	for lm := math.Log(0.01); lm <= math.Log(0.4)+1e-9; lm += math.Log(2) {
		try(math.Exp(lm))
	}
	if bm > 0 {
		num.GoldenMax(math.Log(bm)-math.Log(2), min(math.Log(bm)+math.Log(2), math.Log(0.45)), 4, func(lm float64) float64 {
			return try(math.Exp(lm))
		})
	}
	s.l.SetMean(bm)
	return Prior{bm * bk, (1 - bm) * bk}, best - la
}
