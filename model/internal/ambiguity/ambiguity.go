// Package ambiguity computes the posterior of a task's true class when the
// task may be ambiguous around it: its label distribution q_j lies near the
// vertex of its true class z_j, but may have wandered towards another
// class, and every label's subjective class is drawn from q_j before the
// worker's noise corrupts it. Independent workers under one true class
// (LA) are the limit of no ambiguity.
//
// The model is the two-class reduction of q_j ~ Dirichlet(s·e_c + a·K·π)
// for z_j = c, with π the class prior: q_j = (1 − λ)·e_c + λ·e_d with the
// distractor class d drawn from the other K − 1 classes in proportion to
// their prior, w_c(d) = π_d / (1 − π_c), and λ ~ Beta(u, v). At K = 2 it
// is that Dirichlet exactly (u = a·K·π_d, v = s + a·K·π_c); at K > 2 it is
// its limit for small a, where the mass off the vertex falls on one other
// class, chosen as the base measure π chooses it: a task does not wander
// towards a class that hardly any task has. The marginal likelihood of the
// labels given z_j = c is then, with P_i(x) the probability of label i
// from its worker when its subjective class is x,
//
//	ML_c = Σ_{d≠c} w_c(d) ∫ Beta(λ; u, v) Π_i ((1−λ)·P_i(c) + λ·P_i(d)) dλ
//	     = Σ_{d≠c} w_c(d) Σ_m ẽ_m(c, d) · BB_n(m; u, v),
//
// where ẽ_m(c, d) is the mean over the m-subsets S of the n labels of
// Π_{i∈S} P_i(d) Π_{i∉S} P_i(c), and BB_n(m; u, v) the beta-binomial
// probability of m. The ẽ of a pair of classes are one recursion over the
// labels (O(n²)), shared by both orders of the pair (ẽ_m(d, c) =
// ẽ_{n−m}(c, d)); the hyperparameters then only change the weights BB.
package ambiguity

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// Cond writes into p the probability P(y | z) of every label y from worker
// w on task j when the label's subjective class is z.
type Cond func(w int32, j, z int, p []float64)

// Prior holds the hyperparameters of λ ~ Beta(U, V), the share of a task's
// label distribution off the vertex of its true class. U = 0 is LA: no
// ambiguity.
type Prior struct {
	U, V float64
}

// Labels computes the per-label probabilities of the tasks of a data set
// from the workers' conditionals, deconvolved by the ambiguity they
// absorbed in a fit under LA (see SetMean).
type Labels struct {
	d          *data.Dataset
	k          int
	cond       Cond
	workerOnly bool
	mu         float64
	w          []float64 // the distractor's weights w_c(d), K×K
	finv       []float64 // F⁻¹ at mu (K > 2; K×K)
	raw        []float64 // the fit's P(y | z) of every worker, K×K each, when workerOnly
	cache      []float64 // raw deconvolved by mu
	p, m, tmp  []float64
}

// NewLabels returns the Labels of d under cond and the class prior prior
// (K, positive), which weighs the distractors; workerOnly says that cond
// does not depend on the task, so that it is read once per worker.
func NewLabels(d *data.Dataset, cond Cond, workerOnly bool, prior []float64) *Labels {
	k := d.NumClasses()
	l := &Labels{d: d, k: k, cond: cond, workerOnly: workerOnly, p: make([]float64, k), m: make([]float64, k*k), tmp: make([]float64, k*k)}
	l.w = distractors(prior)
	if workerOnly {
		l.raw = make([]float64, d.NumWorkers()*k*k)
		for w := range d.NumWorkers() {
			for z := range k {
				cond(int32(w), 0, z, l.raw[(w*k+z)*k:(w*k+z+1)*k])
			}
		}
		l.cache = slices.Clone(l.raw)
	}
	return l
}

// distractors returns the weights w_c(d) = π_d / (1 − π_c) of the
// distractor d of a task of true class c (K×K, zero on the diagonal) for
// the class prior π.
func distractors(prior []float64) []float64 {
	k := len(prior)
	w := make([]float64, k*k)
	for c := range k {
		var rest float64
		for d, p := range prior {
			if d != c {
				rest += p
			}
		}
		for d, p := range prior {
			if d != c {
				w[c*k+d] = p / rest
			}
		}
	}
	return w
}

