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
// fits read. An Estimator that is not one reads none of them (RFE, crowdkit.Wawa,
// crowdkit.GoldMajorityVote, and crowdkit.KOS, crowdkit.ZeroBasedSkill and crowdkit.MMSR, whose own
// MaxIterations field sets their iterations: see IterationSetter), so a
// caller can refuse a setting that the model would ignore.
type SettingsReader interface {
	Estimator
	// Reads reports whether fits read the setting s.
	Reads(s Setting) bool
}

// IterationSetter is an Estimator with an iteration count of its own
// (crowdkit.KOS, crowdkit.ZeroBasedSkill, crowdkit.MMSR, whose defaults are Crowd-Kit's), which
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

var (
	_ SettingsReader = Model{}
)

// ReadBy reports whether a fit of est with the settings s reads the setting
// which, so that a caller can refuse a setting the fit would ignore: est is
// a SettingsReader that reads which, or for SetMaxIterations an
// IterationSetter. SetGradientTol stops the gradient methods only, so a
// fit by EM does not read it: one with Method EM, or Auto without Ridge
// for a model whose registry entry (Entry.Solver) names EM as its default
// solver. A nil s is the zero Settings.
func (s *Settings) ReadBy(est Estimator, which Setting) bool {
	if _, ok := est.(IterationSetter); ok && which == SetMaxIterations {
		return true
	}
	r, ok := est.(SettingsReader)
	if !ok || !r.Reads(which) {
		return false
	}
	if which != SetGradientTol {
		return true
	}
	var set Settings
	if s != nil {
		set = *s
	}
	return !fitsByEM(set, func() bool {
		for _, e := range Registry() {
			if e.Name == est.Name() {
				return e.Solver == EM.String()
			}
		}
		return false
	})
}

// WithMaxIterations returns ests with n set as the iteration count of
// every IterationSetter among them (whose own count Settings.MaxIterations
// does not set), the others unchanged. For n at most 0 it returns ests
// itself, each model keeping its default.
func WithMaxIterations(ests []Estimator, n int) []Estimator {
	if n <= 0 {
		return ests
	}
	out := make([]Estimator, len(ests))
	for i, est := range ests {
		out[i] = est
		if s, ok := est.(IterationSetter); ok {
			out[i] = s.WithMaxIterations(n)
		}
	}
	return out
}
