package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/consensuslab/consensus/data"
)

// KOS is the iterative message-passing estimator of Karger, Oh and Shah,
// "Budget-Optimal Task Allocation for Reliable Crowdsourcing Systems",
// Operations Research 62(1), 2014 (arXiv:1110.3564), Algorithm 1, for two
// classes only. The labels are coded A_i = +1 for the first class and −1
// for the second. Every label i (an edge between its object j and its
// worker w) carries an object message x_i and a worker message y_i; the
// worker messages start as independent N(1, 1) draws, and iteration
// k = 1, 2, … updates
//
//	x_i ← Σ_{i' ∈ j(i), i' ≠ i} A_i' y_i',   y_i ← Σ_{i' ∈ w(i), i' ≠ i} A_i' x_i',
//
// each object message leaving out the label it is sent along, and so does
// each worker message. The estimate of object j is the sign of
// x_j = Σ_{i ∈ j} A_i y_i. Messages are rescaled by their largest absolute
// value after every update, which changes no sign and keeps them finite
// (Crowd-Kit instead stops when they pass 10³⁰⁰).
//
// The paper's model is one-coin: worker w is right with probability p_w
// whatever the true class t_j = ±1, so E[A_i] = (2p_w − 1) t_j, a rank-one
// matrix whose leading singular vector the iteration (a power method)
// finds. Real workers are two-coin, right with probability α_w on the
// first class and β_w on the second, and then
//
//	E[A_i] = (α_w − β_w) + (α_w + β_w − 1) t_j,
//
// whose bias term α_w − β_w is the same for all of w's objects. When the
// workers' biases outweigh their skills, the leading direction is the bias,
// and the estimate puts most objects in one class: Crowd-Kit's KOS scores
// .4975 on rte, where it puts 85% of the objects in the second class
// (half of the gold), and .5693 on temp, where it puts 99% in the first
// (56% of the gold). Unless Raw
// is set, Fit therefore centres every worker's labels, A_i ← A_i − Ā_w(i)
// (Ā_w the mean of w's labels), which removes the bias term up to the
// class balance of w's objects, before the iteration. The limit is
// determined only up to a global sign, so Fit also takes the sign for
// which the workers agree with the estimate more than they disagree,
// Σ_i A_i x_j(i) ≥ 0, the assumption (workers better than random on
// average) under which the paper's guarantee holds.
//
// The consensus distribution is one-hot on the estimated class, or uniform
// when x_j = 0. The zero value runs 100 iterations with seed 0.
type KOS struct {
	// MaxIterations is the number of iterations; zero means 100.
	MaxIterations int
	// Seed seeds the N(1, 1) draws of the initial worker messages; the
	// zero value is a valid seed.
	Seed uint64
	// Raw runs the paper's algorithm unchanged, as Crowd-Kit does: the
	// labels are not centred per worker and the sign is the one the
	// iteration ends with.
	Raw bool
}

// ErrTwoClassesOnly is returned (wrapped, with the number of classes) by
// KOS.Fit for data with other than two classes.
var ErrTwoClassesOnly = errors.New("kos is for two classes only")

// Name returns "kos".
func (KOS) Name() string { return "kos" }

// Fit runs the message passing on d, which must have exactly two classes.
// It takes no settings.
func (e KOS) Fit(ctx context.Context, d *data.Dataset, _ *Settings) (*Result, error) {
	if err := checkFit(ctx, d); err != nil {
		return nil, err
	}
	if k := d.NumClasses(); k != 2 {
		return nil, fmt.Errorf("%w, and the data have %d; use another model (wawa, zbs, mmsr, la-ds, ...)", ErrTwoClassesOnly, k)
	}
	start := time.Now()
	n := d.NumLabels()
	a := make([]float64, n)
	for i, y := range d.Label {
		a[i] = 1 - 2*float64(y) // class 0 → +1, class 1 → −1
	}
	// The labels grouped by worker: byWorker[wOff[w]:wOff[w+1]] are the
	// label indices of worker w.
	wOff := make([]int, d.NumWorkers()+1)
	for _, w := range d.Worker {
		wOff[w+1]++
	}
	for w := range d.NumWorkers() {
		wOff[w+1] += wOff[w]
	}
	byWorker := make([]int, n)
	fill := append([]int(nil), wOff[:d.NumWorkers()]...)
	for i, w := range d.Worker {
		byWorker[fill[w]] = i
		fill[w]++
	}

	if !e.Raw {
		for w := range d.NumWorkers() {
			mine := byWorker[wOff[w]:wOff[w+1]]
			var mean float64
			for _, i := range mine {
				mean += a[i]
			}
			mean /= float64(len(mine))
			for _, i := range mine {
				a[i] -= mean
			}
		}
	}
	rng := rand.New(rand.NewPCG(e.Seed, 0x6b6f73))
	x, y := make([]float64, n), make([]float64, n)
	for i := range y {
		y[i] = rng.NormFloat64() + 1
	}
	iters := orInt(e.MaxIterations, 100)
	for range iters {
		for j := range d.Tasks {
			lo, hi := d.Offsets[j], d.Offsets[j+1]
			var sum float64
			for i := lo; i < hi; i++ {
				sum += a[i] * y[i]
			}
			for i := lo; i < hi; i++ {
				x[i] = sum - a[i]*y[i]
			}
		}
		rescale(x)
		for w := range d.NumWorkers() {
			var sum float64
			for _, i := range byWorker[wOff[w]:wOff[w+1]] {
				sum += a[i] * x[i]
			}
			for _, i := range byWorker[wOff[w]:wOff[w+1]] {
				y[i] = sum - a[i]*x[i]
			}
		}
		rescale(y)
	}

	score := make([]float64, d.NumTasks())
	var agree float64
	for j := range d.Tasks {
		lo, hi := d.Offsets[j], d.Offsets[j+1]
		var margin float64
		for i := lo; i < hi; i++ {
			score[j] += a[i] * y[i]
			margin += a[i]
		}
		agree += margin * score[j]
	}
	flip := !e.Raw && agree < 0
	probs := make([]float64, 2*d.NumTasks())
	for j, s := range score {
		if flip {
			s = -s
		}
		switch {
		case s > 0:
			probs[2*j] = 1
		case s < 0:
			probs[2*j+1] = 1
		default:
			probs[2*j], probs[2*j+1] = 0.5, 0.5
		}
	}
	status := "iterations done"
	if flip {
		status = "iterations done, sign flipped to workers better than random"
	}
	return &Result{
		Model:      e.Name(),
		Data:       d,
		Probs:      probs,
		Method:     "message passing",
		Iterations: iters,
		Status:     status,
		Converged:  true,
		Runtime:    time.Since(start),
	}, nil
}

// rescale divides v by its largest absolute value, if that is positive and
// finite.
func rescale(v []float64) {
	var m float64
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	if m > 0 && !math.IsInf(m, 0) {
		for i := range v {
			v[i] /= m
		}
	}
}
