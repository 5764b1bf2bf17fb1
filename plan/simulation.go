package plan

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/model"
)

// Oracle answers requests for labels from a simulated crowd: any worker
// can be asked about any task.
type Oracle struct {
	// Sim is the simulated crowd: its truth and its workers' confusion
	// matrices.
	Sim *Simulated
	// Seed seeds the answers.
	Seed uint64
}

// Answer returns the label worker w gives task j: a draw from row
// Truth[j] of the worker's confusion matrix. The draw comes from a
// generator seeded with (Seed, j, w) alone, so that an answer does not
// depend on which requests came before it; the same request gets the same
// answer.
func (o Oracle) Answer(j, w int) int {
	k := o.Sim.Data.NumClasses()
	rng := rand.New(rand.NewPCG(o.Seed^0x6f7261636c65, uint64(j)<<32|uint64(uint32(w))))
	z := o.Sim.Truth[j]
	return num.Pick(rng, o.Sim.Confusion[(w*k+z)*k:(w*k+z+1)*k], 1)
}

// SimSettings are the settings of Simulation. The zero value is the
// default of every field: two labels revealed, batches of a tenth of the
// tasks, every worker available, no cap on a worker's labels in a batch.
type SimSettings struct {
	// Reveal is the number of every task's first labels revealed before
	// any is spent, asked of the task's first workers in the simulated
	// crowd's order; zero means 2.
	Reveal int
	// Batch is the number of labels asked between two fits; zero means a
	// tenth of the tasks, at least 1.
	Batch int
	// Available is the fraction of the workers available in every batch
	// of the planner, drawn afresh for every batch (at least one worker);
	// zero means every worker.
	Available float64
	// PerWorker is the largest number of labels a worker gives in one
	// batch of the planner; zero means the batch (no cap: a worker can
	// label every task of a batch).
	PerWorker int
	// Plan holds Next's settings (its Budget, Pool, PerWorker and Allowed
	// are the simulation's).
	Plan Settings
	// Fit holds the fits' settings; nil means the defaults.
	Fit *model.Settings
	// Seed seeds the oracle's answers and the draws of the available
	// workers.
	Seed uint64
}