// SetMean sets the mean share μ of a task's label distribution off its true
// class, which a fit under LA reads as the workers' noise: its
// conditionals are then F·P(y | x) with F(z, x) = 1 − μ for x = z and
// μ·w_z(x) otherwise, the probability of subjective class x on a task of
// true class z. The workers' own conditionals are F⁻¹ times the fit's, each
// probability kept at least a tenth of the fit's and the rows
// renormalised. F is diagonally dominant for μ < ½, so it has an inverse.
func (l *Labels) SetMean(mu float64) {
	l.mu = mu
	if l.k > 2 {
		l.finv = mixInverse(l.w, l.k, mu)
	}
	if l.workerOnly {
		k := l.k
		for w := range l.d.NumWorkers() {
			l.deconvolve(l.raw[w*k*k:(w+1)*k*k], l.cache[w*k*k:(w+1)*k*k])
		}
	}
}

// mixInverse returns F⁻¹ (K×K) for F(z, x) = 1 − μ at x = z and μ·w(z, x)
// otherwise.
func mixInverse(w []float64, k int, mu float64) []float64 {
	f := mat.NewDense(k, k, nil)
	for z := range k {
		for x := range k {
			v := mu * w[z*k+x]
			if x == z {
				v = 1 - mu
			}
			f.Set(z, x, v)
		}
	}
	var inv mat.Dense
	if err := inv.Inverse(f); err != nil {
		// Unreachable for μ < ½: F is strictly diagonally dominant.
		panic("ambiguity: mixing matrix not invertible: " + err.Error())
	}
	return inv.RawMatrix().Data
}

// deconvolve writes F⁻¹·src into dst, K×K rows of P(y | z), as SetMean
// describes: at K = 2 in the closed form of the function deconvolve,
// otherwise by the F⁻¹ of SetMean.
func (l *Labels) deconvolve(src, dst []float64) {
	k := l.k
	if k == 2 {
		deconvolve(src, dst, k, l.mu)
		return
	}
	for x := range k {
		for y := range k {
			var v float64
			for z := range k {
				v += l.finv[x*k+z] * src[z*k+y]
			}
			dst[x*k+y] = max(v, 0.1*src[x*k+y])
		}
	}
	normRows(dst, k)
}

// deconvolve writes F⁻¹·src into dst, K×K rows of P(y | z), as SetMean
// describes, for distractors uniform over the other classes (at K = 2, the
// only other class). With β = μ/(K−1) and α = 1 − K·β, F = α·I + β·J and
// F⁻¹ = (I − β·J)/α.
func deconvolve(src, dst []float64, k int, mu float64) {
	beta := mu / float64(k-1)
	alpha := 1 - float64(k)*beta
	for y := range k {
		var col float64
		for z := range k {
			col += src[z*k+y]
		}
		for x := range k {
			dst[x*k+y] = max((src[x*k+y]-beta*col)/alpha, 0.1*src[x*k+y])
		}
	}
	normRows(dst, k)
}

// normRows scales every K-long row of m to sum to one.
func normRows(m []float64, k int) {
	for x := 0; x < len(m); x += k {
		row := m[x : x+k]
		var s float64
		for _, v := range row {
			s += v
		}
		for y := range row {
			row[y] /= s
		}
	}
}

