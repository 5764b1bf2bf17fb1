package pairwise

import (
	"context"
	"fmt"
	"math"
	"sort"
)

// Fitter fits a model to comparisons: BradleyTerry or NoisyBT.
type Fitter interface {
	// Fit returns the model fitted to c.
	Fit(ctx context.Context, c *Comparisons) (*Result, error)
}

var (
	_ Fitter = BradleyTerry{}
	_ Fitter = NoisyBT{}
)

// Result is a fitted model: a score per item and, for the noisy model, a
// skill and a bias per worker.
type Result struct {
	// Model names the model: "bt" or "noisy-bt".
	Model string
	// Items names the items, as in the Comparisons.
	Items []string
	// Scores holds the score θ_i of every item, on the logit scale:
	// item a beats item b with probability σ(θ_a − θ_b). With a prior
	// the scores are anchored at the reference item's 0; without one
	// they are shifted to sum to 0.
	Scores []float64
	// Wins and Games hold, for every item, the comparisons it was chosen
	// in and those it took part in.
	Wins, Games []int
	// Ties holds, for every item, its comparisons that were ties; it is
	// nil when there are none.
	Ties []int
	// Workers names the workers (the noisy model only).
	Workers []string
	// Skills holds every worker's γ_w, the probability that the worker
	// compares by quality (the noisy model only).
	Skills []float64
	// Biases holds every worker's β_w, the probability that the worker
	// picks the left item when not comparing by quality (the noisy model
	// only).
	Biases []float64
	// LogLikelihood is the log-likelihood of the comparisons at the
	// fitted parameters, and LogPosterior adds the log prior to it (up
	// to a constant): the objective the fit maximised.
	LogLikelihood, LogPosterior float64
	// Iterations counts the fit's iterations (MM steps for
	// Bradley-Terry, L-BFGS iterations for the noisy model).
	Iterations int
	// Converged reports whether the fit met its convergence test before
	// its iteration limit.
	Converged bool
}

// WinProbability returns the probability σ(θ_a − θ_b) that item a beats
// item b when compared by quality.
func (r *Result) WinProbability(a, b int) float64 { return sigmoid(r.Scores[a] - r.Scores[b]) }

// Weights returns exp θ_i / Σ_j exp θ_j for every item: the scores as
// strengths summing to 1, the scale of Crowd-Kit's BradleyTerry scores_.
func (r *Result) Weights() []float64 {
	m := math.Inf(-1)
	for _, s := range r.Scores {
		m = max(m, s)
	}
	w := make([]float64, len(r.Scores))
	var sum float64
	for i, s := range r.Scores {
		w[i] = math.Exp(s - m)
		sum += w[i]
	}
	for i := range w {
		w[i] /= sum
	}
	return w
}

// Ranking returns the items' indices from the highest score to the
// lowest; items with equal scores keep the order of Items.
func (r *Result) Ranking() []int {
	order := make([]int, len(r.Scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return r.Scores[order[a]] > r.Scores[order[b]] })
	return order
}

// Summary returns the one-line summary of r, fitted to c: the model, the
// numbers of items, workers (when c has them) and comparisons, the
// iterations, whether the fit converged, and the log-likelihood and log
// posterior, such as "bt: 3 items, 4 comparisons; 5 iterations,
// converged; log-likelihood -2.100000, with the prior -4.300000".
func (r *Result) Summary(c *Comparisons) string {
	if c == nil {
		c = &Comparisons{}
	}
	state := "converged"
	if !r.Converged {
		state = "stopped at the iteration limit, not converged"
	}
	workers := ""
	if c.HasWorkers() {
		workers = fmt.Sprintf("%d workers, ", len(c.Workers))
	}
	return fmt.Sprintf("%s: %d items, %s%d comparisons; %d iterations, %s; log-likelihood %.6f, with the prior %.6f",
		r.Model, len(c.Items), workers, c.Len(), r.Iterations, state, r.LogLikelihood, r.LogPosterior)
}

// sigmoid returns σ(x) = 1 / (1 + exp(−x)).
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// logSigmoid returns log σ(x) = −log(1 + exp(−x)), accurate for large |x|.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// logisticPrior returns λ (log σ(x) + log σ(−x)), the log density of the
// standard logistic distribution at x raised to λ (up to a constant), and
// its derivative λ (1 − 2σ(x)).
func logisticPrior(lambda, x float64) (v, d float64) {
	return lambda * (logSigmoid(x) + logSigmoid(-x)), lambda * (1 - 2*sigmoid(x))
}