// Simulation runs an interactive simulation of labelling the crowd s,
// whose workers answer through an Oracle seeded with set.Seed, and
// returns its accuracy against the labels asked.
//
// Every task is first asked of its first Reveal workers of s.Data, in
// their recorded order. Uniform then asks the rest of every task's
// recorded workers in turn, Batch labels at a time, the tasks with the
// fewest labels first, in task order (round-robin): every task ends with
// as many labels as s.Data gives it, from the same workers, with the
// oracle's answers. Planned asks, in every batch, the task-worker pairs
// that Next chooses with the workers available as its pool (every worker,
// or a fraction Available of them drawn for the batch), each worker at
// most PerWorker of them, never a worker for a task it labelled; it stops
// when it has asked as many labels as uniform does, or when Next chooses
// nothing (its stopping rule, or no worker of the batch's pool left for a
// task below it: Stopped then holds the labels spent). After
// every batch vb-la-ds is fitted to the labels asked and its consensus
// scored against s.Truth. Spent counts the labels beyond every task's
// first, as Replay's do; Labels holds the labels asked.
//
// The result depends on set.Seed and the other settings alone, not on the
// number of goroutines.
func Simulation(ctx context.Context, s *Simulated, strategy string, set *SimSettings) (*Curve, error) {
	if s == nil || s.Data == nil {
		return nil, errors.New("plan: no simulated crowd")
	}
	d := s.Data
	nt, nw, k := d.NumTasks(), d.NumWorkers(), d.NumClasses()
	if len(s.Truth) != nt || len(s.Confusion) != nw*k*k {
		return nil, errors.New("plan: a simulated crowd needs one true class per task and one confusion matrix per worker")
	}
	var o SimSettings
	if set != nil {
		o = *set
	}
	o.Reveal = cmp.Or(o.Reveal, 2)
	o.Batch = cmp.Or(o.Batch, max(nt/10, 1))
	o.PerWorker = cmp.Or(o.PerWorker, o.Batch)
	switch {
	case o.Reveal < 0 || o.Batch < 0 || o.PerWorker < 0:
		return nil, fmt.Errorf("plan: simulation with Reveal = %d, Batch = %d and PerWorker = %d, want none negative", o.Reveal, o.Batch, o.PerWorker)
	case o.Available < 0 || o.Available > 1:
		return nil, fmt.Errorf("plan: simulation with Available = %v, want a fraction in [0, 1]", o.Available)
	case strategy != Planned && strategy != Uniform:
		return nil, fmt.Errorf("plan: unknown strategy %q (want %q or %q)", strategy, Planned, Uniform)
	}
	oracle := Oracle{Sim: s, Seed: o.Seed}
	// asked[j] holds task j's workers and labels so far, in the order
	// asked.
	asked := make([][][2]int, nt)
	recorded := make([]int, nt)
	first, total := 0, 0
	for j := range asked {
		recorded[j] = d.Offsets[j+1] - d.Offsets[j]
		for i := d.Offsets[j]; i < d.Offsets[j]+min(o.Reveal, recorded[j]); i++ {
			w := int(d.Worker[i])
			asked[j] = append(asked[j], [2]int{w, oracle.Answer(j, w)})
		}
		first += min(1, recorded[j])
		total += recorded[j]
	}
	c := &Curve{Strategy: strategy, Stopped: -1}
	rng := rand.New(rand.NewPCG(o.Seed, 0x706f6f6c))
	for batch := 0; ; batch++ {
		sub, err := askedData(d, asked)
		if err != nil {
			return nil, err
		}
		p, err := Fit(ctx, sub, o.Fit)
		if err != nil {
			return nil, err
		}
		c.Spent = append(c.Spent, sub.NumLabels()-first)
		c.Accuracy = append(c.Accuracy, accuracy(p.Probs, k, s.Truth))
		c.Labels = sub
		left := total - sub.NumLabels()
		if left <= 0 {
			return c, nil
		}
		if strategy == Uniform {
			shown := make([]int, nt)
			for j := range shown {
				shown[j] = len(asked[j])
			}
			for _, j := range roundRobin(nil, shown, recorded, min(o.Batch, left)) {
				w := int(d.Worker[d.Offsets[j]+len(asked[j])])
				asked[j] = append(asked[j], [2]int{w, oracle.Answer(j, w)})
			}
			continue
		}
		ps := o.Plan
		ps.Budget = min(o.Batch, left)
		ps.Pool = availableWorkers(rng, nw, o.Available)
		ps.PerWorker = o.PerWorker
		ps.Allowed = nil
		picks, err := Next(p, &ps)
		if err != nil {
			return nil, err
		}
		if len(picks) == 0 {
			c.Stopped = c.Spent[len(c.Spent)-1]
			return c, nil
		}
		for _, pk := range picks {
			asked[pk.Task] = append(asked[pk.Task], [2]int{pk.Worker, oracle.Answer(pk.Task, pk.Worker)})
		}
	}
}

// availableWorkers returns the workers available in a batch: all n, or a
// fraction of them (at least one) drawn by rng, in index order.
func availableWorkers(rng *rand.Rand, n int, fraction float64) []int {
	if fraction == 0 || fraction == 1 {
		pool := make([]int, n)
		for w := range pool {
			pool[w] = w
		}
		return pool
	}
	pool := rng.Perm(n)[:max(1, int(fraction*float64(n)+0.5))]
	slices.Sort(pool)
	return pool
}

// askedData returns the data set of the labels asked, with d's tasks,
// workers and classes, every task's labels in the order asked.
func askedData(d *data.Dataset, asked [][][2]int) (*data.Dataset, error) {
	var task, worker []int32
	var label []uint16
	for j, a := range asked {
		for _, wl := range a {
			task = append(task, int32(j))
			worker = append(worker, int32(wl[0]))
			label = append(label, uint16(wl[1]))
		}
	}
	return data.FromIndices(d.Tasks, d.Workers, d.Classes, task, worker, label)
}

// SavingsAgainst returns the labels planner spent (beyond every task's
// first) before its accuracy first reached uniform's last accuracy less
// margin, and their fraction of the labels uniform spent; -1 and 1 if it
// never did. A Simulation's planner may stop before it has spent as many
// labels as uniform, so the fraction is of uniform's labels, where Savings
// takes the planner's own. Either curve nil or empty, or with Spent and
// Accuracy of different lengths, is an error.
func SavingsAgainst(planner, uniform *Curve, margin float64) (spent int, fraction float64, err error) {
	if uniform == nil || len(uniform.Spent) == 0 || len(uniform.Spent) != len(uniform.Accuracy) {
		return 0, 0, errors.New("plan: savings against no uniform curve, or one with unequal Spent and Accuracy")
	}
	spent, _, err = Savings(planner, uniform.Accuracy[len(uniform.Accuracy)-1]-margin)
	if err != nil || spent < 0 {
		return spent, 1, err
	}
	return spent, float64(spent) / float64(max(uniform.Spent[len(uniform.Spent)-1], 1)), nil
}
