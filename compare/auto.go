package compare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// AutoModels are the candidates Auto chooses among when
// AutoOptions.Models is nil: the Bayesian Dawid-Skene models, which
// converge in a few dozen iterations and never put probability 0 on a
// class. vb-da-ds (the default model) gives calibrated label
// distributions, vb-hda-ds sharper ones when the tasks are clear, vb-la-ds
// the posterior of one true class.
var AutoModels = []string{model.DefaultModel, "vb-hda-ds", "vb-la-ds"}

// A Scorer is the gold-free criterion of Auto: it scores a result fitted
// to a training split on the labels held out of it. Lower is better.
type Scorer interface {
	// Name returns the criterion's name, such as "output".
	Name() string
	// Score returns the loss of r, fitted to train, on the held-out
	// labels held: a sum of per-label losses and the sum of their
	// weights. The score over several splits is the sum of the losses
	// divided by the sum of the weights. A zero weight means the
	// criterion could not score any label.
	Score(r *model.Result, train *data.Dataset, held []HeldLabel) (loss, weight float64)
}

// LabelLikelihood is the held-out label likelihood of Run's HeldOut
// criterion (HeldOutLogLik): the mean of -log_K P(y) over the held-out
// labels, P(y) = Σ_z out_j(z) P(y | z; w, j) with the fitted noise
// model. It scores the whole generative model, so a sharp consensus with
// a noise model that explains the disagreement scores well even when the
// consensus is overconfident.
type LabelLikelihood struct{}

var _ Scorer = LabelLikelihood{}

// Name returns "likelihood".
func (LabelLikelihood) Name() string { return "likelihood" }

// Score returns the summed -log_K P(y) of the held-out labels and their
// number.
func (LabelLikelihood) Score(r *model.Result, train *data.Dataset, held []HeldLabel) (loss, weight float64) {
	s, n := HeldOutLogLik(r, train, held)
	for j := range s {
		loss -= s[j]
		weight += n[j]
	}
	return loss, weight
}

// OutputLoss scores the consensus distribution itself as a prediction of a
// held-out label: the loss of a held-out label y of object j is
// -log_K out_j(y), with out_j the fitted consensus (for rfe its add-one
// smoothed frequencies), whatever the noise model. The held-out labels
// stand in for gold labels, so the score favours outputs that are sharp
// where the workers agree and spread where they disagree.
//
// With Reliable set, each held-out label is weighted by its worker's
// reliability, estimated from the training labels alone and the same for
// every candidate: the worker's leave-one-out agreement a_w (the mean, over
// the worker's training labels on objects with other training labels, of
// the fraction of the other labels that are the same class), shrunk
// towards chance by two pseudo-labels and corrected for chance,
//
//	κ_w = max(0, (ã_w - c) / (1 - c)),  ã_w = (A_w + 2c) / (n_w + 2),
//
// where A_w is the summed agreement over the worker's n_w such labels and
// c = Σ_z f_z² is the chance agreement of the training labels' class
// frequencies f. The labels of reliable workers then count most, which
// brings the score closer to a log loss on gold labels; a worker with no
// training labels gets weight 0.
type OutputLoss struct {
	// Reliable weights each held-out label by its worker's reliability.
	Reliable bool
}

var _ Scorer = OutputLoss{}

// Name returns "output", or "output-reliable" with Reliable set.
func (o OutputLoss) Name() string {
	if o.Reliable {
		return "output-reliable"
	}
	return "output"
}

// Score returns the (weighted) sum of -log_K out_j(y) over the held-out
// labels and the sum of their weights.
func (o OutputLoss) Score(r *model.Result, train *data.Dataset, held []HeldLabel) (loss, weight float64) {
	k := train.NumClasses()
	logK := math.Log(float64(k))
	p := r.Consensus().Scored()
	var rel []float64
	if o.Reliable {
		rel = WorkerReliability(train)
	}
	for _, h := range held {
		w := 1.0
		if rel != nil {
			w = rel[h.Worker]
		}
		if w == 0 {
			continue
		}
		loss -= w * math.Log(p[h.Task*k+int(h.Label)]) / logK
		weight += w
	}
	return loss, weight
}

