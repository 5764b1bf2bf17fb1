package sim

import (
	"errors"
	"fmt"
)

// Population holds departures from the ranges from which a simulation
// draws the parameters of Dawid-Skene and one-coin workers (DSParams,
// OneCoinParams). A nil field keeps the value of the Settings it applies
// to; the zero value departs from nothing.
type Population struct {
	// Accuracy, if not nil, replaces the accuracy ranges: DSParams.Diag,
	// or for one-coin workers the one range of OneCoinParams.Accuracy.
	Accuracy []Range
	// NearRandom, if not nil, replaces the share of near-random workers.
	NearRandom *float64
	// ErrorDecay, if not nil, replaces DSParams.ErrorDecay; one-coin
	// workers have none.
	ErrorDecay *float64
}

// Errors of Settings.WithPopulation.
var (
	// ErrNotRanged is returned for a Population that departs from
	// something when the noise model draws neither Dawid-Skene nor
	// one-coin workers.
	ErrNotRanged = errors.New("sim: accuracy ranges apply to ds and onecoin workers")
	// ErrOneCoinDecay is returned for an error decay of one-coin workers.
	ErrOneCoinDecay = errors.New("sim: error decay applies to ds workers, not onecoin")
	// ErrOneCoinRanges is returned for more than one accuracy range of
	// one-coin workers.
	ErrOneCoinRanges = errors.New("sim: onecoin workers have one accuracy range")
)

// RangeCountError is returned by Settings.WithPopulation when Dawid-Skene
// workers would be drawn with more than one diagonal range but not one per
// class.
type RangeCountError struct {
	// Ranges is the number of diagonal ranges and Classes the number of
	// classes.
	Ranges, Classes int
}

// Error returns the numbers of ranges and of classes.
func (e *RangeCountError) Error() string {
	return fmt.Sprintf("sim: %d accuracy ranges for %d classes; want one, or one per class", e.Ranges, e.Classes)
}

// WithPopulation returns c with the departures of p applied to its worker
// parameters: on top of c.Params, or of the default DSParams or
// OneCoinParams when c.Params is nil. It returns ErrNotRanged when p
// departs from something and c's noise model (with defaults) is neither
// that of DSParams nor that of OneCoinParams, ErrOneCoinDecay or
// ErrOneCoinRanges for departures one-coin workers cannot take, and a
// *RangeCountError when the resulting Dawid-Skene workers have more than
// one diagonal range but not one per class, whether or not p set them.
func (c Settings) WithPopulation(p Population) (Settings, error) {
	if p.Accuracy != nil || p.NearRandom != nil || p.ErrorDecay != nil {
		switch c.withDefaults().Noise.Name() {
		case DSParams{}.Model().Name():
			d, _ := c.Params.(DSParams)
			if p.Accuracy != nil {
				d.Diag = p.Accuracy
			}
			setIf(&d.NearRandom, p.NearRandom)
			setIf(&d.ErrorDecay, p.ErrorDecay)
			c.Params = d
		case OneCoinParams{}.Model().Name():
			if p.ErrorDecay != nil {
				return c, ErrOneCoinDecay
			}
			if len(p.Accuracy) > 1 {
				return c, ErrOneCoinRanges
			}
			o, _ := c.Params.(OneCoinParams)
			if p.Accuracy != nil {
				o.Accuracy = p.Accuracy[0]
			}
			setIf(&o.NearRandom, p.NearRandom)
			c.Params = o
		default:
			return c, ErrNotRanged
		}
	}
	if d, ok := c.Params.(DSParams); ok {
		if _, _, k := c.Sizes(); len(d.Diag) > 1 && len(d.Diag) != k {
			return c, &RangeCountError{Ranges: len(d.Diag), Classes: k}
		}
	}
	return c, nil
}

// setIf sets *dst to *v when v is not nil.
func setIf(dst, v *float64) {
	if v != nil {
		*dst = *v
	}
}

// CheckGroup returns an error if the correlated group of c does not fit
// c's numbers of workers, of labels per object and of classes (with
// defaults), or nil when c has no group. The error names the group's
// setting at fault in the syntax of ParseCorrelated, such as
// "workers=25: ...".
func (c Settings) CheckGroup() error {
	g := c.Correlated
	if g.Workers == 0 {
		return nil
	}
	workers, per, k := c.Sizes()
	switch {
	case g.Workers >= workers:
		return fmt.Errorf("workers=%d: the group must leave some of the %d workers outside it", g.Workers, workers)
	case g.Workers > per:
		return fmt.Errorf("workers=%d: more than the %d labels of an object", g.Workers, per)
	case g.From >= k || g.To >= k:
		return fmt.Errorf("from=%d,to=%d: the classes are 0 to %d", g.From, g.To, k-1)
	}
	return nil
}

// CheckAmbiguity returns an error if c has ambiguous objects
// (Settings.Ambiguity) under an assumption without a true class per
// object (the assumption nil is DA), or together with a correlated group;
// nil otherwise. The error says which, after the name of the setting, such
// as "cannot be combined with a correlated group".
func (c Settings) CheckAmbiguity() error {
	if c.Ambiguity == (Ambiguity{}) {
		return nil
	}
	if oc, ok := c.Latent.(oneClass); !ok || !oc.OneClassPerTask() {
		name := "da"
		if c.Latent != nil {
			name = c.Latent.Name()
		}
		return fmt.Errorf("needs a true class per object (LA), not the %s assumption", name)
	}
	if c.Correlated != (Correlated{}) {
		return errors.New("cannot be combined with a correlated group")
	}
	return nil
}
