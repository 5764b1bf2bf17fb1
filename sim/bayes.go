package sim

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/noise"
)

// BayesPosterior returns the posterior probability of the true class of
// every object of d given its labels, P(z_j = k | labels), J×K, under the
// true generative process: the class prior, every worker's true
// parameters and kind, and the correlated group's subtype (a class-From
// object is in the subtype with probability Subtype, where every member of
// the group labels it To). No consensus model can do better on average: the
// argmax of this posterior is the Bayes classifier, its accuracy the Bayes
// limit, and its probabilities are calibrated.
//
// d must be the data set Simulate returned with t, or one with the same
// objects and workers (for example with some labels removed). It returns
// an error for data simulated under DA, which has no true class.
func (t *Truth) BayesPosterior(d *data.Dataset) ([]float64, error) {
	if t == nil || d == nil {
		return nil, errors.New("sim: the Bayes posterior needs a simulation's truth and data set")
	}
	c := t.cfg
	if t.Class == nil {
		return nil, errors.New("sim: the Bayes posterior of the true class needs one class per object (LA)")
	}
	if d.NumTasks() != c.Tasks || d.NumWorkers() != c.Workers || d.NumClasses() != c.Classes {
		return nil, fmt.Errorf("sim: a data set of %d objects, %d workers and %d classes, not the simulation's %d, %d and %d",
			d.NumTasks(), d.NumWorkers(), d.NumClasses(), c.Tasks, c.Workers, c.Classes)
	}
	k := c.Classes
	g := c.Correlated
	ev := c.Noise.NewEvaluator(d)
	ev.SetParams(t.Worker, t.Task)
	logPrior := make([]float64, k)
	for z, p := range t.prior {
		logPrior[z] = math.Log(p)
	}
	post := make([]float64, c.Tasks*k)
	lp := make([]float64, k)
	p := make([]float64, k)
	if c.Ambiguity != (Ambiguity{}) {
		return post, t.ambiguousPosterior(d, ev, logPrior, post)
	}
	for j := range c.Tasks {
		copy(lp, logPrior)
		// For z = From: the log likelihood of the labels of the workers
		// outside the group, and whether the group's labels all say To.
		var outside float64
		inGroup, allTo := false, true
		workers, labels := d.TaskLabels(j)
		for i, w := range workers {
			y := int(labels[i])
			kind := t.Kind[w]
			for z := range k {
				l := math.Log(t.labelProb(ev, w, j, z, y, p))
				lp[z] += l
				if z == g.From && kind != CorrelatedWorker {
					outside += l
				}
			}
			if kind == CorrelatedWorker {
				inGroup = true
				allTo = allTo && y == g.To
			}
		}
		if inGroup && g.Subtype > 0 {
			// P(labels | From) = (1 - s)·P_model(labels) + s·P(outside)·[all To].
			normal := math.Log1p(-g.Subtype) + lp[g.From]
			sub := math.Inf(-1)
			if allTo {
				sub = math.Log(g.Subtype) + logPrior[g.From] + outside
			}
			lp[g.From] = floats.LogSumExp([]float64{normal, sub})
		}
		lse := floats.LogSumExp(lp)
		for z, l := range lp {
			post[j*k+z] = math.Exp(l - lse)
		}
	}
	return post, nil
}

// labelProb returns the probability that worker w reports label y on
// object j when the label's class is z, by the worker's kind: 1/K for a
// spammer, the noise model's probability of the class before y for an
// adversary (who reports the next class), and the noise model's P(y | z)
// otherwise; ev holds the true parameters, p is scratch of K.
func (t *Truth) labelProb(ev noise.Evaluator, w int32, j, z, y int, p []float64) float64 {
	k := len(p)
	switch t.Kind[w] {
	case Spammer:
		return 1 / float64(k)
	case Adversary:
		ev.Conditional(w, j, z, p)
		return p[(y+k-1)%k]
	}
	ev.Conditional(w, j, z, p)
	return p[y]
}

// maxUrnStates bounds the number of count vectors that
// ambiguousPosterior's sum over the labels' subjective classes holds for
// one object: C(n+K−1, K−1) for n labels of K classes.
const maxUrnStates = 1 << 20

