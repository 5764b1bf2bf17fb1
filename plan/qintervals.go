package plan

import (
	"cmp"
	"context"
	"errors"
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
)

// DAModel is the model whose label distributions LabelIntervals bounds:
// variational Dawid-Skene under the latent distribution assumption
// (vb-da-ds), whose posterior of every task's label distribution q_j is
// Dirichlet(γ_j).
var DAModel = vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}}

// LabelIntervals returns credible intervals for every task's label
// distribution q_j(z), J×K, from a fit r of DAModel: the equal-tailed
// intervals at s.Level of the posterior of q_j given the task's labels, its
// workers' posterior mean confusion matrices and a Dirichlet prior fitted
// to the crowd by empirical Bayes (see qPosterior and qIntervals), sampled
// by importance sampling with s.Draws draws per task (zero: 400) seeded
// with s.Seed.
//
// The confusion matrices are those of the LA fit, vb-la-ds (s.Workers, or
// a fit made here), not r's. Under DA a worker's noise and its tasks'
// ambiguity are told apart only by the worker's consistency across tasks,
// and with few labels a task the DA fit's split between them is arbitrary:
// on simulated DA crowds its workers were sharper than the true ones at K
// = 2 (mean diagonal 0.78 against 0.75), and intervals from them too
// narrow (coverage 0.84-0.86 at 90%). The LA fit counts all disagreement
// as noise, which widens the likelihood of q_j; its intervals covered
// 0.88-0.90 on the same crowds (docs/planning.md).
//
// The fit's own posterior of q_j, Dirichlet(γ_j) with γ_j = E[q_j]·(K a +
// n_j), covers the true q_j far less often than it claims (66-86% at 90%
// on simulated DA data): every label counts as a whole count of its
// expected class, though a label from a noisy worker says less than that,
// and its prior a = vb.JeffreysPrior is the same for every crowd.
// s.Fit's Threads is the number of goroutines (the output does not depend
// on it); s.Bootstrap is not used: the parametric bootstrap that
// calibrates ClassIntervals moved the coverage of these intervals away from
// the nominal level on simulated DA data (docs/planning.md).
func LabelIntervals(ctx context.Context, r *model.Result, s *IntervalSettings) (*Intervals, error) {
	if r == nil {
		return nil, errors.New("plan: no fit")
	}
	if r.Model != DAModel.Name() {
		return nil, errors.New("plan: label distribution intervals need a fit of " + DAModel.Name() + ", not " + r.Model)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var set IntervalSettings
	if s != nil {
		set = *s
	}
	set.Level = cmp.Or(set.Level, 0.9)
	set.Draws = cmp.Or(set.Draws, 400)
	p, err := FromResult(r)
	if err != nil {
		return nil, err
	}
	if p.Workers = set.Workers; p.Workers == nil {
		la, err := Fit(ctx, r.Data, set.Fit)
		if err != nil {
			return nil, err
		}
		p.Workers = la.Workers
	}
	post, alpha := qPosterior(r.Probs, r.Data)
	threads := 0
	if set.Fit != nil {
		threads = set.Fit.Threads
	}
	set.step(0, 1, "the label distributions' draws")
	lo, hi := qIntervals(p, post, alpha, set.Draws, set.Seed, []float64{set.Level}, threads)
	return &Intervals{Lo: lo[0], Hi: hi[0], Level: set.Level, Used: set.Level}, nil
}

// qPosterior returns the Dirichlet posterior of every task's label
// distribution, J×K: α + c_j, where c_j(z) = γ_j(z) − a are the task's
// expected class counts in the fit (γ_j = E[q_j]·(K a + n_j) for the prior
// pseudo-count a = vb.JeffreysPrior and the task's n_j labels) and α is
// the prior fitted to the tasks by empirical Bayes (qPrior). The fit's own
// prior, Dirichlet(a, …, a), is the same for every crowd; how spread the
// tasks' distributions are is a property of the crowd, and an interval
// from the wrong spread covers too little where the tasks are mixed and too
// much where they are pure.
func qPosterior(probs []float64, d *data.Dataset) (post, alpha []float64) {
	k := d.NumClasses()
	a := vb.JeffreysPrior
	c := make([]float64, len(probs))
	for j := range d.Tasks {
		total := float64(k)*a + float64(d.Offsets[j+1]-d.Offsets[j])
		for z := range k {
			c[j*k+z] = max(probs[j*k+z]*total-a, 0)
		}
	}
	alpha = qPrior(c, k)
	for i := range c {
		c[i] += alpha[i%k]
	}
	return c, alpha
}

// qPrior returns the Dirichlet prior α (K) that maximises the
// Dirichlet-multinomial likelihood of the tasks' class counts c (J×K): α
// = s·K·m, with m the mean class share and the concentration s found by a
// golden-section search of log s in [log 0.01, log 1000].
func qPrior(c []float64, k int) []float64 {
	m := make([]float64, k)
	var all float64
	for i, x := range c {
		m[i%k] += x
		all += x
	}
	for z := range m {
		m[z] = (m[z] + 1) / (all + float64(k))
	}
	alpha := make([]float64, k)
	ll := func(ls float64) float64 {
		var S float64
		for z := range k {
			alpha[z] = math.Exp(ls) * float64(k) * m[z]
			S += alpha[z]
		}
		lgS, _ := math.Lgamma(S)
		var lgA float64
		for _, x := range alpha {
			l, _ := math.Lgamma(x)
			lgA += l
		}
		var out float64
		for j := 0; j < len(c); j += k {
			var n float64
			for z := range k {
				l, _ := math.Lgamma(alpha[z] + c[j+z])
				out += l
				n += c[j+z]
			}
			l, _ := math.Lgamma(S + n)
			out += lgS - l - lgA
		}
		return out
	}
	_, _, lo, hi := num.GoldenMax(math.Log(0.01), math.Log(1000), 60, ll)
	ll((lo + hi) / 2)
	return alpha
}
