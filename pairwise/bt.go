package pairwise

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// BradleyTerry fits the Bradley-Terry model, P(a ≻ b) = σ(θ_a − θ_b), by
// Newton's method. The zero value is the default: a standard logistic
// prior on every score, at most 100 Newton steps, and convergence when a
// step moves no score by more than 10⁻⁹.
//
// With the prior of weight λ every item also wins once and loses once, each
// with weight λ, against a reference item of score 0, and the fit maximises
//
//	L(θ) = Σ_c log σ(θ_winner(c) − θ_loser(c)) + λ Σ_i (log σ(θ_i) + log σ(−θ_i)),
//
// which is concave and, with the prior, strictly so: it has one maximum
// whatever the comparisons. A tie (Comparisons.AddTie) counts as half a
// win for each item, as Elo ratings score a draw: its term is
// (log σ(θ_a − θ_b) + log σ(θ_b − θ_a)) / 2. The gradient is
//
//	∂L/∂θ_i = W_i − Σ_{c ∋ i} σ(θ_i − θ_other(c)) + λ (1 − 2σ(θ_i)),
//
// the item's wins W_i (ties counting 1/2) less the wins the model expects
// of it, and its
// negative Hessian is the Laplacian of the comparison graph with the
// weight σ(d_c)σ(−d_c) on comparison c's edge, plus the diagonal
// 2λ σ(θ_i)σ(−θ_i): sparse, with one entry per comparison. Each Newton
// step solves that system by conjugate gradients preconditioned with its
// diagonal, and halves the step until L does not fall. Hunter's (2004) MM
// algorithm, which Crowd-Kit runs, reaches the same maximum in hundreds to
// thousands of passes over the comparisons where these steps take a few
// dozen (docs/pairwise.md).
type BradleyTerry struct {
	// Prior is the prior's weight λ: λ virtual wins and λ virtual
	// losses of every item against the reference item. 0 means 1.
	Prior float64
	// NoPrior fits the maximum likelihood, without a prior, as
	// Crowd-Kit does. It exists only when the items cannot be split into
	// two groups one of which never beats the other; Fit returns an
	// error naming an item that breaks this. The scores are then shifted
	// to sum to 0.
	NoPrior bool
	// MaxIterations bounds the Newton steps; 0 means 100.
	MaxIterations int
	// Tol is the convergence test: the fit stops when a step moved no
	// score by more than Tol. 0 means 10⁻⁹.
	Tol float64
	// Threads is the number of goroutines that evaluate the objective;
	// 0 means all cores. The result does not depend on it.
	Threads int
}

// ErrNoComparisons is the error of a fit given no comparisons.
var ErrNoComparisons = errors.New("no comparisons to fit")

// ErrArgument is wrapped by the errors of the functions and methods of
// this package given an argument no caller should pass: Comparisons whose
// slices are not one entry per comparison or name items or workers they
// do not have, or a table of a result or truth with comparisons of
// another size. Callers test it with errors.Is.
var ErrArgument = errors.New("pairwise: invalid argument")

// lambda returns the prior's weight, 0 without a prior.
func (b BradleyTerry) lambda() float64 {
	switch {
	case b.NoPrior:
		return 0
	case b.Prior == 0:
		return 1
	}
	return b.Prior
}

// check returns an error if the settings are out of range.
func (b BradleyTerry) check() error {
	if b.Prior < 0 || math.IsNaN(b.Prior) || math.IsInf(b.Prior, 0) {
		return fmt.Errorf("the prior's weight %v must be a positive number", b.Prior)
	}
	if b.Tol < 0 || math.IsNaN(b.Tol) {
		return fmt.Errorf("the tolerance %v must not be negative", b.Tol)
	}
	if b.MaxIterations < 0 {
		return fmt.Errorf("the iteration limit %d must not be negative", b.MaxIterations)
	}
	if b.Threads < 0 {
		return fmt.Errorf("the number of goroutines %d must not be negative", b.Threads)
	}
	return nil
}

