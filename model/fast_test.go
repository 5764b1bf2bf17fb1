package model

import (
	"math"
	"testing"

	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
)

// TestProbPathUsed checks that the models the benchmarks target take the
// fast path.
func TestProbPathUsed(t *testing.T) {
	d := noisetest.Data(t, 1, 10, 3, 2)
	for _, m := range []Model{
		{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}},
		{Noise: noise.DS{}, Latent: latent.DA{}},
		{Noise: noise.GLAD{}, Latent: latent.LA{}},
		{Noise: noise.GLAD{}, Latent: latent.DA{}},
	} {
		if newObjective(m, d, 1).pnoise == nil {
			t.Errorf("%s: no probability-space path", m.Name())
		}
	}
}

// TestAccumulatorsFreed checks that a pass after freeAccumulators (which
// a fit calls before its output) allocates them again and gives the
// same value and gradient, bit for bit, as before.
func TestAccumulatorsFreed(t *testing.T) {
	d := noisetest.Data(t, 2, 40, 6, 3)
	for _, m := range []Model{
		{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}},
		{Noise: noise.DS{}, Latent: latent.DA{}},
		{Noise: noise.GLAD{}, Latent: latent.LA{}},
		{Noise: noise.MME{}, Latent: latent.DA{}},
	} {
		o := newObjective(m, d, 2)
		x := m.Init(d)
		g1 := make([]float64, len(x))
		v1 := o.eval(x, g1)
		o.freeAccumulators()
		if o.chunks[0].gw != nil {
			t.Fatalf("%s: accumulators kept", m.Name())
		}
		g2 := make([]float64, len(x))
		v2 := o.eval(x, g2)
		if math.Float64bits(v1) != math.Float64bits(v2) {
			t.Errorf("%s: value %v after freeing, %v before", m.Name(), v2, v1)
		}
		for i := range g1 {
			if math.Float64bits(g1[i]) != math.Float64bits(g2[i]) {
				t.Errorf("%s: gradient %d is %v after freeing, %v before", m.Name(), i, g2[i], g1[i])
				break
			}
		}
	}
}

// TestPassAllocations checks that a pass allocates a bounded number of
// times whatever the number of objects: a buffer allocated per object or
// batch (a scratch slice that escapes to the heap) would let the garbage
// grow a large fit's peak memory to twice its live memory. It evaluates
// every DS and GLAD model at K = 2, 3, 6 and 20 on 3000 objects, on one
// goroutine.
func TestPassAllocations(t *testing.T) {
	for _, k := range []int{2, 3, 6, 20} {
		d := noisetest.Data(t, uint64(30+k), 3000, 40, k)
		for _, m := range benchModels() {
			if m.Noise.Name() == "mme" {
				continue
			}
			obj := newObjective(m, d, 1)
			x := m.Init(d)
			grad := make([]float64, len(x))
			obj.eval(x, grad) // the accumulators come with the first pass
			if n := testing.AllocsPerRun(3, func() { obj.eval(x, grad) }); n > 16 {
				t.Errorf("%s, K = %d: %v allocations a pass on %d objects", m.Name(), k, n, d.NumTasks())
			}
		}
	}
}
