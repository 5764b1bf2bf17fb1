package noise

import (
	"math"

	"github.com/consensuslab/consensus/noise/internal/dirichlet"
)

// symmetricUnlessSupported keeps the crowd's pattern of errors in the
// shared prior's row β_z, the shape of its pseudo-counts off the diagonal,
// only where the workers' expected counts of the row support it; otherwise
// it makes the row's errors symmetric: every β_z(y), y ≠ z, the mean of
// them, with β_z(z) and the row's concentration kept. (At K = 2 a row has
// one error and nothing to do.)
//
// The test is Schwarz's criterion (BIC) for the K − 2 free parameters the
// pattern adds: it is kept if
//
//	L(β_z) − L(β_z^sym) ≥ (K − 2)/2 · log W_z,
//
// where L is the Dirichlet-multinomial log evidence of the W_z workers'
// counts of the row (learnPrior's likelihood,
// Σ_w log B(β + C_w(z, ·)) − log B(β)) and β_z^sym the symmetric row.
// β_z^sym is not the symmetric model's best row, so that the left side is
// at least the gain of the best pattern over the best symmetric row: the
// rule keeps a pattern at least as often as the exact test would.
//
// Why: at many classes the row has K − 1 error pseudo-counts learned from
// few errors a cell, which the mean-field fit counts twice (in a task's
// posterior and in its workers' counts). A task's own labels then raise
// their confusions with the task's favoured class in the crowd's pattern,
// which makes the task surer of that class. On one-coin workers (uniform
// errors) with K = 50 classes and 3 labels a task, the learned pattern
// gave accuracy 0.706 and calibration error 0.21 where the symmetric rows
// give 0.7405 and 0.064 (the maximum-likelihood one-coin model's 0.7405);
// where errors do have a pattern, as between neighbouring grades of
// relevance, the gain is far above the price and the pattern stays
// (TestSymmetricUnlessSupported).
//
// rc holds the W_z workers' counts of the row, as learnRows gathers them.
func symmetricUnlessSupported(beta []float64, rc *dirichlet.RowCounts, z int) {
	k := len(beta)
	if k <= 2 || len(rc.N) == 0 {
		return
	}
	var off float64
	for y, b := range beta {
		if y != z {
			off += b
		}
	}
	off /= float64(k - 1)
	gain := rc.PatternGain(beta, z, off)
	var sw float64
	for _, w := range rc.Wt {
		sw += w
	}
	if gain >= float64(k-2)/2*math.Log(max(sw, 1)) {
		return
	}
	for y := range beta {
		if y != z {
			beta[y] = off
		}
	}
}

// PatternReporter is an optional interface of a Variational posterior
// whose shared prior learns the crowd's pattern of confusion
// (PatternPriorer).
type PatternReporter interface {
	// PatternFound reports whether the learned prior keeps a pattern of
	// errors in some row: pseudo-counts off the diagonal that differ.
	PatternFound() bool
}

var _ PatternReporter = (*dsVB)(nil)

// PatternFound reports whether some row β_z of the learned prior has
// errors of unequal pseudo-counts, kept by symmetricUnlessSupported
// (PatternReporter); false under a fixed prior.
func (v *dsVB) PatternFound() bool {
	rows := v.pat
	if rows == nil {
		rows = v.beta
	}
	if rows == nil {
		return false
	}
	k := v.e.k
	for z := range k {
		row := rows[z*k : (z+1)*k]
		ref := row[(z+1)%k]
		for y, b := range row {
			if y != z && math.Abs(b-ref) > 1e-9*ref {
				return true
			}
		}
	}
	return false
}