// ambiguousPosterior writes into post the posterior of the true class of
// every object under Settings.Ambiguity: P(z_j = c | labels) ∝ π_c ·
// E[Π_i Σ_x q_j(x) P(y_i | x)] with q_j ~ Dirichlet(Vertex·e_c + Base·1),
// where P(y_i | x) is the label's probability from its worker when its
// subjective class is x (uniform for a spammer, shifted for an
// adversary). The expectation is exact: the subjective classes are a
// Pólya urn, the i-th drawing x with probability (α_x + m_x)/(Σα + i) after
// m_x earlier draws of x, summed over the count vectors m of the labels
// one label at a time. It returns an error for an object whose count
// vectors are more than maxUrnStates.
func (t *Truth) ambiguousPosterior(d *data.Dataset, ev noise.Evaluator, logPrior, post []float64) error {
	k := t.cfg.Classes
	amb := t.cfg.Ambiguity
	var like []float64 // P(y_i | x) of the object's labels, n×K
	alpha := make([]float64, k)
	lp := make([]float64, k)
	p := make([]float64, k)
	for j := range t.cfg.Tasks {
		workers, labels := d.TaskLabels(j)
		n := len(workers)
		if s := binomial(n+k-1, k-1); s > maxUrnStates {
			return fmt.Errorf("sim: object %s has %d labels of %d classes: its exact posterior under ambiguity sums over %.3g count vectors, more than %d", d.Tasks[j], n, k, s, maxUrnStates)
		}
		like = like[:0]
		var scale float64 // the log of the factors taken out of like
		for i, w := range workers {
			y := int(labels[i])
			top := 0.0
			for x := range k {
				v := t.labelProb(ev, w, j, x, y, p)
				like = append(like, v)
				top = max(top, v)
			}
			for x := range k {
				like[i*k+x] /= top
			}
			scale += math.Log(top)
		}
		for c := range k {
			for x := range alpha {
				alpha[x] = amb.Base
			}
			alpha[c] += amb.Vertex
			lp[c] = logPrior[c] + scale + math.Log(urnLikelihood(alpha, like, n))
		}
		lse := floats.LogSumExp(lp)
		for c, l := range lp {
			post[j*k+c] = math.Exp(l - lse)
		}
	}
	return nil
}

// urnLikelihood returns E[Π_i Σ_x q(x) like[i·K+x]] for q ~
// Dirichlet(alpha) and n labels: the sum over the sequences of subjective
// classes x_1 … x_n of Π_i like[i·K+x_i] times the Pólya urn's
// probability of the sequence, accumulated over count vectors. The count
// vectors are kept in the order they first appear, so that the sums are
// added in the same order on every run.
func urnLikelihood(alpha, like []float64, n int) float64 {
	k := len(alpha)
	var total float64
	for _, a := range alpha {
		total += a
	}
	keys, probs := []string{string(make([]byte, 2*k))}, []float64{1}
	for i := range n {
		index := make(map[string]int, len(keys)*2)
		var nextKeys []string
		var nextProbs []float64
		for s, key := range keys {
			counts := []byte(key)
			for x := range k {
				m := int(counts[2*x]) | int(counts[2*x+1])<<8
				f := probs[s] * like[i*k+x] * (alpha[x] + float64(m)) / (total + float64(i))
				counts[2*x], counts[2*x+1] = byte(m+1), byte((m+1)>>8)
				at, ok := index[string(counts)]
				if !ok {
					at = len(nextKeys)
					index[string(counts)] = at
					nextKeys, nextProbs = append(nextKeys, string(counts)), append(nextProbs, 0)
				}
				nextProbs[at] += f
				counts[2*x], counts[2*x+1] = byte(m), byte(m>>8)
			}
		}
		keys, probs = nextKeys, nextProbs
	}
	var sum float64
	for _, pr := range probs {
		sum += pr
	}
	return sum
}

// binomial returns the binomial coefficient C(n, r) as a float64.
func binomial(n, r int) float64 {
	v := 1.0
	for i := range r {
		v = v * float64(n-i) / float64(i+1)
	}
	return v
}

// Gold returns the true classes of an LA simulation as gold labels of
// every object, for the metrics of package metrics; nil under DA.
func (t *Truth) Gold() *data.Gold {
	if t.Class == nil {
		return nil
	}
	g := &data.Gold{Task: make([]int32, len(t.Class)), Label: make([]uint16, len(t.Class))}
	for j, z := range t.Class {
		g.Task[j] = int32(j)
		g.Label[j] = uint16(z)
	}
	return g
}
