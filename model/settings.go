package model

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/consensuslab/consensus/data"
)

// Method selects the algorithm that maximises the log-likelihood.
type Method int

const (
	// Auto, the zero value, picks the solver per model: EM for models
	// whose noise model and assumption both have closed-form M-steps
	// (Dawid-Skene under LA or DA), unless Ridge or Fixed is set, and
	// LBFGS for every other model. On the shipped data sets EM reaches the
	// same maximum as L-BFGS for LA-DS in a fraction of the time, and a
	// higher one for DA-DS, whose maximum lies on the boundary of the
	// parameter space (see docs/performance.md).
	Auto Method = iota
	// LBFGS is limited-memory BFGS (gonum optimize.LBFGS), the default for
	// every model without an EM algorithm: it needs far fewer evaluations
	// than conjugate gradient on these problems.
	LBFGS
	// CG is nonlinear conjugate gradient (gonum optimize.CG), the method
	// used in the paper.
	CG
	// EM is the expectation-maximisation algorithm, for models whose noise
	// model and assumption both have closed-form M-steps
	// (noise.MStepper and latent.MStepper: Dawid-Skene under LA or DA).
	// It is accelerated by SQUAREM and stores no optimiser history, only
	// the parameters, one vector of expected counts, one more parameter
	// vector and one in single precision.
	EM
)

// String returns "auto", "lbfgs", "cg" or "em".
func (m Method) String() string {
	switch m {
	case Auto:
		return "auto"
	case LBFGS:
		return "lbfgs"
	case CG:
		return "cg"
	case EM:
		return "em"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod returns the Method named s ("auto" or "", "lbfgs", "cg" or
// "em").
func ParseMethod(s string) (Method, error) {
	switch s {
	case "auto", "":
		return Auto, nil
	case "lbfgs":
		return LBFGS, nil
	case "cg":
		return CG, nil
	case "em":
		return EM, nil
	}
	return 0, fmt.Errorf("unknown solver %q (valid: auto, lbfgs, cg, em)", s)
}

// Settings controls a fit. The zero value (or a nil *Settings) selects every
// default.
type Settings struct {
	// Method is the optimisation algorithm; the zero value, Auto, picks
	// EM for Dawid-Skene and LBFGS for the other models.
	Method Method

	// MaxIterations bounds the number of major iterations. Zero means 1000.
	MaxIterations int

	// GradientTol stops the fit when the largest absolute component of the
	// gradient of the mean log-likelihood per label falls below it. Zero
	// means 1e-7.
	GradientTol float64

	// FunctionTol stops the fit when the mean log-likelihood per label
	// has improved by less than FunctionTol·|value| for 10 iterations in a
	// row. Zero means 1e-10 (VBFunctionTol for variational fits, whose
	// rule ParamTol describes).
	FunctionTol float64

	// ParamTol is the second stopping rule of variational fits (vb.Bayes):
	// they stop when, besides the relative change of the evidence lower
	// bound being at most FunctionTol, no consensus probability has moved
	// by more than ParamTol in the last iteration. Zero means
	// VBParamTol; other fits ignore it.
	ParamTol float64

	// Ridge is the weight λ of an L2 penalty (λ/2) Σ x² subtracted from
	// the log-likelihood, over all parameters x (logits, abilities, log
	// difficulties). It keeps the optimum finite where the likelihood alone
	// would push a parameter to infinity (a probability of exactly 0 or 1),
	// and is negligible against the likelihood of any real data set. Zero
	// means no penalty.
	Ridge float64

	// Threads is the number of goroutines an evaluation uses. Zero means
	// runtime.GOMAXPROCS(0). Results do not depend on it.
	Threads int

	// Progress, if not nil, is called after every major iteration.
	Progress func(Progress)

	// Start, if not nil, is the initial parameter vector, laid out as
	// Model.Layout describes; nil means the paper's initialisation
	// (Model.Init).
	Start []float64

	// Fixed, if not nil, marks parameters (same layout as Start) that keep
	// their initial values: gradient methods hold their gradient at zero,
	// and EM puts them back after every M-step (so that SQUAREM's
	// extrapolation leaves them where they are too). WorkerStarter's
	// WorkerParams gives the block of one worker.
	Fixed []bool

	// fullOptim hands gonum the whole parameter vector even when a suffix
	// of it is held (see optimDim), for the test that both fits are the
	// same.
	fullOptim bool
}

// Progress describes a run in progress: the one progress report of the
// library. A fit (Settings.Progress) reports its iterations: Iteration,
// MaxIterations, LogLikelihood and Elapsed. A run made of several steps,
// such as the fits of a comparison (package compare) or of a part of the
// reproduction (consensus reproduce), reports its steps: Run, Done and
// Total, and for a step that has ended Item, Err and Elapsed.
type Progress struct {
	// Iteration is the number of major iterations done.
	Iteration int
	// MaxIterations is the iteration limit in force.
	MaxIterations int
	// LogLikelihood is the current log-likelihood (a sum over labels).
	LogLikelihood float64
	// Elapsed is the time since the fit started; for a step that has
	// ended, the time the step took.
	Elapsed time.Duration

	// Run names a run of several steps, such as "real" for that part of
	// the reproduction; empty for a fit.
	Run string
	// Done and Total count the steps of a run that have ended and all its
	// steps; Done is 0 when the run starts. Both are 0 for a fit.
	Done, Total int
	// Item names the step that has just ended, such as "la-ds (split 1)";
	// empty when the run starts.
	Item string
	// Err is the error of the step that has just ended, if it failed.
	Err error
}

// WithDefaults returns a copy of s (nil: the zero Settings) with every
// zero field that has a default set to it, as every Fit reads them.
func (s *Settings) WithDefaults() Settings {
	var r Settings
	if s != nil {
		r = *s
	}
	if r.MaxIterations == 0 {
		r.MaxIterations = 1000
	}
	if r.GradientTol == 0 {
		r.GradientTol = 1e-7
	}
	if r.FunctionTol == 0 {
		r.FunctionTol = 1e-10
	}
	return r
}

// errNilContext is the error of a Fit given a nil context.
var errNilContext = errors.New("model: nil context (pass context.Background() when nothing cancels the fit)")

// CheckFit checks the arguments every Fit takes, the first thing an
// Estimator's Fit does: a non-nil context and a
// data set that can be fitted (checkData).
func CheckFit(ctx context.Context, d *data.Dataset) error {
	if ctx == nil {
		return errNilContext
	}
	return checkData(d)
}

// CheckGold returns an error if gold, when not nil, does not hold one class
// index of d, or −1 for none, for every task of d: the gold classes a model
// is given to train on (such as vb.Bayes.Gold).
func CheckGold(gold []int, d *data.Dataset) error {
	if gold == nil {
		return nil
	}
	if len(gold) != d.NumTasks() {
		return fmt.Errorf("%d gold entries for %d tasks: want one per task (-1 for none)", len(gold), d.NumTasks())
	}
	for j, g := range gold {
		if g < -1 || g >= d.NumClasses() {
			return fmt.Errorf("task %s has gold class index %d, but there are %d classes", d.Tasks[j], g, d.NumClasses())
		}
	}
	return nil
}
