package noise

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
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
// cs holds the W_z workers' K counts of the row each and ns their sums, as
// learnPrior gathers them; scratch is a buffer it may grow.
func symmetricUnlessSupported(beta, cs, ns, ws []float64, z int, scratch *[]float64) {
	k := len(beta)
	if k <= 2 || len(ns) == 0 {
		return
	}
	var off float64
	for y, b := range beta {
		if y != z {
			off += b
		}
	}
	off /= float64(k - 1)
	gain := dmEvidence(beta, -1, 0, cs, ns, ws, scratch) - dmEvidence(beta, z, off, cs, ns, ws, scratch)
	var sw float64
	for _, w := range ws {
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

// dmEvidence returns the Dirichlet-multinomial log evidence of the counts
// cs (K per worker, with sums ns) under the row β, Σ_w log Γ(Σβ) −
// log Γ(Σβ + n_w) + Σ_y [log Γ(β_y + C_w(y)) − log Γ(β_y)], up to the
// multinomial coefficients, which do not depend on β. With z ≥ 0 the row
// is β with every value but β_z replaced by off.
func dmEvidence(beta []float64, z int, off float64, cs, ns, ws []float64, scratch *[]float64) float64 {
	k := len(beta)
	at := func(y int) float64 {
		if z < 0 || y == z {
			return beta[y]
		}
		return off
	}
	var sb float64
	for y := range k {
		sb += at(y)
	}
	// The arguments of every log Γ in one call: per worker its C + β_y
	// for C > 0 and its n + Σβ, then every β_y and Σβ.
	args := (*scratch)[:0]
	for i, n := range ns {
		for y, c := range cs[i*k : (i+1)*k] {
			if c > 0 {
				args = append(args, c+at(y))
			}
		}
		args = append(args, n+sb)
	}
	used := len(args)
	for y := range k {
		args = append(args, at(y))
	}
	args = append(args, sb)
	n := len(args)
	args = append(args, args...) // room for the values: LgammaTo's dst must not overlap x
	*scratch = args
	vals := args[n:]
	num.LgammaTo(vals, args[:n])
	lgB, lgSum := vals[used:used+k], vals[used+k]
	var ll float64
	j := 0
	for i := range ns {
		var li float64
		for y, c := range cs[i*k : (i+1)*k] {
			if c > 0 {
				li += vals[j] - lgB[y]
				j++
			}
		}
		li += lgSum - vals[j]
		j++
		if ws != nil {
			li *= ws[i]
		}
		ll += li
	}
	return ll
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
