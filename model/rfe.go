package model

import (
	"context"
	"time"

	"github.com/consensuslab/consensus/data"
)

// RFE is the relative frequency estimator, the paper's baseline: the
// consensus distribution of object j is the vector of its label
// frequencies, P(z) = |{labels of j equal to z}| / |labels of j|. Its argmax
// is majority vote.
type RFE struct {
	// Alias is the name reported, "rfe" when empty; "mv" names majority
	// vote, the same estimate read through its argmax.
	Alias string
}

// Name returns "rfe" or the alias.
func (r RFE) Name() string {
	if r.Alias != "" {
		return r.Alias
	}
	return "rfe"
}

// Fit returns the label frequencies of d. It has no parameters and takes
// no settings.
func (r RFE) Fit(ctx context.Context, d *data.Dataset, _ *Settings) (*Result, error) {
	if err := CheckFit(ctx, d); err != nil {
		return nil, err
	}
	start := time.Now()
	return ClosedForm(r.Name(), d, d.Frequencies(), start).SetBaseline(), nil
}

// SameAs returns "rfe" for an alias (mv, whose consensus distribution is
// rfe's) and "" for rfe itself.
func (r RFE) SameAs() string {
	if r.Alias != "" {
		return "rfe"
	}
	return ""
}
