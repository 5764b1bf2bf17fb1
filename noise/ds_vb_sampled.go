package noise

import (
	"math/rand/v2"

	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/noise/internal/dsmix"
)

// PrecisionSampler is an optional interface of a Variational posterior
// whose workers' priors (the one-coin and per-class kinds' of DS.Averaged
// at K > 2: their errors' precisions and their accuracies' Beta priors)
// are learned from expected counts, which can run them to their caps
// where tasks have few labels: a label's expected errors spread over every
// class its task might be and look alike across workers, and a label is
// credited with agreeing with its task's posterior, which it shaped.
type PrecisionSampler interface {
	// PrecisionsCollapsed reports whether an errors' precision the fit
	// learned is at its cap, under the fixed pattern of errors.
	PrecisionsCollapsed() bool
	// BetasCollapsed reports whether a Beta prior's concentration the
	// fit learned is at its cap.
	BetasCollapsed() bool
	// SampledPrecisions returns the state of the shared priors (the tail
	// of Params after the worker rows) with, if kap, the errors'
	// precisions set to the maximiser of their likelihood averaged over
	// sets of counts, each set drawn with every task's class from its row
	// of probs (the cavity posteriors, J×K) by a generator seeded with
	// seed; and, if betas, the Beta priors set by cavity empirical Bayes,
	// each label's class from its task's posterior post (J×K) without the
	// label. It also returns the positions in the state of the precisions
	// and of the values to hold with the Beta priors (the kinds' shares
	// and the priors).
	SampledPrecisions(post, probs []float64, seed uint64, kap, betas bool) (state []float64, kapAt, betaAt []int)
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
	st := v.mixState(nil)
	n := len(st)
	return atCap(st[n-dsmix.TailKapO]) || atCap(st[n-dsmix.TailKapC])
}

// BetasCollapsed reports whether, at K > 2 under DS.Averaged, a + b or
// a_c + b_c is at its cap (atCap; PrecisionSampler).
func (v *dsVB) BetasCollapsed() bool {
	if v.mix == nil || v.e.k < 3 {
		return false
	}
	st := v.mixState(nil)
	n := len(st)
	return atCap(st[n-dsmix.TailA]+st[n-dsmix.TailB]) || atCap(st[n-dsmix.TailAC]+st[n-dsmix.TailBC])
}

// SampledPrecisions is the PrecisionSampler's method: κ_o = κ_c by
// dsmix.Mix.SampledPrecision and the Beta priors by dsmix.Mix.CavityBetas
// of the labels' cavity pairs (dsmix.CavityPairs), the rest of the state as it
// is. With the Beta priors the kinds' shares ρ and ρ_c are held too: the
// priors are each kind's, for its workers.
func (v *dsVB) SampledPrecisions(post, probs []float64, seed uint64, kap, betas bool) (st []float64, kapAt, betaAt []int) {
	k := v.e.k
	d := v.e.d
	st = v.mixState(nil)
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
	if kap {
		kp := v.mix.SampledPrecision(k, precisionSets, draw)
		kapAt = []int{n - dsmix.TailKapO, n - dsmix.TailKapC}
		st[kapAt[0]], st[kapAt[1]] = kp, kp
	}
	if betas {
		a, b, ac, bc := v.mix.CavityBetas(dsmix.CavityPairs(v.e.d, k, post, probs, v.mix.Pattern(), v.CavityProbs))
		st[n-dsmix.TailA], st[n-dsmix.TailB], st[n-dsmix.TailAC], st[n-dsmix.TailBC] = a, b, ac, bc
		betaAt = []int{n - dsmix.TailRho, n - dsmix.TailA, n - dsmix.TailB, n - dsmix.TailRhoC, n - dsmix.TailAC, n - dsmix.TailBC}
	}
	return st, kapAt, betaAt
}
