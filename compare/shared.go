package compare

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/consensuslab/consensus/internal/shared"
	"github.com/consensuslab/consensus/model"
)

// WorkerPair is a pair of workers whose labels on the same tasks agree
// more often than a fit's independent workers explain (SharedErrors).
// A == B is one worker who labelled the same tasks more than once.
type WorkerPair struct {
	// A and B index the workers (data.Dataset.Workers), A ≤ B.
	A, B int32
	// Shared is the number of pairs of their labels on a common task.
	Shared int
	// Agree is the share of those pairs that agree, Expected the share
	// the fit expects of independent workers.
	Agree, Expected float64
	// Z is the excess in standard deviations: (Σ agree − Σ p) / √Σ p(1 − p).
	Z float64
}

// SharedSettings controls SharedErrors. Its zero value checks the pairs
// among the 50 most active workers on at most 20,000 tasks, and reports
// a pair with at least 50 shared tasks whose agreement is 5 standard
// deviations and 5 points above what the fit expects.
type SharedSettings struct {
	// Workers is the number of most active workers whose pairs are
	// checked; zero means 50. Shared errors that move a consensus are
	// those of workers who give many labels.
	Workers int
	// MaxTasks bounds the tasks read (every m-th task); zero means 20,000.
	MaxTasks int
	// MinShared is the least number of shared tasks of a pair reported;
	// zero means 50.
	MinShared int
	// Z and Excess are the least excess reported, in standard deviations
	// and in agreement share; zero means 5 and 0.05.
	Z, Excess float64
}

// ErrNoWorkerModel is returned by SharedErrors for a result without
// fitted workers (Result.WorkerColumns is nil).
var ErrNoWorkerModel = errors.New("the fit has no worker model")

// SharedErrors returns the pairs of workers of the fit r (a posterior of
// the true class, under LA, with its fitted workers) whose labels agree
// beyond what independent workers explain, the most significant first: a
// posterior predictive check of the independence that every model but
// ebcc assumes. With ρ_j the posterior of task j's true class under LA
// given the fit's workers, ρ_j(z) ∝ π_z Π_i P_wi(y_i | z) with π the mean
// of r's output (shared.Posterior; the output itself may be tempered or
// floored), and labels y_a and y_b of workers a and b on task j, the
// posterior without both, ρ_j^{−ab}(z) ∝ ρ_j(z) / (P_a(y_a | z) P_b(y_b | z)),
// gives the probability that two independent labels agree,
//
//	p_j = Σ_z ρ_j^{−ab}(z) Σ_y P_a(y | z) P_b(y | z),
//
// and the pair's excess is Σ_j [y_a = y_b] − Σ_j p_j over their shared
// tasks, in standard deviations √Σ_j p_j (1 − p_j). Workers who share a
// systematic mistake (both call a subtype of one class another) agree on
// it where the rest of the crowd does not; a model of independent workers
// reads their agreement as the truth (docs/choosing-a-model.md). On
// independent simulated crowds no pair reaches the defaults' bars; on the
// correlated regime its one correlated pair does (TestSharedErrors). The
// default model takes the true class's posterior under a model of shared
// mistakes (internal/shared) where the evidence asks for it.
func SharedErrors(r *model.Result, s SharedSettings) ([]WorkerPair, error) {
	if r == nil || r.Data == nil {
		return nil, errors.New("shared errors: no result")
	}
	if r.WorkerColumns() == nil {
		return nil, fmt.Errorf("shared errors of model %s: %w", r.Model, ErrNoWorkerModel)
	}
	d, k := r.Data, r.K()
	if len(r.Probs) != d.NumTasks()*k {
		return nil, fmt.Errorf("shared errors of model %s: %d probabilities for %d tasks of %d classes", r.Model, len(r.Probs), d.NumTasks(), k)
	}
	// The LA posterior of the fit's workers, with the class prior the
	// mean of its output: the default's output is tempered or floored, or
	// a model's of shared mistakes, none of which is what the check of
	// independent workers reads.
	prior := shared.ClassPrior(d, r.Probs)
	la := make([]float64, len(r.Probs))
	only := r.WorkerOnly()
	shared.Posterior(d, prior, r.Conditional, only, la)
	var out []WorkerPair
	set := shared.Settings{Workers: s.Workers, MaxTasks: s.MaxTasks, MinShared: s.MinShared, Z: s.Z, Excess: s.Excess, WorkerOnly: only}
	for _, p := range shared.Pairs(d, la, r.Conditional, set) {
		out = append(out, WorkerPair(p))
	}
	return out, nil
}

// WriteSharedErrors writes to w a line for each of at most max pairs of
// workers that SharedErrors reports with its default settings, for a fit
// of the true class by a model of independent workers (a composite
// estimator under LA, model.Describe); it writes nothing for other fits.
// A pair is one worker when it labelled tasks more than once; a line says
// when the fit's true class allows for the pair's shared mistakes. It returns
// w's first write error.
func WriteSharedErrors(w io.Writer, r *model.Result, max int) error {
	if r == nil {
		return nil
	}
	c, ok := model.DescribeName(r.Model)
	if !ok || c.Assumption != "la" {
		return nil
	}
	pairs, err := SharedErrors(r, SharedSettings{})
	if err != nil {
		return nil // a fit without workers has no pairs to report
	}
	// The default model takes the true class's posterior under shared
	// mistakes where the evidence asks for it (its Method says so).
	trap := strings.Contains(r.Method, "shared mistakes")
	for i, p := range pairs {
		var err error
		switch {
		case i == max:
			_, err = fmt.Fprintf(w, "shared errors: %d more pairs of workers\n", len(pairs)-max)
		case p.A == p.B:
			_, err = fmt.Fprintf(w, "shared errors: worker %s labelled tasks more than once, and its repeated labels agree on %.0f%% of %d pairs, where independent labels would on %.0f%% (z = %.1f): they are not independent evidence\n",
				r.Data.Workers[p.A], 100*p.Agree, p.Shared, 100*p.Expected, p.Z)
		case trap:
			_, err = fmt.Fprintf(w, "shared errors: workers %s and %s agree on %.0f%% of %d shared tasks, where independent workers would on %.0f%% (z = %.1f): the true class allows for their shared mistakes\n",
				r.Data.Workers[p.A], r.Data.Workers[p.B], 100*p.Agree, p.Shared, 100*p.Expected, p.Z)
		default:
			_, err = fmt.Fprintf(w, "shared errors: workers %s and %s agree on %.0f%% of %d shared tasks, where independent workers would on %.0f%% (z = %.1f): if they share mistakes, a model of independent workers reads them as the truth, and --model ebcc does not\n",
				r.Data.Workers[p.A], r.Data.Workers[p.B], 100*p.Agree, p.Shared, 100*p.Expected, p.Z)
		}
		if err != nil || i == max {
			return err
		}
	}
	return nil
}
