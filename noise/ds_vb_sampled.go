package noise

import (
	"math/rand/v2"

	"github.com/consensuslab/consensus/internal/num"
)

// PrecisionSampler is an optional interface of a Variational posterior
// whose workers' errors (the one-coin and per-class kinds' of DS.Averaged
// at K > 2) have a precision learned from expected counts, which can run
// to its cap where tasks have few labels: a label's expected errors spread
// over every class its task might be, and look alike across workers.
type PrecisionSampler interface {
	// PrecisionsCollapsed reports whether an errors' precision the fit
	// learned is at its cap.
	PrecisionsCollapsed() bool
	// SampledPrecisions returns the state of the shared priors (the tail
	// of Params after the worker rows) with the errors' precisions set to
	// the maximiser of their likelihood averaged over sets of counts, each
	// set drawn with every task's class from its row of probs (J×K) by a
	// generator seeded with seed, and the positions of the precisions in
	// the state.
	SampledPrecisions(probs []float64, seed uint64) (state []float64, at []int)
}

var _ PrecisionSampler = (*dsVB)(nil)

// precisionSets is the number of sets of counts SampledPrecisions draws.
const precisionSets = 16

// PrecisionsCollapsed reports whether, at K > 2 under DS.Averaged with the
// prior's pattern fixed (uniform errors; DS.WithFixedPattern), κ_o or κ_c
// is at its cap (atCap; PrecisionSampler). Around a learned pattern a
// precision at its cap holds the workers' errors to the crowd's, which the
// counts then support.
func (v *dsVB) PrecisionsCollapsed() bool {
	if v.mix == nil || v.beta != nil || v.e.k < 3 {
		return false
	}
	st := v.mix.State(nil, v.e.k, v.prior)
	n := len(st)
	return atCap(st[n-2]) || atCap(st[n-1])
}

// SampledPrecisions is the PrecisionSampler's method: κ_o = κ_c by
// dsmix.Mix.SampledPrecision, the rest of the state as it is.
func (v *dsVB) SampledPrecisions(probs []float64, seed uint64) ([]float64, []int) {
	k := v.e.k
	d := v.e.d
	st := v.mix.State(nil, k, v.prior)
	n := len(st)
	draw := func(s int, counts []int32) {
		rng := rand.New(rand.NewPCG(seed, uint64(s)))
		for j := range d.NumTasks() {
			z := num.Pick(rng, probs[j*k:(j+1)*k], 1)
			for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
				counts[(int(d.Worker[i])*k+z)*k+int(d.Label[i])]++
			}
		}
	}
	kap := v.mix.SampledPrecision(k, precisionSets, draw)
	st[n-2], st[n-1] = kap, kap
	return st, []int{n - 2, n - 1}
}