// WorkerReliability returns every worker's chance-corrected leave-one-out
// agreement κ_w on d, as OutputLoss describes: 0 for a worker who agrees
// with the others no more than chance or has no labels, towards 1 for one
// who agrees with every other label.
func WorkerReliability(d *data.Dataset) []float64 {
	k := d.NumClasses()
	total := make([]float64, k)
	for _, y := range d.Label {
		total[y]++
	}
	var c float64
	if n := float64(d.NumLabels()); n > 0 {
		for _, t := range total {
			c += (t / n) * (t / n)
		}
	}
	agree, count := agreement(d)
	const shrink = 2
	rel := make([]float64, d.NumWorkers())
	if c >= 1 {
		return rel
	}
	for w := range rel {
		if count[w] == 0 {
			continue
		}
		a := (agree[w] + shrink*c) / (count[w] + shrink)
		rel[w] = max(0, (a-c)/(1-c))
	}
	return rel
}

// OutputChannel scores the consensus distribution as a prediction of a
// held-out label passed through a labeller's noise that is the same for
// every candidate: the loss of a label y given by worker w to object j is
//
//	-log_K [ a_w out_j(y) + (1 - a_w) (1 - out_j(y)) / (K - 1) ],
//
// a one-coin channel whose accuracy a_w is estimated from the training
// labels alone (WorkerAccuracy), not from any candidate's noise model.
// If the channel were the labellers' true one, this would be a proper
// scoring rule for the distribution of the true class: a sharp output
// is not ruined by a held-out label that a noisy worker got wrong, and an
// overconfident one still pays where reliable workers disagree with it. A
// held-out label of a worker with no training labels uses the mean
// accuracy of the object's training workers.
type OutputChannel struct{}

var _ Scorer = OutputChannel{}

// Name returns "output-channel".
func (OutputChannel) Name() string { return "output-channel" }

// Score returns the summed channel loss of the held-out labels and their
// number.
func (OutputChannel) Score(r *model.Result, train *data.Dataset, held []HeldLabel) (loss, weight float64) {
	k := train.NumClasses()
	logK := math.Log(float64(k))
	p := r.Consensus().Scored()
	acc, seen := WorkerAccuracy(train)
	for _, h := range held {
		a := acc[h.Worker]
		if !seen[h.Worker] {
			workers, _ := train.TaskLabels(h.Task)
			a = 0
			for _, w := range workers {
				a += acc[w]
			}
			a /= float64(len(workers))
		}
		py := p[h.Task*k+int(h.Label)]
		loss -= math.Log(a*py+(1-a)*(1-py)/float64(k-1)) / logK
		weight++
	}
	return loss, weight
}

// WorkerAccuracy returns every worker's accuracy under a one-coin model
// (correct with probability a_w, otherwise a uniformly random other
// class), estimated by the method of moments from the leave-one-out
// agreement on d, and whether the worker has labels on objects with other
// labels. Two labels of the same object agree with probability
// a b + (1 - a)(1 - b)/(K - 1) for workers of accuracies a and b, so from a
// start of 0.7, twenty rounds set
//
//	a_w = ((K - 1) g_w - (1 - b_w)) / (K b_w - 1),
//
// with g_w the worker's agreement with the other labels of its objects and
// b_w the mean accuracy of those labels' workers, both shrunk by two
// pseudo-labels towards the crowd's means, and a_w kept in [1/K, 0.99].
// (Each round moves a_w halfway to that value: the undamped map has slope
// -1 at its fixed point when the accuracies are equal, and would
// oscillate.)
// A worker without such labels gets the crowd's mean accuracy.
func WorkerAccuracy(d *data.Dataset) (acc []float64, seen []bool) {
	k := float64(d.NumClasses())
	nw := d.NumWorkers()
	acc = make([]float64, nw)
	seen = make([]bool, nw)
	agree, count := agreement(d)
	for w, n := range count {
		seen[w] = n > 0
	}
	var gAll, nAll float64
	for w := range agree {
		gAll += agree[w]
		nAll += count[w]
	}
	const shrink = 2
	for w := range acc {
		acc[w] = 0.7
	}
	other := make([]float64, nw) // summed accuracy of the co-labellers
	for range 20 {
		clear(other)
		var mean float64
		for w := range acc {
			mean += acc[w] * count[w]
		}
		if nAll > 0 {
			mean /= nAll
		}
		for j := range d.Tasks {
			workers, _ := d.TaskLabels(j)
			n := len(workers)
			if n < 2 {
				continue
			}
			var sum float64
			for _, w := range workers {
				sum += acc[w]
			}
			for _, w := range workers {
				other[w] += (sum - acc[w]) / float64(n-1)
			}
		}
		g0 := 1 / k
		if nAll > 0 {
			g0 = gAll / nAll
		}
		for w := range acc {
			g := (agree[w] + shrink*g0) / (count[w] + shrink)
			b := (other[w] + shrink*mean) / (count[w] + shrink)
			a := mean
			if den := k*b - 1; den > 1e-9 {
				a = ((k-1)*g - (1 - b)) / den
			}
			acc[w] = (acc[w] + min(0.99, max(1/k, a))) / 2
		}
	}
	return acc, seen
}

