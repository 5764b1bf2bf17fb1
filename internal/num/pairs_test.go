package num

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRespPairs checks RespPairs against its scalar loop bit for bit (the
// counts, the groups' sums, the product, its scale and the number of
// groups done, the groups' gradients) on random tables and groups: empty
// groups, long groups whose product is rescaled many times, priors at 0, 1
// and ½, and groups that stop the loop (a label with m below 2⁻⁶⁰⁰, a NaN
// logit) at every position.
func TestRespPairs(t *testing.T) {
	t.Logf("vector loop: %v", Vectorised())
	rng := rand.New(rand.NewPCG(23, 24))
	var runs branches
	for trial := range 400 {
		nw := 37
		if trial%4 == 3 {
			nw = 9000 // a table large enough for the rows to be prefetched
		}
		tab := make([]float64, 4*nw)
		for i := range tab {
			tab[i] = rng.Float64()
			if trial%5 == 1 && rng.IntN(8) == 0 {
				tab[i] = 1e-200 // with another like it, m < 2⁻⁶⁰⁰
			}
		}
		ends, b, ex := randomGroups(rng, trial%7 == 3)
		ng, n := len(ends), ends[len(ends)-1]
		worker, label := randomLabels(rng, n, nw)
		_, most := groupSpan(ends)
		prod0, scale0 := rng.Float64(), rng.IntN(100)-50
		gw, gb := normals(rng, len(tab)), normals(rng, 2*ng)
		gwRef, gbRef := slices.Clone(gw), slices.Clone(gb)
		r, rRef := make([]float64, 2*most), make([]float64, 2*most)
		p, e, done := RespPairs(tab, gw, worker, label, ends, b, ex, gb, r, prod0, scale0)
		pRef, eRef, doneRef := respPairs(tab, gwRef, worker, label, ends, b, ex, gbRef, rRef, prod0, scale0)
		sameRun(t, trial, p, e, done, pRef, eRef, doneRef)
		sameSlices(t, trial, "gw", gw, gwRef)
		sameSlices(t, trial, "gb", gb, gbRef)
		runs.count(done < ng, e != scale0)
	}
	runs.check(t, 20)
}

// TestPosteriorPairs checks PosteriorPairs against its scalar loop bit for
// bit (the counts, acc, the product m·2^e and the number of groups done)
// on random tables and groups: empty groups, products rescaled from below
// and above, and groups that stop the loop (a product below 2⁻²⁵⁶ or NaN,
// a sum above 2, a NaN prior) at every position.
func TestPosteriorPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	var runs branches
	above := 0
	for trial := range 600 {
		tab, ends, worker, label := pairsGroups(rng, trial)
		ng := len(ends)
		p0 := rng.Float64()
		p1 := 1 - p0
		if trial%11 == 5 {
			p0 = math.NaN()
		}
		m0 := math.Ldexp(0.5+0.5*rng.Float64(), rng.IntN(500)-250)
		if trial%13 == 7 { // sums near 2 take m above 2²⁵⁶
			p0, p1, m0 = 1, 1, 0x1p255
		}
		e0 := rng.IntN(100) - 50
		gw, acc := normals(rng, len(tab)), normals(rng, 2)
		gwRef, accRef := slices.Clone(gw), slices.Clone(acc)
		got, done := PosteriorPairs(tab, gw, worker, label, ends, p0, p1, acc, Product{M: m0, E: e0})
		want, doneRef := posteriorPairs(tab, gwRef, worker, label, ends, p0, p1, accRef, Product{M: m0, E: e0})
		e := got.E
		sameRun(t, trial, got.M, e, done, want.M, want.E, doneRef)
		sameSlices(t, trial, "gw", gw, gwRef)
		sameSlices(t, trial, "acc", acc, accRef)
		runs.count(done < ng, e != e0)
		if e != e0 && trial%13 == 7 {
			above++
		}
	}
	runs.check(t, 50)
	if above < 10 {
		t.Errorf("%d trials rescaled from above: too few to test that branch", above)
	}
}

// pairsGroups returns a random table of two-class rows and groups of
// labels on it for trial: empty groups, large ones, and on some trials
// rows that stop PosteriorPairs' loop (products below 2⁻²⁵⁶ after a few
// labels, a sum above 2) and tables large enough to be prefetched.
func pairsGroups(rng *rand.Rand, trial int) (tab []float64, ends []int, worker []int32, label []uint16) {
	nw := 29
	if trial%4 == 3 {
		nw = 9000
	}
	tab = make([]float64, 4*nw)
	for i := range tab {
		tab[i] = 0.3 + 0.7*rng.Float64()
		switch {
		case trial%5 == 1 && rng.IntN(10) == 0:
			tab[i] = 1e-80
		case trial%5 == 2 && rng.IntN(20) == 0:
			tab[i] = 3
		}
	}
	ends = make([]int, 1+rng.IntN(60))
	n := 0
	for j := range ends {
		switch rng.IntN(8) {
		case 0: // empty
		case 1:
			n += 50 + rng.IntN(300)
		default:
			n += 1 + rng.IntN(7)
		}
		ends[j] = n
	}
	worker, label = randomLabels(rng, n, nw)
	return tab, ends, worker, label
}

