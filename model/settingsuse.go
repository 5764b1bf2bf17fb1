package model

// Setting names a field of Settings that a fit may read.
type Setting int

// The fields of Settings a fit may read (Progress aside, which any fit may
// call, and Threads, a hint that never changes a result).
const (
	SetMethod        Setting = iota // Settings.Method
	SetMaxIterations                // Settings.MaxIterations
	SetGradientTol                  // Settings.GradientTol
	SetFunctionTol                  // Settings.FunctionTol
	SetParamTol                     // Settings.ParamTol
	SetRidge                        // Settings.Ridge
	SetStart                        // Settings.Start and Settings.Fixed
)

// SettingsReader is an Estimator that says which fields of Settings its
// fits read. An Estimator that is not one reads none of them (RFE, Wawa,
// GoldMajorityVote, and KOS, ZeroBasedSkill and MMSR, whose own
// MaxIterations field sets their iterations: see IterationSetter), so a
// caller can refuse a setting that the model would ignore.
type SettingsReader interface {
	Estimator
	// Reads reports whether fits read the setting s.
	Reads(s Setting) bool
}

// IterationSetter is an Estimator with an iteration count of its own
// (KOS, ZeroBasedSkill, MMSR, whose defaults are Crowd-Kit's), which
// Settings.MaxIterations does not set.
type IterationSetter interface {
	Estimator
	// WithMaxIterations returns the estimator with its iteration count (or
	// bound) set to n.
	WithMaxIterations(n int) Estimator
}

// Reads reports whether Model's fits read s: all but ParamTol. GradientTol
// stops the gradient methods (Method LBFGS or CG), not EM.
func (m Model) Reads(s Setting) bool { return s != SetParamTol }

// Reads reports whether Bayes's fits read s: MaxIterations, FunctionTol
// and ParamTol, the variational fit's iteration limit and stopping rule,
// and Start and Fixed when the noise model can set its workers' posteriors
// (CanSetWorkers).
func (b Bayes) Reads(s Setting) bool {
	return s == SetMaxIterations || s == SetFunctionTol || s == SetParamTol || s == SetStart && b.CanSetWorkers()
}

var (
	_ SettingsReader = Model{}
	_ SettingsReader = Bayes{}
)