// agreement returns, for every worker of d, the summed leave-one-out
// agreement of its labels on objects with other labels (the fraction of
// the other labels of the object that are the same class) and the number
// of such labels.
func agreement(d *data.Dataset) (agree, count []float64) {
	agree = make([]float64, d.NumWorkers())
	count = make([]float64, d.NumWorkers())
	counts := make([]float64, d.NumClasses())
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		n := len(labels)
		if n < 2 {
			continue
		}
		clear(counts)
		for _, y := range labels {
			counts[y]++
		}
		for i, w := range workers {
			agree[w] += (counts[labels[i]] - 1) / float64(n-1)
			count[w]++
		}
	}
	return agree, count
}

// ParseScorer returns the Scorer named s: "likelihood" (LabelLikelihood),
// "output" (OutputLoss), "output-reliable" (OutputLoss with Reliable) or
// "output-channel" (OutputChannel);
// "" is the default, DefaultScorer.
func ParseScorer(s string) (Scorer, error) {
	switch s {
	case "":
		return DefaultScorer, nil
	case "likelihood":
		return LabelLikelihood{}, nil
	case "output":
		return OutputLoss{}, nil
	case "output-reliable":
		return OutputLoss{Reliable: true}, nil
	case "output-channel":
		return OutputChannel{}, nil
	}
	return nil, fmt.Errorf("unknown criterion %q (valid: likelihood, output, output-reliable, output-channel)", s)
}

// DefaultScorer is the criterion of Auto when AutoOptions.Scorer is nil.
var DefaultScorer Scorer = OutputLoss{Reliable: true}

// AutoOptions controls Auto. The zero value chooses among AutoModels by
// DefaultScorer on three splits that each hold out a fifth of every
// object's labels, on at most 20,000 labels, with at most 300 iterations
// per fit.
type AutoOptions struct {
	// Models are the candidates' registry names; nil means AutoModels.
	Models []string
	// Estimators, if not nil, are the candidates instead of Models (such
	// as registered models with other priors).
	Estimators []model.Estimator
	// Scorer is the criterion; nil means DefaultScorer.
	Scorer Scorer
	// Settings are the fit settings of the candidates' fits (Threads is
	// set to 1, Progress is replaced and MaxIterations is bounded by
	// MaxIterations below); nil means the defaults.
	Settings *model.Settings
	// MaxIterations bounds the iterations of every candidate's fit, and so
	// the time of the choice: a fit stops at the smaller of this and
	// Settings.MaxIterations (1000 by default), and a candidate whose fit
	// stops there counts as not converged. Zero means 300.
	MaxIterations int
	// Parallel is the number of fits run at once; zero means
	// runtime.GOMAXPROCS(0).
	Parallel int
	// HoldOutFraction is the fraction of each object's labels held out in
	// a split; zero means 0.2.
	HoldOutFraction float64
	// Splits is the number of held-out splits; zero means 3.
	Splits int
	// MaxLabels bounds the time of the choice: on a data set with more
	// labels, the candidates are fitted to the labels of a subsample of
	// the objects, drawn with Seed, with about MaxLabels labels. Zero
	// means 20,000; negative means no subsample.
	MaxLabels int
	// Seed seeds the subsample and the splits.
	Seed uint64
	// Progress, if not nil, is called (from one goroutine at a time) when
	// a fit ends, with Run "auto", Done and Total counting the fits, Item
	// the candidate's name followed by " (split k)", and the fit's Err and
	// Elapsed.
	Progress func(model.Progress)
}

