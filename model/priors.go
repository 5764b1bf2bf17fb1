package model

// MaxQPrior is the largest pseudo-count of the Dirichlet prior of q_j that
// callers should pass to QPriorSetter.WithQPrior: the variational bound's
// Dirichlet terms are differences of log Γ values of the order of
// a·log a, whose rounding grows with a (on rte the reported
// log-likelihood, -5302.87 from a = 10⁴ to 10⁹, is -5302.92 at 10¹⁰,
// -5293.46 at 10¹² and -202.336 at 10¹⁶); at 10⁶ it is still exact to the
// digits printed.
const MaxQPrior = 1e6

// Priors are the priors an estimator may take beyond its defaults. The
// zero value leaves every estimator as it is.
type Priors struct {
	// PriorVar is the variance of the Gaussian priors of a noise model
	// that takes them (PriorVarSetter: GLAD); zero means none.
	PriorVar float64
	// QPrior is the pseudo-count a of the Dirichlet(a, ..., a) prior of
	// every q_j (QPriorSetter); zero means the model's default.
	QPrior float64
	// Staged selects the staged form of a QPriorSetter.
	Staged bool
}

// Apply returns est with the priors of p that it takes, and whether it
// took the variance (WithPriorVar) and the q_j prior (QPriorSetter). A
// prior est does not take is left aside, as is a value out of range (a
// variance not above 0, a pseudo-count not from 0 to MaxQPrior): callers
// that need a prior refuse est when the result reports it not taken.
func (p Priors) Apply(est Estimator) (out Estimator, priorVar, qPrior bool) {
	if p.PriorVar > 0 {
		if e, ok := WithPriorVar(est, p.PriorVar); ok {
			est, priorVar = e, true
		}
	}
	if (p.QPrior != 0 || p.Staged) && p.QPrior >= 0 && p.QPrior <= MaxQPrior {
		if s, ok := est.(QPriorSetter); ok {
			if e, ok := s.WithQPrior(p.QPrior, p.Staged); ok {
				est, qPrior = e, true
			}
		}
	}
	return est, priorVar, qPrior
}

// WithPriorVar returns est with the variance of its noise model's Gaussian
// priors set to v, and false, with est unchanged, if est is not a
// Composite whose noise model is a PriorVarSetter.
func WithPriorVar(est Estimator, v float64) (Estimator, bool) {
	c, ok := est.(Composite)
	if !ok {
		return est, false
	}
	n, _ := c.Parts()
	p, ok := n.(PriorVarSetter)
	if !ok {
		return est, false
	}
	return c.WithNoise(p.WithPriorVar(v)), true
}
