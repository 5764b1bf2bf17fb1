package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/consensuslab/consensus/noise"
)

// ParamSampler draws the true parameters of one noise model for a
// simulation (Settings.Params), in place of the model's own noise.Sampler.
type ParamSampler interface {
	noise.Sampler
	// Model returns the noise model whose parameter layout SampleParams
	// writes.
	Model() noise.Model
	// Validate returns an error if the sampler's settings are not valid
	// for k classes.
	Validate(k int) error
}

// Range is a closed interval [Lo, Hi] of probabilities.
type Range struct {
	Lo, Hi float64
}

// defaultAccuracy is the accuracy range of noise.DS's and noise.OneCoin's
// own samplers, U[0.55, 0.95], drawn as 0.55 + 0.4·u as they draw it.
var defaultAccuracy = Range{0.55, 0.95}

// defaultNearRandom is the accuracy range of near-random workers.
var defaultNearRandom = Range{0.4, 0.6}

// draw returns a number drawn uniformly from r.
func (r Range) draw(rng *rand.Rand) float64 {
	if r == defaultAccuracy {
		return 0.55 + 0.4*rng.Float64() // bit for bit the noise samplers' draw
	}
	return r.Lo + (r.Hi-r.Lo)*rng.Float64()
}

// check returns an error unless r is a range of probabilities strictly
// between 0 and 1.
func (r Range) check(what string) error {
	if !(r.Lo > 0 && r.Lo <= r.Hi && r.Hi < 1) {
		return fmt.Errorf("%s range [%v, %v] is not within (0, 1) with its low end first", what, r.Lo, r.Hi)
	}
	return nil
}

// nearRandom returns which of w workers are near-random: exactly
// round(share·w) of them, drawn by a partial shuffle from rng.
func nearRandom(rng *rand.Rand, w int, share float64) []bool {
	near := make([]bool, w)
	m := int(math.Round(share * float64(w)))
	if m == 0 {
		return near
	}
	perm := make([]int, w)
	for i := range perm {
		perm[i] = i
	}
	for i := range m {
		r := i + rng.IntN(w-i)
		perm[i], perm[r] = perm[r], perm[i]
		near[perm[i]] = true
	}
	return near
}

func checkShare(what string, v float64) error {
	if !(v >= 0 && v <= 1) {
		return fmt.Errorf("%s share %v is not in [0, 1]", what, v)
	}
	return nil
}

// DSParams draws Dawid-Skene confusion matrices (noise.DS's layout: the
// logits log π_w(z, y)). Row z of a worker's matrix puts a mass a_{w,z} on
// the correct class, drawn uniformly from Diag[z], and spreads the rest
// over the other classes y with weights e_y·exp(-ErrorDecay·(|y - z| - 1)),
// e_y ~ Exp(1) (uniform random, Dirichlet(1), weights for ErrorDecay 0).
// Its zero value draws exactly as noise.DS's own sampler does.
type DSParams struct {
	// Diag holds the range of the diagonal P(z | z) for each class z; one
	// range applies to every class; nil means [0.55, 0.95].
	Diag []Range
	// ErrorDecay concentrates the errors on neighbouring classes: the
	// weight of a wrong class falls by a factor exp(-ErrorDecay) with
	// every step of distance from the true class beyond the first. Zero
	// means no decay; it must not be negative.
	ErrorDecay float64
	// NearRandom is the share of workers, exactly round(NearRandom·W)
	// chosen at random, whose every diagonal is drawn from
	// NearRandomDiag instead of Diag.
	NearRandom float64
	// NearRandomDiag is the diagonal range of the near-random workers;
	// its zero value means [0.4, 0.6].
	NearRandomDiag Range
}

// Model returns noise.DS{}.
func (DSParams) Model() noise.Model { return noise.DS{} }