// TestRespPairsBatch checks RespPairsBatch against its scalar loop bit for
// bit (the responsibilities of the groups done, the groups' gradients, the
// product, its scale and the number of groups done) on random groups, as
// TestRespPairs does for RespPairs.
func TestRespPairsBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	var runs branches
	for trial := range 400 {
		ends, b, ex := randomGroups(rng, trial%7 == 3)
		ng, n := len(ends), ends[len(ends)-1]
		p := make([]float64, 2*n)
		for i := range p {
			p[i] = rng.Float64()
			if trial%5 == 1 && rng.IntN(8) == 0 {
				p[i] = 1e-200
			}
		}
		gb := normals(rng, 2*ng)
		prod0, scale0 := rng.Float64(), rng.IntN(100)-50
		g, gRef := make([]float64, 2*n), make([]float64, 2*n)
		gbRef := slices.Clone(gb)
		pr, e, done := RespPairsBatch(p, g, ends, b, ex, gb, prod0, scale0)
		prRef, eRef, doneRef := respPairsBatch(p, gRef, ends, b, ex, gbRef, prod0, scale0)
		sameRun(t, trial, pr, e, done, prRef, eRef, doneRef)
		last := 0
		if done > 0 {
			last = ends[done-1]
		}
		sameSlices(t, trial, "g", g[:2*last], gRef[:2*last])
		sameSlices(t, trial, "gb", gb, gbRef)
		runs.count(done < ng, e != scale0)
	}
	runs.check(t, 20)
}

// TestPairsPanics checks that the two-class loops refuse groups whose ends
// decrease, slices too short for their groups and workers outside their
// tables, rather than read or write past them.
func TestPairsPanics(t *testing.T) {
	tab := []float64{0.9, 0.1, 0.1, 0.9}
	tab2 := []float64{0.9, 0.1, 0.1, 0.9, 0.8, 0.2, 0.2, 0.8} // two workers
	w, y := []int32{0, 0, 0}, []uint16{0, 1, 0}
	two, four := make([]float64, 2), make([]float64, 4)
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"RespPairs, a worker outside the table", func() {
			RespPairs(tab2, make([]float64, 8), []int32{0, 2}, []uint16{0, 1}, []int{2}, []float64{0, 0}, []float64{1}, make([]float64, 2), make([]float64, 4), 1, 0)
		}},
		{"PosteriorPairs, a worker outside the table", func() {
			PosteriorPairs(tab2, make([]float64, 8), []int32{0, 2}, []uint16{0, 1}, []int{2}, 0.5, 0.5, make([]float64, 2), NewProduct())
		}},
		{"RespPairs, ends decreasing", func() {
			RespPairs(tab, four, w, y, []int{2, 1}, four, two, four, four, 1, 0)
		}},
		{"RespPairs, scratch too short", func() {
			RespPairs(tab, four, w, y, []int{3}, two, two[:1], two, four, 1, 0)
		}},
		{"PosteriorPairs, ends decreasing", func() {
			PosteriorPairs(tab, four, w, y, []int{2, 1}, 0.5, 0.5, two, NewProduct())
		}},
		{"PosteriorPairs, labels too few", func() {
			PosteriorPairs(tab, four, w, y[:2], []int{3}, 0.5, 0.5, two, NewProduct())
		}},
		{"RespPairsBatch, ends decreasing", func() {
			RespPairsBatch(make([]float64, 6), make([]float64, 6), []int{2, 1}, four, two, four, 1, 0)
		}},
		{"RespPairsBatch, weights too short", func() {
			RespPairsBatch(make([]float64, 6), four, []int{3}, two, two[:1], two, 1, 0)
		}},
		{"SigmoidGradPairs, a worker outside e", func() {
			SigmoidGradPairs([]int32{0, 3}, []uint16{0, 1}, []int{0, 2}, make([]float64, 4), make([]float64, 4), make([]float64, 3), []float64{1}, make([]float64, 3), make([]float64, 1))
		}},
		{"SigmoidGradPairs, a negative worker", func() {
			SigmoidGradPairs([]int32{-1}, []uint16{0}, []int{5, 6}, make([]float64, 2), make([]float64, 2), make([]float64, 3), []float64{1}, make([]float64, 3), make([]float64, 1))
		}},
		{"SigmoidGradPairs, offsets that decrease", func() {
			SigmoidGradPairs([]int32{0, 0}, []uint16{0, 1}, []int{0, 2, 1}, make([]float64, 4), make([]float64, 4), make([]float64, 3), []float64{1, 1}, make([]float64, 3), make([]float64, 2))
		}},
		{"SigmoidGradPairsShared, a worker outside e", func() {
			SigmoidGradPairsShared([]int32{0, 3}, []uint16{0, 1}, []int{0, 2}, make([]float64, 4), make([]float64, 2), make([]float64, 3), []float64{1}, make([]float64, 3), make([]float64, 1))
		}},
		{"SigmoidGradPairsShared, too few weights", func() {
			SigmoidGradPairsShared([]int32{0, 0}, []uint16{0, 1}, []int{0, 1, 2}, make([]float64, 4), make([]float64, 2), make([]float64, 3), []float64{1, 1}, make([]float64, 3), make([]float64, 2))
		}},
		{"SigmoidGradPairs, too few labels", func() {
			SigmoidGradPairs([]int32{0}, []uint16{0}, []int{0, 2}, make([]float64, 4), make([]float64, 4), make([]float64, 3), []float64{1}, make([]float64, 3), make([]float64, 1))
		}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			c.f()
		}()
	}
}

