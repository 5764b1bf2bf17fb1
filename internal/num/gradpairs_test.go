package num

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSigmoidGradPairs checks SigmoidGradPairs and SigmoidGradPairsShared
// against their scalar loops bit for bit (the workers' and the groups'
// gradients) on random groups, empty and long ones among them, whose
// offsets start anywhere, with labels whose class has bits beyond the
// lowest. TestPairsPanics checks their refusals.
func TestSigmoidGradPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const nw = 41
	for trial := range 300 {
		ends, _, _ := randomGroups(rng, false)
		base := rng.IntN(1000)
		off := append([]int{base}, ends...)
		for j := 1; j < len(off); j++ {
			off[j] += base
		}
		n := ends[len(ends)-1]
		worker, label := randomLabels(rng, n, nw)
		for i := range label {
			label[i] += 2 * uint16(rng.IntN(3)) // only the lowest bit counts
		}
		p, g := make([]float64, 2*n), normals(rng, 2*n)
		for i := range n {
			p[2*i] = rng.Float64()
			p[2*i+1] = 1 - p[2*i]
		}
		e, d := normals(rng, nw), make([]float64, len(ends))
		for j := range d {
			d[j] = rng.ExpFloat64()
		}
		for _, c := range []struct {
			name      string
			f, scalar func(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64)
			g         []float64
		}{
			{"", SigmoidGradPairs, sigmoidGradPairs, g},
			{"shared ", SigmoidGradPairsShared, sigmoidGradPairsShared, normals(rng, 2*len(ends))},
		} {
			g := c.g
			gw, gobj := normals(rng, nw), normals(rng, len(ends))
			gwRef, gobjRef := slices.Clone(gw), slices.Clone(gobj)
			c.f(worker, label, off, p, g, e, d, gw, gobj)
			c.scalar(worker, label, off, p, g, e, d, gwRef, gobjRef)
			sameSlices(t, trial, c.name+"gw", gw, gwRef)
			sameSlices(t, trial, c.name+"gobj", gobj, gobjRef)
		}
	}
}

// BenchmarkSigmoidGradPairs times SigmoidGradPairs, SigmoidGradPairsShared
// and their scalar loops on
// groups of 5 labels by 1,000 workers: ns/label.
func BenchmarkSigmoidGradPairs(b *testing.B) {
	rng := rand.New(rand.NewPCG(33, 34))
	const groups, per, nw = 256 / 5, 5, 1000
	n := groups * per
	off := make([]int, groups+1)
	for j := range off {
		off[j] = j * per
	}
	worker, label := randomLabels(rng, n, nw)
	p, g, e, d := normals(rng, 2*n), normals(rng, 2*n), normals(rng, nw), normals(rng, groups)
	gw, gobj := make([]float64, nw), make([]float64, groups)
	for _, c := range []struct {
		name string
		f    func(worker []int32, label []uint16, off []int, p, g, e, d, gw, gobj []float64)
	}{
		{"SigmoidGradPairs", SigmoidGradPairs}, {"sigmoidGradPairs", sigmoidGradPairs},
		{"SigmoidGradPairsShared", SigmoidGradPairsShared}, {"sigmoidGradPairsShared", sigmoidGradPairsShared},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.f(worker, label, off, p, g, e, d, gw, gobj)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/label")
		})
	}
}
