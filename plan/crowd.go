package plan

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// Crowd describes a simulated crowd of Dawid-Skene workers of three kinds:
// reliable workers, spammers (labels drawn from a distribution of their
// own whatever the true class) and adversaries (worse than chance). The
// zero value is 1000 tasks, 100 workers, two classes, 10 labels a task,
// no spammers or adversaries, seed 0.
//
// Every task has a true class, uniform over the classes. A reliable worker
// is right with a probability uniform on [max(0.55, 1/K + 0.15), 0.95],
// its errors uniform over the other classes; a spammer's labels follow a
// distribution drawn from Dirichlet(1, …, 1); an adversary is right with
// a probability uniform on [0, 0.5/K] and puts 70% of its errors on the
// next class (z + 1 mod K). Workers are active in proportion to a
// log-normal weight (σ = 1), so that some give few labels; every task is
// labelled by LabelsPerTask distinct workers drawn in proportion to their
// weights, in the order drawn.
type Crowd struct {
	// Tasks is the number of tasks; zero means 1000.
	Tasks int
	// Workers is the number of workers; zero means 100.
	Workers int
	// Classes is the number of classes; zero means 2.
	Classes int
	// LabelsPerTask is the number of labels of every task; zero means 10.
	LabelsPerTask int
	// Spammers and Adversaries are the fractions of the workers of these
	// kinds, rounded to whole workers.
	Spammers, Adversaries float64
	// Seed seeds every draw.
	Seed uint64
}

// Simulated is a simulated data set with its truth.
type Simulated struct {
	// Data holds the labels.
	Data *data.Dataset
	// Truth is every task's true class.
	Truth []int
	// Kind is every worker's kind: "", Spammer or Adversarial.
	Kind []string
	// Confusion holds every worker's confusion matrix, W×K×K.
	Confusion []float64
}

// Simulate draws a data set from c.
func (c Crowd) Simulate() (*Simulated, error) {
	c.Tasks = cmp.Or(c.Tasks, 1000)
	c.Workers = cmp.Or(c.Workers, 100)
	c.Classes = cmp.Or(c.Classes, 2)
	c.LabelsPerTask = cmp.Or(c.LabelsPerTask, 10)
	k := c.Classes
	switch {
	case c.Tasks < 0 || c.Workers < 0 || c.LabelsPerTask < 0:
		return nil, errors.New("plan: negative size in a simulated crowd")
	case k < 2 || k > data.MaxClasses:
		return nil, fmt.Errorf("plan: %d classes in a simulated crowd, want 2 to %d", k, data.MaxClasses)
	case c.LabelsPerTask > c.Workers:
		return nil, fmt.Errorf("plan: %d labels a task from %d workers", c.LabelsPerTask, c.Workers)
	case c.Spammers < 0 || c.Adversaries < 0 || c.Spammers+c.Adversaries > 1:
		return nil, fmt.Errorf("plan: fractions of spammers %v and adversaries %v must be in [0, 1] and add up to at most 1", c.Spammers, c.Adversaries)
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x63726f7764))
	s := &Simulated{Truth: make([]int, c.Tasks), Kind: make([]string, c.Workers), Confusion: make([]float64, c.Workers*k*k)}
	ns := int(math.Round(c.Spammers * float64(c.Workers)))
	na := int(math.Round(c.Adversaries * float64(c.Workers)))
	for i, w := range rng.Perm(c.Workers) {
		switch {
		case i < ns:
			s.Kind[w] = Spammer
		case i < ns+na:
			s.Kind[w] = Adversarial
		}
	}
	weight := make([]float64, c.Workers)
	var total float64
	for w := range weight {
		pi := s.Confusion[w*k*k : (w+1)*k*k]
		switch s.Kind[w] {
		case Spammer:
			dist := make([]float64, k)
			var sum float64
			for y := range dist {
				dist[y] = rng.ExpFloat64()
				sum += dist[y]
			}
			for z := range k {
				for y := range k {
					pi[z*k+y] = dist[y] / sum
				}
			}
		case Adversarial:
			right := rng.Float64() * 0.5 / float64(k)
			for z := range k {
				for y := range k {
					switch {
					case y == z:
						pi[z*k+y] = right
					case k == 2:
						pi[z*k+y] = 1 - right
					case y == (z+1)%k:
						pi[z*k+y] = (1 - right) * 0.7
					default:
						pi[z*k+y] = (1 - right) * 0.3 / float64(k-2)
					}
				}
			}
		default:
			lo := max(0.55, 1/float64(k)+0.15)
			right := lo + rng.Float64()*(0.95-lo)
			for z := range k {
				for y := range k {
					pi[z*k+y] = (1 - right) / float64(k-1)
					if y == z {
						pi[z*k+y] = right
					}
				}
			}
		}
		weight[w] = math.Exp(rng.NormFloat64())
		total += weight[w]
	}
	n := c.Tasks * c.LabelsPerTask
	task, worker, label := make([]int32, 0, n), make([]int32, 0, n), make([]uint16, 0, n)
	seen := make(map[int]bool, c.LabelsPerTask)
	for j := range c.Tasks {
		z := rng.IntN(k)
		s.Truth[j] = z
		clear(seen)
		for len(seen) < c.LabelsPerTask {
			w := num.Pick(rng, weight, total)
			if seen[w] {
				continue
			}
			seen[w] = true
			task = append(task, int32(j))
			worker = append(worker, int32(w))
			label = append(label, uint16(num.Pick(rng, s.Confusion[(w*k+z)*k:(w*k+z+1)*k], 1)))
		}
	}
	d, err := data.FromIndices(names("t", c.Tasks), names("w", c.Workers), names("c", k), task, worker, label)
	if err != nil {
		return nil, err
	}
	s.Data = d
	return s, nil
}

// names returns prefix0, prefix1, … (n of them).
func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}
