package num

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPosteriorRows checks PosteriorRows against its scalar loop bit for
// bit (the counts, acc, the product, its exponent and the number of groups
// done) for K = 2 to 7, 20 and 21, on random groups (empty, short and
// long), tables with values that stop a group (tiny, above 1, negative,
// NaN), priors with a NaN, acc nil or not, products rescaled from below
// and from above, tables large enough for the rows to be prefetched, and
// labels beyond the groups' within the slices' capacity with workers
// outside the table (which the prefetch reads).
func TestPosteriorRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	var runs branches
	above := 0
	for _, k := range []int{2, 3, 4, 5, 6, 7, 20, 21} {
		for trial := range 150 {
			nw := 3 + rng.IntN(30)
			if trial%4 == 3 {
				nw = 32768/(k*k) + 1 + rng.IntN(50) // prefetched
			}
			tab := make([]float64, nw*k*k+rng.IntN(k)) // not always a whole number of rows
			for i := range tab {
				tab[i] = 0.3 + 0.7*rng.Float64()
				switch {
				case trial%6 == 1 && rng.IntN(10) == 0:
					tab[i] = 1e-80 // products below 2⁻²⁵⁶ after a few labels
				case trial%6 == 2 && rng.IntN(40) == 0:
					tab[i] = []float64{1.5, -0.25, math.NaN(), math.Inf(1), math.Copysign(0, -1)}[rng.IntN(5)]
				}
			}
			ends, worker, label := randomRowGroups(rng, k, nw)
			ng := len(ends)
			p := make([]float64, k)
			for z := range p {
				p[z] = rng.Float64()
			}
			if trial%11 == 5 {
				p[rng.IntN(k)] = math.NaN()
			}
			m0 := math.Ldexp(0.5+0.5*rng.Float64(), rng.IntN(500)-250)
			if trial%13 == 7 { // sums up to K take m above 2²⁵⁶
				for z := range p {
					p[z] = 1
				}
				for i := range tab {
					tab[i] = 1
				}
				m0 = 0x1p255
			}
			e0 := rng.IntN(100) - 50
			var acc, accRef []float64
			if trial%3 != 0 {
				acc = normals(rng, k)
				accRef = slices.Clone(acc)
			}
			gw := normals(rng, len(tab))
			gwRef := slices.Clone(gw)
			s, sRef := make([]float64, k), make([]float64, k)
			got, done := PosteriorRows(tab, gw, worker, label, ends, p, s, acc, Product{M: m0, E: e0})
			want, doneRef := posteriorRows(tab, gwRef, worker, label, ends, p, sRef, accRef, Product{M: m0, E: e0})
			name := fmt.Sprintf("K = %d, trial %d", k, trial)
			if done != doneRef || !sameBits(got.M, want.M) || got.E != want.E {
				t.Fatalf("%s: (%v, %d, %d groups), the scalar loop (%v, %d, %d)", name, got.M, got.E, done, want.M, want.E, doneRef)
			}
			sameSlices(t, trial, name+": gw", gw, gwRef)
			sameSlices(t, trial, name+": acc", acc, accRef)
			runs.count(done < ng, got.E != e0)
			if got.E > e0 && trial%13 == 7 {
				above++
			}
		}
	}
	runs.check(t, 50)
	if above < 5 {
		t.Errorf("%d trials rescaled from above: too few to test that branch", above)
	}
}

// TestPosteriorRowsPanics checks that a label whose row lies outside the
// table panics rather than reading beyond it, in PosteriorRows and
// RespRowsGroups, in the vector loops and the scalar ones.
func TestPosteriorRowsPanics(t *testing.T) {
	for _, k := range []int{3, 4, 20} {
		tab := make([]float64, 2*k*k)
		for i := range tab {
			tab[i] = 0.5
		}
		for _, w := range []int32{2, -1, 1 << 30} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("K = %d, worker %d of 2: no panic", k, w)
					}
				}()
				PosteriorRows(tab, make([]float64, len(tab)), []int32{0, w}, []uint16{0, 1}, []int{2}, make([]float64, k), make([]float64, k), nil, NewProduct())
			}()
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("RespRowsGroups, K = %d, worker %d of 2: no panic", k, w)
					}
				}()
				q := make([]float64, k)
				q[0] = 1
				RespRowsGroups(tab, make([]float64, len(tab)), []int32{0, w}, []uint16{0, 1}, []int{2}, q, make([]float64, k), make([]float64, 2*k), make([]float64, k), 1, 0)
			}()
		}
	}
}