// AutoCandidate is one candidate's score.
type AutoCandidate struct {
	// Model is the registry name.
	Model string
	// Score is the criterion's value, lower is better; NaN when a fit
	// failed (then Err says why) or no held-out label could be scored.
	Score float64
	// Converged is false when some fit of the candidate stopped at its
	// iteration limit.
	Converged bool
	// Iterations is the largest number of iterations of the candidate's
	// fits.
	Iterations int
	// Runtime adds up the candidate's fits.
	Runtime time.Duration
	// Err is the first error of the candidate's fits.
	Err error
}

// AutoChoice is the outcome of Auto.
type AutoChoice struct {
	// Model is the chosen candidate's registry name.
	Model string
	// Criterion is the Scorer's name.
	Criterion string
	// Candidates are the scores, in the order of AutoOptions.Models.
	Candidates []AutoCandidate
	// Tasks and Labels are the size of the data the candidates were
	// fitted to: all of it, or the subsample.
	Tasks, Labels int
	// Splits is the number of held-out splits.
	Splits int
	// Runtime is the wall time of the choice.
	Runtime time.Duration
}

func (o AutoOptions) withDefaults() AutoOptions {
	if o.Models == nil {
		o.Models = AutoModels
	}
	if o.Scorer == nil {
		o.Scorer = DefaultScorer
	}
	if o.HoldOutFraction == 0 {
		o.HoldOutFraction = 0.2
	}
	if o.Splits == 0 {
		o.Splits = 3
	}
	if o.MaxLabels == 0 {
		o.MaxLabels = 20000
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = 300
	}
	return o
}