// randomGroups returns the ends of 1 to 40 random groups of labels (empty
// ones, long ones whose products are rescaled, and short ones), and their
// logits and e^-|d_j| for RespPairs: priors at 0, 1 and ½ among them, and
// with nan a NaN logit now and then.
func randomGroups(rng *rand.Rand, nan bool) (ends []int, b, ex []float64) {
	ng := 1 + rng.IntN(40)
	ends = make([]int, ng)
	b = make([]float64, 2*ng)
	ex = make([]float64, ng)
	n := 0
	for j := range ends {
		switch rng.IntN(6) {
		case 0: // empty
		case 1:
			n += 100 + rng.IntN(400) // rescaled
		default:
			n += 1 + rng.IntN(7)
		}
		ends[j] = n
		b[2*j], b[2*j+1] = rng.NormFloat64(), 3*rng.NormFloat64()
		switch rng.IntN(10) {
		case 0:
			b[2*j+1] = 800 // q_j = (0, 1)
		case 1:
			b[2*j+1] = -800 // (1, 0)
		case 2:
			b[2*j+1] = b[2*j] // d = 0
		case 3:
			if nan {
				b[2*j] = math.NaN()
			}
		}
		ex[j] = math.Exp(-math.Abs(b[2*j+1] - b[2*j]))
	}
	return ends, b, ex
}

// branches counts the trials of a loop's test that stopped early and that
// rescaled the product, the branches random data must reach.
type branches struct{ stopped, rescaled int }

// count adds a trial that stopped early and/or rescaled.
func (b *branches) count(stopped, rescaled bool) {
	if stopped {
		b.stopped++
	}
	if rescaled {
		b.rescaled++
	}
}

// check fails the test unless at least least trials took each branch.
func (b *branches) check(t *testing.T, least int) {
	t.Helper()
	if b.stopped < least || b.rescaled < least {
		t.Errorf("%d trials stopped early and %d rescaled: too few to test those branches", b.stopped, b.rescaled)
	}
}

// sameRun fails the test unless a loop's product p·2^e and number of
// groups done are its scalar loop's, bit for bit.
func sameRun(t *testing.T, trial int, p float64, e, done int, pRef float64, eRef, doneRef int) {
	t.Helper()
	if done != doneRef || !sameBits(p, pRef) || e != eRef {
		t.Fatalf("trial %d: (%v, %d, %d groups), the scalar loop (%v, %d, %d)", trial, p, e, done, pRef, eRef, doneRef)
	}
}

// sameSlices fails the test unless got and want are the same bit for bit.
func sameSlices(t *testing.T, trial int, name string, got, want []float64) {
	t.Helper()
	for i := range want {
		if !sameBits(got[i], want[i]) {
			t.Fatalf("trial %d: %s[%d] = %v, the scalar loop %v", trial, name, i, got[i], want[i])
		}
	}
}

// normals returns n standard normal deviates.
func normals(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x
}

// randomLabels returns n labels of two classes by workers drawn from nw.
func randomLabels(rng *rand.Rand, n, nw int) ([]int32, []uint16) {
	// Beyond n, within the slices' capacity, as when a kernel is given a
	// block of the data set's labels, come labels that the prefetches of
	// the vector loops read: workers outside the table among them, whose
	// rows' addresses lie outside it.
	extra := rng.IntN(40)
	worker := make([]int32, n+extra)
	label := make([]uint16, n+extra)
	for i := range worker {
		worker[i] = int32(rng.IntN(nw))
		label[i] = uint16(rng.IntN(2))
		if i >= n && rng.IntN(4) == 0 {
			worker[i] = []int32{-1 << 31, -7, int32(nw), 1<<31 - 1}[rng.IntN(4)]
		}
	}
	return worker[:n], label[:n]
}