// Validate returns an error if Diag holds neither one range nor k, or a
// range or a share is not valid.
func (s DSParams) Validate(k int) error {
	if len(s.Diag) != 0 && len(s.Diag) != 1 && len(s.Diag) != k {
		return fmt.Errorf("DS parameters: %d diagonal ranges for %d classes", len(s.Diag), k)
	}
	for _, r := range s.Diag {
		if err := r.check("DS diagonal"); err != nil {
			return err
		}
	}
	if !(s.ErrorDecay >= 0) || math.IsInf(s.ErrorDecay, 0) {
		return fmt.Errorf("DS error decay %v is not a finite number at least 0", s.ErrorDecay)
	}
	if err := checkShare("near-random", s.NearRandom); err != nil {
		return err
	}
	if s.NearRandomDiag != (Range{}) {
		return s.NearRandomDiag.check("near-random diagonal")
	}
	return nil
}

// SampleParams fills the worker block w with confusion logits for k
// classes as DSParams describes.
func (s DSParams) SampleParams(rng *rand.Rand, k int, w, _ []float64) {
	var near []bool
	if s.NearRandom > 0 {
		near = nearRandom(rng, len(w)/(k*k), s.NearRandom)
	}
	nr := s.NearRandomDiag
	if nr == (Range{}) {
		nr = defaultNearRandom
	}
	for r := 0; r < len(w); r += k {
		z := (r / k) % k
		row := w[r : r+k]
		var rest float64
		for y := range row {
			if y != z {
				row[y] = rng.ExpFloat64()
				if s.ErrorDecay > 0 {
					dist := math.Abs(float64(y - z))
					row[y] *= math.Exp(-s.ErrorDecay * (dist - 1))
				}
				rest += row[y]
			}
		}
		rg := defaultAccuracy
		switch {
		case near != nil && near[r/(k*k)]:
			rg = nr
		case len(s.Diag) == 1:
			rg = s.Diag[0]
		case len(s.Diag) > 1:
			rg = s.Diag[z]
		}
		a := rg.draw(rng)
		for y := range row {
			if y == z {
				row[y] = math.Log(a)
			} else {
				row[y] = math.Log((1 - a) * row[y] / rest)
			}
		}
	}
}

// OneCoinParams draws one-coin accuracies (noise.OneCoin's layout: the
// logits log(a_w/(1 - a_w))), a_w uniform in Accuracy. Its zero value
// draws exactly as noise.OneCoin's own sampler does.
type OneCoinParams struct {
	// Accuracy is the range of the accuracies; zero means [0.55, 0.95].
	Accuracy Range
	// NearRandom is the share of workers, exactly round(NearRandom·W)
	// chosen at random, whose accuracy is drawn from NearRandomAccuracy
	// instead.
	NearRandom float64
	// NearRandomAccuracy is the accuracy range of the near-random
	// workers; its zero value means [0.4, 0.6].
	NearRandomAccuracy Range
}

// Model returns noise.OneCoin{}.
func (OneCoinParams) Model() noise.Model { return noise.OneCoin{} }

// Validate returns an error if a range or the share is not valid.
func (s OneCoinParams) Validate(int) error {
	if s.Accuracy != (Range{}) {
		if err := s.Accuracy.check("one-coin accuracy"); err != nil {
			return err
		}
	}
	if err := checkShare("near-random", s.NearRandom); err != nil {
		return err
	}
	if s.NearRandomAccuracy != (Range{}) {
		return s.NearRandomAccuracy.check("near-random accuracy")
	}
	return nil
}

// SampleParams fills the worker block w with accuracy logits as
// OneCoinParams describes.
func (s OneCoinParams) SampleParams(rng *rand.Rand, _ int, w, _ []float64) {
	var near []bool
	if s.NearRandom > 0 {
		near = nearRandom(rng, len(w), s.NearRandom)
	}
	acc, nr := s.Accuracy, s.NearRandomAccuracy
	if acc == (Range{}) {
		acc = defaultAccuracy
	}
	if nr == (Range{}) {
		nr = defaultNearRandom
	}
	for i := range w {
		rg := acc
		if near != nil && near[i] {
			rg = nr
		}
		a := rg.draw(rng)
		w[i] = math.Log(a / (1 - a))
	}
}
