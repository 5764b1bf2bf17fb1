package sim

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/consensuslab/consensus/data"
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
	logK := math.Log(float64(k))
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
				var l float64
				switch kind {
				case Spammer:
					l = -logK
				case Adversary:
					ev.Conditional(w, j, z, p)
					l = math.Log(p[(y+k-1)%k])
				default:
					ev.Conditional(w, j, z, p)
					l = math.Log(p[y])
				}
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