// like writes P_i(x) / max_x P_i(x) of every label i of task j, from
// workers[i] with label labels[i] (the task's, as d.TaskLabels returns
// them), into dst (n×K, grown as needed) and returns it with
// Σ_i log max_x P_i(x).
func (l *Labels) like(j int, workers []int32, labels []uint16, dst []float64) ([]float64, float64) {
	k := l.k
	dst = slices.Grow(dst[:0], len(workers)*k)[:len(workers)*k]
	scale := num.NewProduct()
	for i, w := range workers {
		y := int(labels[i])
		row := dst[i*k : (i+1)*k]
		switch {
		case l.cache != nil:
			for z := range k {
				row[z] = l.cache[(int(w)*k+z)*k+y]
			}
		case l.mu == 0:
			for z := range k {
				l.cond(w, j, z, l.p)
				row[z] = l.p[y]
			}
		default:
			for z := range k {
				l.cond(w, j, z, l.m[z*k:(z+1)*k])
			}
			copy(l.tmp, l.m)
			l.deconvolve(l.tmp, l.m)
			for z := range k {
				row[z] = l.m[z*k+y]
			}
		}
		top := 0.0
		for _, v := range row {
			top = max(top, v)
		}
		top = max(top, 1e-300)
		for z := range row {
			row[z] /= top
		}
		scale.Mul(top)
	}
	return dst, scale.Log()
}

// pairSums writes into e (grown as needed) the n+1 sums ẽ_0 … ẽ_n of every
// pair of classes c < d in order, for the per-label probabilities lk (n×K),
// and returns it. A pair's sums that fall below 10⁻²⁰⁰ are rescaled on the
// way and scaled back at the end, so that they underflow only where they
// are negligible beside the task's other pairs.
func pairSums(lk []float64, n, k int, e []float64) []float64 {
	size := k * (k - 1) / 2 * (n + 1)
	e = slices.Grow(e[:0], size)[:size]
	p := 0
	for c := range k {
		for d := c + 1; d < k; d++ {
			v := e[p*(n+1) : (p+1)*(n+1)]
			v[0] = 1
			var extra float64
			for i := range n {
				a, b := lk[i*k+c], lk[i*k+d]
				// ẽ'_m = ((i+1−m)·a·ẽ_m + m·b·ẽ_{m−1}) / (i+1)
				inv := 1 / float64(i+1)
				v[i+1] = b * v[i]
				for m := i; m >= 1; m-- {
					v[m] = (float64(i+1-m)*a*v[m] + float64(m)*b*v[m-1]) * inv
				}
				v[0] *= a
				if i%16 == 15 {
					top := 0.0
					for _, x := range v[:i+2] {
						top = max(top, x)
					}
					if top > 0 && top < 1e-200 {
						for m := range v[:i+2] {
							v[m] /= top
						}
						extra += math.Log(top)
					}
				}
			}
			if extra != 0 {
				f := math.Exp(extra)
				for m := range v {
					v[m] *= f
				}
			}
			p++
		}
	}
	return e
}

// weights writes the beta-binomial probabilities BB_n(m; U, V), m = 0 … n,
// into dst (grown as needed) and returns it; for U = 0, the point mass at
// m = 0.
func (pr Prior) weights(n int, dst []float64) []float64 {
	dst = slices.Grow(dst[:0], n+1)[:n+1]
	if pr.U == 0 {
		clear(dst)
		dst[0] = 1
		return dst
	}
	u, v := pr.U, pr.V
	lg := func(x float64) float64 { r, _ := math.Lgamma(x); return r }
	base := lg(float64(n)+1) + lg(u+v) - lg(u) - lg(v) - lg(u+v+float64(n))
	for m := range n + 1 {
		dst[m] = math.Exp(base - lg(float64(m)+1) - lg(float64(n-m)+1) + lg(u+float64(m)) + lg(v+float64(n-m)))
	}
	return dst
}

// marginal writes into ml the marginal likelihood ML_c of every class c
// from the pair sums e of a task with n labels, the beta-binomial weights
// bb and the distractors' weights w (K×K).
func marginal(e []float64, n, k int, bb, w, ml []float64) {
	clear(ml)
	p := 0
	for c := range k {
		for d := c + 1; d < k; d++ {
			v := e[p*(n+1) : (p+1)*(n+1)]
			var sc, sd float64
			for m, x := range v {
				sc += x * bb[m]
				sd += x * bb[n-m]
			}
			ml[c] += w[c*k+d] * sc
			ml[d] += w[d*k+c] * sd
			p++
		}
	}
}

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
// quarter of all K(K−1)/2 (at K = 2, the one pair). A class that few tasks have adds pairs whose
// sums weigh little in the likelihood (through the prior and the
// distractors' weights), and would otherwise thin the sample.
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