// TestRespRowsGroups checks RespRowsGroups against its scalar loop bit for
// bit (the counts, the groups' gradients, the responsibilities of a group
// done last, the product, its scale and the number of groups done) for
// K = 2 to 7, 20 and 21, on random groups (empty, short and long),
// distributions and tables with values that stop a group (tiny, zero,
// NaN), products rescaled, tables large enough for the rows to be
// prefetched, and labels beyond the groups' within the slices' capacity
// with workers outside the table.
func TestRespRowsGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	var runs branches
	for _, k := range []int{2, 3, 4, 5, 6, 7, 20, 21} {
		for trial := range 150 {
			nw := 3 + rng.IntN(30)
			if trial%4 == 3 {
				nw = 32768/(k*k) + 1 + rng.IntN(50) // prefetched
			}
			tab := make([]float64, nw*k*k+rng.IntN(k))
			for i := range tab {
				tab[i] = rng.Float64()
				switch {
				case trial%6 == 1 && rng.IntN(30) == 0:
					tab[i] = 1e-300 // an m below 2⁻⁶⁰⁰ where q is small too
				case trial%6 == 2 && rng.IntN(60) == 0:
					tab[i] = []float64{math.NaN(), 0, 1e-200}[rng.IntN(3)]
				}
			}
			ends, worker, label := randomRowGroups(rng, k, nw)
			ng := len(ends)
			_, most := groupSpan(ends)
			q := make([]float64, ng*k)
			for i := range q {
				q[i] = rng.Float64()
				if trial%6 == 1 && rng.IntN(4) == 0 {
					q[i] = 1e-300
				}
			}
			prod0 := math.Ldexp(0.5+0.5*rng.Float64(), rng.IntN(500)-250)
			scale0 := rng.IntN(100) - 50
			gw, gb := normals(rng, len(tab)), normals(rng, ng*k)
			gwRef, gbRef := slices.Clone(gw), slices.Clone(gb)
			r, rRef := make([]float64, most*k+1), make([]float64, most*k+1)
			acc, accRef := make([]float64, k), make([]float64, k)
			prod, scale, done := RespRowsGroups(tab, gw, worker, label, ends, q, gb, r, acc, prod0, scale0)
			prodRef, scaleRef, doneRef := respRowsGroups(tab, gwRef, worker, label, ends, q, gbRef, rRef, accRef, prod0, scale0)
			name := fmt.Sprintf("K = %d, trial %d", k, trial)
			if done != doneRef || !sameBits(prod, prodRef) || scale != scaleRef {
				t.Fatalf("%s: (%v, %d, %d groups), the scalar loop (%v, %d, %d)", name, prod, scale, done, prodRef, scaleRef, doneRef)
			}
			sameSlices(t, trial, name+": gw", gw, gwRef)
			sameSlices(t, trial, name+": gb", gb, gbRef)
			if done == ng && ng > 0 && ends[ng-1] > 0 { // the last group's ρ and sums
				last := ends[ng-1]
				if ng > 1 {
					last -= ends[ng-2]
				}
				sameSlices(t, trial, name+": r", r[:last*k], rRef[:last*k])
				sameSlices(t, trial, name+": acc", acc, accRef)
			}
			runs.count(done < ng, scale != scale0)
		}
	}
	runs.check(t, 50)
}

// TestRespRowsGroupsMatchesRows checks that RespRowsGroups gives what
// RespRows and AddRowsEach give for the same objects taken one at a time,
// with the checks and sums of the latent distribution assumption's table
// path in between: the kernel is that path's loop.
func TestRespRowsGroupsMatchesRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	for _, k := range []int{4, 6, 20} {
		nw := 40
		tab := make([]float64, nw*k*k)
		for i := range tab {
			tab[i] = 0.05 + 0.95*rng.Float64()
		}
		const ng = 50
		q := make([]float64, ng*k)
		for i := range q {
			q[i] = rng.Float64()
		}
		var ends []int
		var worker []int32
		var label []uint16
		for range ng {
			for range rng.IntN(9) {
				worker = append(worker, int32(rng.IntN(nw)))
				label = append(label, uint16(rng.IntN(k)))
			}
			ends = append(ends, len(worker))
		}
		gw, gwRef := make([]float64, len(tab)), make([]float64, len(tab))
		gb, gbRef := make([]float64, ng*k), make([]float64, ng*k)
		r := make([]float64, 8*k)
		prod, scale, done := RespRowsGroups(tab, gw, worker, label, ends, q, gb, r, make([]float64, k), 1, 0)
		if done != ng {
			t.Fatalf("K = %d: %d groups of %d done", k, done, ng)
		}
		prodRef, scaleRef := 1.0, 0
		acc := make([]float64, k)
		start := 0
		for j, end := range ends {
			var rows []int
			for i := start; i < end; i++ {
				rows = append(rows, (int(worker[i])*k+int(label[i]))*k)
			}
			n := len(rows)
			rr, m := make([]float64, n*k), make([]float64, n)
			qj := q[j*k : (j+1)*k]
			RespRows(rr, qj, tab, rows, m)
			for _, mi := range m {
				prodRef *= mi
				if prodRef < 0x1p-256 {
					var ex int
					prodRef, ex = math.Frexp(prodRef)
					scaleRef += ex
				}
			}
			clear(acc)
			AddRowsEach(gwRef, rows, rr, k, acc)
			for z, qz := range qj {
				gbRef[j*k+z] += acc[z] - float64(n)*qz
			}
			start = end
		}
		if !sameBits(prod, prodRef) || scale != scaleRef {
			t.Errorf("K = %d: product (%v, %d), rows one at a time (%v, %d)", k, prod, scale, prodRef, scaleRef)
		}
		sameSlices(t, k, "gw", gw, gwRef)
		sameSlices(t, k, "gb", gb, gbRef)
	}
}

// randomRowGroups returns 1 to 40 groups of labels of k classes by
// workers drawn from nw: empty, short and long groups. Beyond the labels,
// within the slices' capacity, come labels that the kernels' prefetches
// read, workers outside the table among them (see randomLabels).
func randomRowGroups(rng *rand.Rand, k, nw int) (ends []int, worker []int32, label []uint16) {
	ends = make([]int, 1+rng.IntN(40))
	n := 0
	for j := range ends {
		switch rng.IntN(8) {
		case 0: // empty
		case 1:
			n += 30 + rng.IntN(200)
		default:
			n += 1 + rng.IntN(7)
		}
		ends[j] = n
	}
	extra := rng.IntN(40)
	worker = make([]int32, n+extra)
	label = make([]uint16, n+extra)
	for i := range worker {
		worker[i] = int32(rng.IntN(nw))
		label[i] = uint16(rng.IntN(k))
		if i >= n && rng.IntN(4) == 0 {
			worker[i] = []int32{-1 << 31, -7, int32(nw), 1<<31 - 1}[rng.IntN(4)]
		}
	}
	return ends, worker[:n], label[:n]
}
