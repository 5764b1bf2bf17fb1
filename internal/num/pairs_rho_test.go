package num

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPosteriorPairsRho checks PosteriorPairsRho against its scalar loop
// bit for bit (the counts, the posteriors, their sums, the change, the
// product m·2^e and the number of groups done) on the random tables and
// groups of TestPosteriorPairs (pairsGroups), with previous posteriors
// that are NaN now and then (a group that stops the loop) and the groups
// given by offsets from a first label of 0 to 9, and that its groups'
// counts and product are PosteriorPairs'.
func TestPosteriorPairsRho(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	var runs branches
	for trial := range 600 {
		tab, ends, worker, label := pairsGroups(rng, trial)
		ng := len(ends)
		p0 := rng.Float64()
		p1 := 1 - p0
		m0 := math.Ldexp(0.5+0.5*rng.Float64(), rng.IntN(500)-250)
		e0 := rng.IntN(100) - 50
		rho := make([]float64, 2*ng)
		for i := range rho {
			rho[i] = rng.Float64()
			if trial%7 == 3 && rng.IntN(30) == 0 {
				rho[i] = math.NaN()
			}
		}
		gw, sums := normals(rng, len(tab)), normals(rng, 2)
		change := rng.Float64() / 4
		gwRef, sumsRef, rhoRef := slices.Clone(gw), slices.Clone(sums), slices.Clone(rho)
		gwPairs := slices.Clone(gw)
		// The groups after `first` labels of no group, by their offsets.
		first := rng.IntN(10)
		off := []int{first}
		for _, e := range ends {
			off = append(off, first+e)
		}
		allW := append(make([]int32, first), worker...)
		allL := append(make([]uint16, first), label...)
		got, c, done := PosteriorPairsRho(tab, gw, allW, allL, off, p0, p1, rho, sums, change, Product{M: m0, E: e0})
		want, cRef, doneRef := posteriorPairsRho(tab, gwRef, allW, allL, off, p0, p1, rhoRef, sumsRef, change, Product{M: m0, E: e0})
		sameRun(t, trial, got.M, got.E, done, want.M, want.E, doneRef)
		sameSlices(t, trial, "gw", gw, gwRef)
		sameSlices(t, trial, "rho", rho, rhoRef)
		sameSlices(t, trial, "sums", sums, sumsRef)
		sameSlices(t, trial, "change", []float64{c}, []float64{cRef})
		// The groups done are PosteriorPairs' groups.
		pp, donePairs := PosteriorPairs(tab, gwPairs, worker, label, ends[:done], p0, p1, make([]float64, 2), Product{M: m0, E: e0})
		sameRun(t, trial, got.M, got.E, done, pp.M, pp.E, donePairs)
		sameSlices(t, trial, "gw (PosteriorPairs)", gw, gwPairs)
		runs.count(done < ng, got.E != e0)
	}
	runs.check(t, 50)
}