// Posterior writes into probs (J×K) the posterior of every task's true
// class under pr and the class prior prior, P(z_j = c | labels) ∝ π_c ML_c,
// mixed with floor of the uniform distribution, except on tasks of known
// class (gold[j] ≥ 0; gold may be nil) and tasks of more than MaxLabels
// labels, which it leaves as they are.
func Posterior(l *Labels, pr Prior, prior []float64, gold []int, floor float64, probs []float64) {
	d, k := l.d, l.k
	var lk, e []float64
	bbs := make([][]float64, MaxLabels+1)
	ml := make([]float64, k)
	u := floor / float64(k)
	for j := range d.NumTasks() {
		n := d.Offsets[j+1] - d.Offsets[j]
		if (gold != nil && gold[j] >= 0) || n > MaxLabels {
			continue
		}
		workers, labels := d.TaskLabels(j)
		lk, _ = l.like(j, workers, labels, lk)
		e = pairSums(lk, n, k, e)
		if bbs[n] == nil {
			bbs[n] = pr.weights(n, nil)
		}
		marginal(e, n, k, bbs[n], l.w, ml)
		row := probs[j*k : (j+1)*k]
		var s float64
		for c := range row {
			row[c] = prior[c] * ml[c]
			s += row[c]
		}
		for c := range row {
			if s > 0 {
				row[c] /= s
			} else {
				row[c] = prior[c]
			}
			row[c] = (1-floor)*row[c] + u
		}
	}
}

// heldOutLabels bounds the labels of the tasks HeldOut reads: holding out
// each label of a task of n labels costs O(n³) a pair of classes.
const heldOutLabels = 50

// HeldOut returns the held-out predictions of labels under pr and the
// class prior prior, the inputs of temper.Best: for every label i of
// every m-th task with two to heldOutLabels labels and no gold class
// (gold[j] ≥ 0; gold may be nil), m chosen so that about maxEntries/K
// labels are read, one K-long row of loo, the log posterior of every
// class without the label, log π_c ML_c(y_{−i}) up to a constant, and one
// of pc, the label's probability given the class and the task's other
// labels, ML_c(y) / ML_c(y_{−i}), up to a factor common to the classes.
// Under the model the labels of a task are dependent given its class
// (through λ and the distractor), so a label is predicted by the
// marginal likelihoods with and without it, not by its worker's
// conditional alone.
func HeldOut(l *Labels, pr Prior, prior []float64, gold []int, maxEntries int) (loo, pc []float64) {
	d, k := l.d, l.k
	var total int
	for j := range d.NumTasks() {
		if n := d.Offsets[j+1] - d.Offsets[j]; n >= 2 && n <= heldOutLabels {
			total += n * k
		}
	}
	stride := max(1, total/max(maxEntries, 1))
	var lk, rest, e []float64
	bbs := make([][]float64, heldOutLabels+1)
	weights := func(n int) []float64 {
		if bbs[n] == nil {
			bbs[n] = pr.weights(n, nil)
		}
		return bbs[n]
	}
	all, without := make([]float64, k), make([]float64, k)
	for j := 0; j < d.NumTasks(); j += stride {
		n := d.Offsets[j+1] - d.Offsets[j]
		if n < 2 || n > heldOutLabels || (gold != nil && gold[j] >= 0) {
			continue
		}
		workers, labels := d.TaskLabels(j)
		lk, _ = l.like(j, workers, labels, lk)
		e = pairSums(lk, n, k, e)
		marginal(e, n, k, weights(n), l.w, all)
		for i := range n {
			rest = append(append(rest[:0], lk[:i*k]...), lk[(i+1)*k:]...)
			e = pairSums(rest, n-1, k, e)
			marginal(e, n-1, k, weights(n-1), l.w, without)
			for c := range k {
				loo = append(loo, math.Log(max(prior[c]*without[c], 1e-300)))
				pc = append(pc, all[c]/max(without[c], 1e-300))
			}
		}
	}
	return loo, pc
}