// Fit fits the model to c. It returns ctx's error if ctx ends first.
func (b BradleyTerry) Fit(ctx context.Context, c *Comparisons) (*Result, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	if c.Len() == 0 {
		return nil, ErrNoComparisons
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	wins, games := c.Wins()
	ties := c.Ties()
	lambda := b.lambda()
	if lambda == 0 {
		if err := checkConnected(c, wins, games, ties); err != nil {
			return nil, err
		}
	}
	maxIter := b.MaxIterations
	if maxIter == 0 {
		maxIter = 100
	}
	tol := b.Tol
	if tol == 0 {
		tol = 1e-9
	}
	r := &Result{Model: "bt", Items: c.Items, Wins: wins, Games: games}
	if c.HasTies() {
		r.Ties = ties
	}
	nt := newNewton(c, lambda, b.Threads)
	theta := make([]float64, len(c.Items))
	for r.Iterations < maxIter {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		step, err := nt.step(theta)
		if err != nil {
			return nil, err
		}
		r.Iterations++
		if step <= tol {
			r.Converged = true
			break
		}
	}
	if lambda == 0 { // the likelihood does not fix the scale: Σ θ_i = 0
		var mean float64
		for _, t := range theta {
			mean += t
		}
		mean /= float64(len(theta))
		for i := range theta {
			theta[i] -= mean
		}
	}
	r.Scores = theta
	r.LogLikelihood, r.LogPosterior = btObjective(c, theta, lambda, nil, nil, b.Threads)
	return r, nil
}

// btObjective returns the log-likelihood of the comparisons c at the scores
// theta and the log-likelihood plus the prior of weight lambda. If grad is
// not nil it writes the latter's gradient there, and if weight is not nil
// it writes σ(d_c)σ(−d_c) for every comparison c there (the Hessian's edge
// weights, see BradleyTerry). One exponential and one logarithm a
// comparison give all three, computed on threads goroutines (0: all cores)
// and added in the comparisons' order, so that the result does not depend
// on threads.
func btObjective(c *Comparisons, theta []float64, lambda float64, grad, weight []float64, threads int) (ll, lp float64) {
	if grad != nil {
		clear(grad)
	}
	terms := make([]btTerm, min(blockSize, c.Len()))
	runBlocks(c.Len(), threads, func(lo, hi, at int) {
		for k := lo; k < hi; k++ {
			w, o := c.Left[k], c.Right[k]
			if !c.LeftWon[k] {
				w, o = o, w
			}
			d := theta[w] - theta[o]
			e := math.Exp(-math.Abs(d)) // σ(−|d|) = e/(1+e)
			inv := 1 / (1 + e)
			t := &terms[at+k-lo]
			switch {
			case c.isTie(k): // half a win each: (log σ(d) + log σ(−d)) / 2
				sig := inv // σ(d)
				if d < 0 {
					sig = e * inv
				}
				t.logP, t.lose = -0.5*math.Abs(d)-math.Log1p(e), 0.5-sig
			case d >= 0:
				t.logP, t.lose = -math.Log1p(e), e*inv
			default:
				t.logP, t.lose = d-math.Log1p(e), inv
			}
			if weight != nil {
				weight[k] = e * inv * inv
			}
		}
	}, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			t := &terms[k-lo]
			ll += t.logP
			if grad == nil {
				continue
			}
			w, o := c.Left[k], c.Right[k]
			if !c.LeftWon[k] {
				w, o = o, w
			}
			grad[w] += t.lose
			grad[o] -= t.lose
		}
	})
	lp = ll
	if lambda > 0 {
		for i, t := range theta {
			v, dv := logisticPrior(lambda, t)
			lp += v
			if grad != nil {
				grad[i] += dv
			}
		}
	}
	return ll, lp
}

// btTerm is one comparison's term of the Bradley-Terry log-likelihood,
// log σ(d) with d the winner's score less the loser's, and the term's
// derivative with respect to the winner's score, the loser's probability
// σ(−d). A tie counts as half a win for each item: its term is
// (log σ(d) + log σ(−d)) / 2 and its derivative 1/2 − σ(d), with the
// right item in the winner's place.
type btTerm struct {
	logP, lose float64
}

// checkConnected returns an error unless every item beats every other
// through a chain of wins (item a beat b, b beat c, ...), the condition
// under which the maximum-likelihood scores exist (Hunter 2004, Assumption
// 1): the graph with an edge from each comparison's winner to its loser is
// strongly connected. wins, games and ties are c's Wins and Ties.
func checkConnected(c *Comparisons, wins, games, ties []int) error {
	n := len(c.Items)
	for i := range n {
		switch {
		case wins[i]+ties[i] == 0:
			return fmt.Errorf("item %q wins none of its %d comparisons, so its maximum-likelihood score is −∞; fit with a prior", c.Items[i], games[i])
		case wins[i] == games[i]:
			return fmt.Errorf("item %q wins all of its %d comparisons, so its maximum-likelihood score is +∞; fit with a prior", c.Items[i], games[i])
		}
	}
	beats, beaten := winGraph(c)
	for _, g := range [2]*csr{beats, beaten} {
		if i := unreached(g); i >= 0 {
			rel := "beats"
			if g == beaten {
				rel = "loses to"
			}
			return fmt.Errorf("no chain of wins connects item %q and item %q (%q never %s %q, directly or through other items), so no maximum-likelihood scores exist; fit with a prior",
				c.Items[0], c.Items[i], c.Items[0], rel, c.Items[i])
		}
	}
	return nil
}

// csr is a directed graph in compressed sparse rows: the successors of node
// i are to[at[i]:at[i+1]].
type csr struct {
	at []int
	to []int32
}

// winGraph returns the graph with an edge from each comparison's winner to
// its loser (for a tie, one each way), and the same graph reversed.
func winGraph(c *Comparisons) (beats, beaten *csr) {
	n := len(c.Items)
	beats, beaten = &csr{at: make([]int, n+1)}, &csr{at: make([]int, n+1)}
	// A tie is half a win for each item: an edge each way.
	ends := func(k int, back bool) (w, l int32) {
		if c.LeftWon[k] != back {
			return c.Left[k], c.Right[k]
		}
		return c.Right[k], c.Left[k]
	}
	edges := func(each func(w, l int32)) {
		for k := range c.Left {
			each(ends(k, false))
			if c.isTie(k) {
				each(ends(k, true))
			}
		}
	}
	edges(func(w, l int32) {
		beats.at[w+1]++
		beaten.at[l+1]++
	})
	for i := range n {
		beats.at[i+1] += beats.at[i]
		beaten.at[i+1] += beaten.at[i]
	}
	beats.to, beaten.to = make([]int32, beats.at[n]), make([]int32, beaten.at[n])
	fb := append([]int(nil), beats.at[:n]...)
	fd := append([]int(nil), beaten.at[:n]...)
	edges(func(w, l int32) {
		beats.to[fb[w]] = l
		fb[w]++
		beaten.to[fd[l]] = w
		fd[l]++
	})
	return beats, beaten
}

// unreached returns a node that node 0 does not reach in g, or -1 if it
// reaches every node.
func unreached(g *csr) int {
	n := len(g.at) - 1
	seen := make([]bool, n)
	stack := []int32{0}
	seen[0] = true
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range g.to[g.at[v]:g.at[v+1]] {
			if !seen[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	for i, s := range seen {
		if !s {
			return i
		}
	}
	return -1
}
