package plan

import (
	"cmp"
	"context"
	"errors"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// DAModel is the model whose label distributions LabelIntervals bounds:
// variational Dawid-Skene under the latent distribution assumption
// (vb-da-ds), whose posterior of every task's label distribution q_j is
// Dirichlet(γ_j).
var DAModel = model.Bayes{Noise: noise.DS{}, Latent: latent.DA{}}

// LabelIntervals returns credible intervals for every task's label
// distribution q_j(z), J×K, from a fit r of DAModel: the quantiles of the
// marginals Beta(γ_j(z), Σ γ_j − γ_j(z)) of its posterior, where γ_j =
// E[q_j]·(K a + n_j) for the prior pseudo-count a (model.JeffreysPrior)
// and the task's n_j labels (every label adds one to Σ_z γ_j(z)).
//
// Taken at the nominal level these intervals cover the true q_j far less
// often than they claim (64-86% at 90% on simulated DA data), because the
// mean-field posterior of q_j ignores what is unknown of the workers. The
// level is calibrated as ClassIntervals calibrates its own: s.Bootstrap
// data sets are simulated from the fit (every q_j drawn from its posterior,
// every label's class from q_j and the label from its worker's posterior
// mean confusion row, on the same task-worker pairs), fitted again, and
// the level of the quantiles taken is the one whose coverage of the
// simulated q_j, interpolated on a grid, is the nominal level. s.Draws is
// not used.
func LabelIntervals(ctx context.Context, r *model.Result, s *IntervalSettings) (*Intervals, error) {
	if r == nil {
		return nil, errors.New("plan: no fit")
	}
	if r.Model != DAModel.Name() {
		return nil, errors.New("plan: label distribution intervals need a fit of " + DAModel.Name() + ", not " + r.Model)
	}
	var set IntervalSettings
	if s != nil {
		set = *s
	}
	set.Level = cmp.Or(set.Level, 0.9)
	set.Bootstrap = cmp.Or(set.Bootstrap, 10)
	d := r.Data
	used := set.Level
	if set.Bootstrap > 0 {
		p, err := FromResult(r)
		if err != nil {
			return nil, err
		}
		grid := levelGrid(set.Level)
		in := make([]float64, len(grid))
		var all float64
		for b := range set.Bootstrap {
			sd, q := simulateDA(p, set.Seed, uint64(b))
			f, err := DAModel.Fit(ctx, sd, set.Fit)
			if err != nil {
				return nil, err
			}
			for i, l := range grid {
				lo, hi := betaIntervals(f.Probs, sd, l)
				for c, x := range q {
					if x >= lo[c] && x <= hi[c] {
						in[i]++
					}
				}
			}
			all += float64(len(q))
		}
		used = calibrate(grid, in, all, set.Level)
	}
	lo, hi := betaIntervals(r.Probs, d, used)
	return &Intervals{Lo: lo, Hi: hi, Level: set.Level, Used: used}, nil
}

// betaIntervals returns the intervals at level of the Beta marginals of
// every task's Dirichlet(γ_j) posterior, from the posterior means probs.
func betaIntervals(probs []float64, d *data.Dataset, level float64) (lo, hi []float64) {
	k := d.NumClasses()
	lo, hi = make([]float64, len(probs)), make([]float64, len(probs))
	tail := (1 - level) / 2
	for j := range d.Tasks {
		total := float64(k)*model.JeffreysPrior + float64(d.Offsets[j+1]-d.Offsets[j])
		for z := range k {
			c := j*k + z
			g := min(max(probs[c]*total, 1e-12), total-1e-12)
			b := distuv.Beta{Alpha: g, Beta: total - g}
			lo[c], hi[c] = b.Quantile(tail), b.Quantile(1-tail)
		}
	}
	return lo, hi
}

// simulateDA simulates a data set from the DA fit p on the task-worker
// pairs of p.Data, with a generator seeded with (seed, b): every q_j from
// Dirichlet(γ_j), every label's class from q_j, the label from its
// worker's posterior mean confusion row. It returns the data set and the
// q_j drawn, J×K.
func simulateDA(p *Posterior, seed, b uint64) (*data.Dataset, []float64) {
	d := p.Data
	k := d.NumClasses()
	src := rand.NewPCG(seed, b^0x51ab)
	rng := rand.New(src)
	means := workerMeans(p)
	out := &data.Dataset{Name: d.Name, Tasks: d.Tasks, Workers: d.Workers, Classes: d.Classes,
		Offsets: d.Offsets, Worker: d.Worker, Label: make([]uint16, len(d.Label))}
	q := make([]float64, d.NumTasks()*k)
	for j := range d.Tasks {
		total := float64(k)*model.JeffreysPrior + float64(d.Offsets[j+1]-d.Offsets[j])
		qj := q[j*k : (j+1)*k]
		var s float64
		for z := range k {
			qj[z] = distuv.Gamma{Alpha: max(p.Probs[j*k+z]*total, 1e-12), Beta: 1, Src: src}.Rand()
			s += qj[z]
		}
		for z := range k {
			qj[z] /= s
		}
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			w := int(d.Worker[i])
			z := pick(rng, qj, 1)
			out.Label[i] = uint16(pick(rng, means[(w*k+z)*k:(w*k+z+1)*k], 1))
		}
	}
	return out, q
}
