package noise

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUpdateHeldState checks Update of the default's posterior (a shared
// prior, the kinds averaged) at K = 2 with every value of its averaged
// state held, as in the refit under the cavity priors: the state after
// Update is the held one exactly, the workers' pseudo-counts follow the
// counts, and stateHeld tells a wholly held state from a partly held one.
// (For K > 2 Weights refits the kinds' shares from the evidences in either
// path.)
func TestUpdateHeldState(t *testing.T) {
	for _, k := range []int{2} {
		d := vbData(t, 30, k, uint64(k))
		m := DS{SharedPrior: true, Averaged: true}
		rng := rand.New(rand.NewPCG(uint64(k), 9))
		acc := func() []float64 {
			a := make([]float64, d.NumWorkers()*k*k)
			for i := range a {
				a[i] = 10 * rng.Float64()
			}
			return a
		}
		first, second := acc(), acc()
		// held returns a posterior after one learning Update on first,
		// its state moved off what it learned and held, all of it or all
		// but its last value.
		held := func(all bool) (*dsVB, []float64) {
			v := m.NewVariational(d).(*dsVB)
			v.Start(d.FrequencyWeights())
			v.Update(first)
			p := v.Params(nil)
			at := len(v.lam)
			for i := at; i < len(p); i++ {
				p[i] *= 0.9
			}
			v.Load(p)
			fixed := make([]bool, len(p))
			for i := at; i < len(p); i++ {
				fixed[i] = all || i < len(p)-1
			}
			v.Hold(fixed)
			return v, v.Params(nil)[at:] // as loaded, within the state's bounds
		}
		v, st := held(true)
		before := v.Params(nil)[:len(v.lam)]
		v.Update(second)
		got := v.Params(nil)
		if !slices.Equal(got[len(v.lam):], st) {
			t.Errorf("K = %d: state %v after Update, want the held %v", k, got[len(v.lam):], st)
		}
		if slices.Equal(got[:len(v.lam)], before) {
			t.Errorf("K = %d: the workers' pseudo-counts did not follow the counts", k)
		}
		if !v.stateHeld() {
			t.Errorf("K = %d: stateHeld false with every value held", k)
		}
		w, _ := held(false)
		if w.stateHeld() {
			t.Errorf("K = %d: stateHeld true with the last value free", k)
		}
	}
}
