package crowdkit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
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
// when x_j = 0. When every worker gives one label to all its objects,
// centring would leave every label 0, and Fit returns the majority vote,
// one-hot (Method "majority vote"; see kosVote). The zero value runs 100
// iterations with seed 0.
type KOS struct {
	// MaxIterations is the number of iterations; zero means 100.
	MaxIterations int
	// Seed seeds the N(1, 1) draws of the initial worker messages, one
	// per label in the data set's order (by task, then as read), drawn
	// as numpy's legacy RandomState(Seed).normal(1, 1, n) draws them
	// from the low 32 bits of Seed (equal but for the last bit of a few,
	// see mt19937.normal): Crowd-Kit's start for random_state = Seed,
	// which draws in the order of its input's rows, the same order when
	// they are grouped by task. The zero value is a valid seed.
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
func (e KOS) Fit(ctx context.Context, d *data.Dataset, _ *model.Settings) (*model.Result, error) {
	if err := model.CheckFit(ctx, d); err != nil {
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
	// The labels grouped by worker: worker w's are the positions
	// [wOff[w], wOff[w+1]) of the worker order, label i at pos[i], in the
	// order of the data set within each worker.
	wOff := make([]int, d.NumWorkers()+1)
	for _, w := range d.Worker {
		wOff[w+1]++
	}
	for w := range d.NumWorkers() {
		wOff[w+1] += wOff[w]
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("kos: %d labels, more than it indexes (2³¹ − 1)", n)
	}
	pos := make([]int32, n)
	fill := append([]int(nil), wOff[:d.NumWorkers()]...)
	for i, w := range d.Worker {
		pos[i] = int32(fill[w])
		fill[w]++
	}
	if !e.Raw && !centre(a, d.Worker, d.NumWorkers()) {
		return kosVote(d, a, start), nil
	}
	aw := make([]float64, n) // a in the worker order
	for i, p := range pos {
		aw[p] = a[i]
	}
	rng := newMT19937(e.Seed)
	// The object messages are kept in the worker order (xw), where the
	// worker side reads them, and the worker messages in the worker order
	// too (yw), which the object side reads through pos into y, an
	// object's at a time. Each side's rescaling by its largest absolute
	// value (scale) is taken where the messages are next read: the same
	// division of the same numbers.
	xw, yw := make([]float64, n), make([]float64, n)
	for i := range n {
		yw[pos[i]] = rng.normal() + 1
	}
	most := 0
	for j := range d.Tasks {
		most = max(most, d.Offsets[j+1]-d.Offsets[j])
	}
	y := make([]float64, most)
	my := 1.0 // the worker messages' scale: none before the first update
	iters := orInt(e.MaxIterations, 100)
	for range iters {
		var mx float64
		for j := range d.Tasks {
			lo, hi := d.Offsets[j], d.Offsets[j+1]
			yj := y[:hi-lo]
			var sum float64
			for i := lo; i < hi; i++ {
				yj[i-lo] = yw[pos[i]] / my
				sum += a[i] * yj[i-lo]
			}
			for i := lo; i < hi; i++ {
				v := sum - a[i]*yj[i-lo]
				xw[pos[i]] = v
				mx = max(mx, math.Abs(v))
			}
		}
		mx = scale(mx)
		my = 0
		for w := range d.NumWorkers() {
			lo, hi := wOff[w], wOff[w+1]
			var sum float64
			for p := lo; p < hi; p++ {
				xw[p] /= mx
				sum += aw[p] * xw[p]
			}
			for p := lo; p < hi; p++ {
				v := sum - aw[p]*xw[p]
				yw[p] = v
				my = max(my, math.Abs(v))
			}
		}
		my = scale(my)
	}

	score := make([]float64, d.NumTasks())
	var agree float64
	for j := range d.Tasks {
		lo, hi := d.Offsets[j], d.Offsets[j+1]
		var margin float64
		for i := lo; i < hi; i++ {
			score[j] += a[i] * (yw[pos[i]] / my)
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
	return &model.Result{
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

// centre subtracts from every label a_i its worker's mean label, the
// centring of KOS.Fit, and reports whether it did: when every worker gives
// one label to all its objects, centring would set every label to 0, and
// the labels are left as they are.
func centre(a []float64, worker []int32, workers int) bool {
	sum, cnt := make([]float64, workers), make([]float64, workers)
	for i, w := range worker { // each worker's labels in their order
		sum[w] += a[i]
		cnt[w]++
	}
	varies := false
	for i, w := range worker {
		if a[i]*cnt[w] != sum[w] {
			varies = true
			break
		}
	}
	if !varies {
		return false
	}
	for i, w := range worker {
		a[i] -= sum[w] / cnt[w]
	}
	return true
}

// kosVote is KOS.Fit's result when every worker gives one label to all its
// objects. Then no worker's labels vary, so nothing tells a reliable worker
// from a biased one: centring leaves every label 0, and the paper's
// iteration on the labels as given has no unique answer (on two objects
// labelled alike by the same workers it can give them opposite signs).
// Every worker then counts alike, and the estimate is the majority vote
// of a (coded ±1), one-hot, uniform on a tie.
func kosVote(d *data.Dataset, a []float64, start time.Time) *model.Result {
	probs := make([]float64, 2*d.NumTasks())
	for j := range d.Tasks {
		var margin float64
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			margin += a[i]
		}
		switch {
		case margin > 0:
			probs[2*j] = 1
		case margin < 0:
			probs[2*j+1] = 1
		default:
			probs[2*j], probs[2*j+1] = 0.5, 0.5
		}
	}
	return &model.Result{
		Model:     "kos",
		Data:      d,
		Probs:     probs,
		Method:    "majority vote",
		Status:    "every worker gives one label to all its objects: the majority vote",
		Converged: true,
		Runtime:   time.Since(start),
	}
}

// scale returns m, the largest absolute value of a set of messages, if
// they are to be divided by it (m positive and finite), and 1 otherwise,
// by which a division leaves every number as it is: the rescaling of
// KOS.Fit, which changes no sign and keeps the messages finite.
func scale(m float64) float64 {
	if m > 0 && !math.IsInf(m, 0) {
		return m
	}
	return 1
}

// Classes returns 2 and 2: kos is for two classes only
// (ErrTwoClassesOnly).
func (KOS) Classes() (lo, hi int) { return 2, 2 }