// Auto chooses a model for d without gold labels: it fits every candidate
// to Splits training splits of d (or of a subsample of its objects when d
// has more than MaxLabels labels), each holding out a fraction of every
// object's labels as Split does, and scores the fits on the held-out
// labels with the Scorer. The choice is the candidate with the lowest
// score that converged on every split; if none did, the lowest score.
// Ties go to the earlier candidate. The choice depends on d, the options
// and Seed only, not on Parallel or the number of cores.
//
// Auto only chooses: fit the chosen model (model.ByName(choice.Model)) to
// all of d for the consensus. It returns an error for bad options, when
// ctx is done, or when every candidate fails.
func Auto(ctx context.Context, d *data.Dataset, opt AutoOptions) (*AutoChoice, error) {
	start := time.Now()
	opt = opt.withDefaults()
	ests := opt.Estimators
	if ests == nil {
		ests = make([]model.Estimator, len(opt.Models))
		for i, n := range opt.Models {
			e, err := model.ByName(n)
			if err != nil {
				return nil, err
			}
			ests[i] = e
		}
	}
	if len(ests) == 0 {
		return nil, errors.New("auto: no candidate models")
	}
	if !(opt.HoldOutFraction > 0 && opt.HoldOutFraction < 1) {
		return nil, fmt.Errorf("auto: hold-out fraction %g not in (0, 1)", opt.HoldOutFraction)
	}
	if opt.Splits < 0 || opt.MaxIterations < 0 {
		return nil, fmt.Errorf("auto: %d splits, %d iterations", opt.Splits, opt.MaxIterations)
	}
	sub := d
	if opt.MaxLabels > 0 && d.NumLabels() > opt.MaxLabels {
		sub = SubsampleTasks(d, opt.MaxLabels, opt.Seed)
	}
	trains := make([]*data.Dataset, opt.Splits)
	helds := make([][]HeldLabel, opt.Splits)
	var jobs []job
	for s := range opt.Splits {
		trains[s], helds[s] = Split(sub, opt.HoldOutFraction, opt.Seed, s)
		for i := range ests {
			jobs = append(jobs, job{model: i, split: s, d: trains[s]})
		}
	}
	var progress func(model.Progress)
	if opt.Progress != nil {
		progress = func(p model.Progress) {
			p.Run = "auto"
			opt.Progress(p)
		}
	}
	var set model.Settings
	if opt.Settings != nil {
		set = *opt.Settings
	}
	if set.MaxIterations <= 0 || set.MaxIterations > opt.MaxIterations {
		set.MaxIterations = opt.MaxIterations
	}
	fits, err := fitAll(ctx, ests, jobs, Options{Settings: &set, Parallel: opt.Parallel, Progress: progress})
	if err != nil {
		return nil, err
	}
	cands := make([]AutoCandidate, len(ests))
	loss := make([]float64, len(ests))
	weight := make([]float64, len(ests))
	for i := range cands {
		cands[i] = AutoCandidate{Model: ests[i].Name(), Converged: true}
	}
	for ji, jb := range jobs {
		f, c := fits[ji], &cands[jb.model]
		c.Runtime += f.dur
		if f.err != nil {
			if c.Err == nil {
				c.Err = f.err
			}
			continue
		}
		if !f.res.Converged {
			c.Converged = false
		}
		c.Iterations = max(c.Iterations, f.res.Iterations)
		l, w := opt.Scorer.Score(f.res, trains[jb.split], helds[jb.split])
		loss[jb.model] += l
		weight[jb.model] += w
	}
	best := -1
	for i := range cands {
		c := &cands[i]
		c.Score = math.NaN()
		if c.Err == nil && weight[i] > 0 {
			c.Score = loss[i] / weight[i]
		}
		if math.IsNaN(c.Score) {
			continue
		}
		if best < 0 || better(c, &cands[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("auto: no candidate could be scored: %w", errors.Join(candidateErrs(cands)...))
	}
	return &AutoChoice{
		Model: cands[best].Model, Criterion: opt.Scorer.Name(), Candidates: cands,
		Tasks: sub.NumTasks(), Labels: sub.NumLabels(), Splits: opt.Splits, Runtime: time.Since(start),
	}, nil
}

// better reports whether candidate a beats b: converged before not, then
// the lower score.
func better(a, b *AutoCandidate) bool {
	if a.Converged != b.Converged {
		return a.Converged
	}
	return a.Score < b.Score
}

func candidateErrs(cands []AutoCandidate) []error {
	var errs []error
	for _, c := range cands {
		if c.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Model, c.Err))
		}
	}
	if len(errs) == 0 {
		errs = append(errs, errors.New("no held-out labels"))
	}
	return errs
}

// SubsampleTasks returns a data set with the labels of a random subset of
// d's objects, drawn with seed, about maxLabels labels in all: the objects
// are taken in a random order until their labels reach maxLabels, and kept
// in their order in d. Workers and classes are d's (with their indices);
// some workers may have no labels.
func SubsampleTasks(d *data.Dataset, maxLabels int, seed uint64) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 0xa070))
	perm := rng.Perm(d.NumTasks())
	var picked []int
	n := 0
	for _, j := range perm {
		if n >= maxLabels {
			break
		}
		picked = append(picked, j)
		n += d.Offsets[j+1] - d.Offsets[j]
	}
	slices.Sort(picked)
	sub := &data.Dataset{Name: d.Name, Workers: d.Workers, Classes: d.Classes, Offsets: make([]int, 1, len(picked)+1)}
	sub.Tasks = make([]string, 0, len(picked))
	sub.Worker = make([]int32, 0, n)
	sub.Label = make([]uint16, 0, n)
	for _, j := range picked {
		w, l := d.TaskLabels(j)
		sub.Tasks = append(sub.Tasks, d.Tasks[j])
		sub.Worker = append(sub.Worker, w...)
		sub.Label = append(sub.Label, l...)
		sub.Offsets = append(sub.Offsets, len(sub.Label))
	}
	return sub
}
