package compare

import (
	"fmt"
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
)

// A Scorer is the gold-free criterion of Auto: it scores a result fitted
// to a training split on the labels held out of it. Lower is better.
type Scorer interface {
	// Name returns the criterion's name, such as "output".
	Name() string
	// Score returns the loss of r, fitted to train, on the held-out
	// labels held: a sum of per-label losses and the sum of their
	// weights. The score over several splits is the sum of the losses
	// divided by the sum of the weights. A zero weight means the
	// criterion could not score any label. Score returns an error
	// wrapping ErrArgument if r or train is nil, r was not fitted to a
	// data set of train's tasks and classes, or a held-out label names no
	// task, worker or class of train (HeldOutLogLik's checks).
	Score(r *model.Result, train *data.Dataset, held []HeldLabel) (loss, weight float64, err error)
}

// LabelLikelihood is the held-out label likelihood of Run's HeldOut
// criterion (HeldOutLogLik): the mean of -log_K P(y) over the held-out
// labels, each predicted from the training labels by the candidate's own
// predictive distribution of a new label of worker w on object j,
//
//	P(y | rest) = Σ_z out_j(z) P(y | z; w, j),
//
// with out_j the result's Probs and P(y | z) its fitted workers
// (model.Result.Conditional). For an LA model, including the models that
// give both answers (vb-ds and the other AutoModels), out_j is the
// posterior of the true class given the training labels, so P(y | rest)
// is the posterior predictive of the label (with the workers at their
// posterior mean, GLAD's at their MAP, and the posterior tempered as the
// model calibrates it); for a DA model out_j is the label distribution q_j, the
// distribution of the class a new label reports before the worker's
// noise. It scores the whole generative model: a sharp consensus with a
// noise model that explains the disagreement scores well. It is a proper
// scoring rule for the distribution of a new label, so in expectation the
// worker model that generated the labels scores best.
type LabelLikelihood struct{}

var _ Scorer = LabelLikelihood{}

// Name returns "likelihood".
func (LabelLikelihood) Name() string { return "likelihood" }

// Score returns the summed -log_K P(y) of the held-out labels and their
// number, or an error wrapping ErrArgument (see Scorer).
func (LabelLikelihood) Score(r *model.Result, train *data.Dataset, held []HeldLabel) (loss, weight float64, err error) {
	s, n, err := HeldOutLogLik(r, train, held)
	if err != nil {
		return 0, 0, err
	}
	for j := range s {
		loss -= s[j]
		weight += n[j]
	}
	return loss, weight, nil
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
// labels and the sum of their weights, or an error wrapping ErrArgument
// (see Scorer).
func (o OutputLoss) Score(r *model.Result, train *data.Dataset, held []HeldLabel) (loss, weight float64, err error) {
	if err := checkHeld(r, train, held); err != nil {
		return 0, 0, err
	}
	k := train.NumClasses()
	logK := math.Log(float64(k))
	p := r.Consensus().Scored()
	var rel []float64
	if o.Reliable {
		rel = workerReliability(train)
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
	return loss, weight, nil
}

// WorkerReliability returns every worker's chance-corrected leave-one-out
// agreement κ_w on d, as OutputLoss describes: 0 for a worker who agrees
// with the others no more than chance or has no labels, towards 1 for one
// who agrees with every other label. WorkerReliability returns an error
// wrapping ErrArgument if d is nil.
func WorkerReliability(d *data.Dataset) ([]float64, error) {
	if d == nil {
		return nil, argErrorf("nil data set")
	}
	return workerReliability(d), nil
}

// workerReliability is WorkerReliability of a data set.
func workerReliability(d *data.Dataset) []float64 {
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
// number, or an error wrapping ErrArgument (see Scorer).
func (OutputChannel) Score(r *model.Result, train *data.Dataset, held []HeldLabel) (loss, weight float64, err error) {
	if err := checkHeld(r, train, held); err != nil {
		return 0, 0, err
	}
	k := train.NumClasses()
	logK := math.Log(float64(k))
	p := r.Consensus().Scored()
	acc, seen := workerAccuracy(train)
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
	return loss, weight, nil
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
// WorkerAccuracy returns an error wrapping ErrArgument if d is nil.
func WorkerAccuracy(d *data.Dataset) (acc []float64, seen []bool, err error) {
	if d == nil {
		return nil, nil, argErrorf("nil data set")
	}
	acc, seen = workerAccuracy(d)
	return acc, seen, nil
}

// workerAccuracy is WorkerAccuracy of a data set.
func workerAccuracy(d *data.Dataset) (acc []float64, seen []bool) {
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

// DefaultScorer is the criterion of Auto when AutoSettings.Scorer is nil,
// and so of the recommendation (see AutoModels): LabelLikelihood. On
// labels simulated from Dawid-Skene and one-coin workers it picks the
// worker model that generated them, where OutputLoss and OutputChannel
// often pick another (see docs/choosing-a-model.md).
var DefaultScorer Scorer = LabelLikelihood{}
