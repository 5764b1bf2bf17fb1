package hda

import (
	"math"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/fitting"
)

// maxStates bounds the number of count vectors of one object's polynomial
// (see polySet); an object with more, or with more than maxPolyLabels
// labels, is left out of the marginal likelihood and keeps its MAP output.
const maxStates = 50000

// maxPolyLabels is the largest number of labels of an object in the
// marginal likelihood.
const maxPolyLabels = 255

// maxCoefficients bounds the coefficients of all the objects' polynomials
// together (2²⁵ numbers, 256 MiB): beyond it, the objects with the most
// labels are left out (see newPolySet). A variable for the tests.
var maxCoefficients = 1 << 25

// stateTable lists the count vectors c = (c_0, …, c_{K-1}) of subjective
// classes up to a number of labels nmax in graded order: a vector is
// stored as v = (c_1, …, c_{K-1}), with c_0 = n - Σv left implicit, and the
// vectors with Σv = 0 come first, then those with Σv = 1, and so on. The
// count vectors of n labels are then the first size[n] entries, the same
// entries for every n' ≥ n, so that adding a label of class z ≥ 1 to the
// vector at index s leads to the fixed index inc[s·(K-1) + z - 1], always
// above s, and adding one of class 0 leaves the index as it is.
type stateTable struct {
	k    int
	size []int   // size[n] = C(n + K - 1, K - 1)
	v    []uint8 // K - 1 per state
	sum  []int   // Σv per state
	inc  []int32 // K - 1 per state with sum < nmax; -1 beyond
}

// newStateTable returns the table of K classes up to nmax labels.
func newStateTable(k, nmax int) *stateTable {
	t := &stateTable{k: k, size: make([]int, nmax+1)}
	d := k - 1
	idx := map[string]int32{}
	cur := make([]uint8, d)
	// Enumerate the vectors of every sum s in lexicographic order.
	var rec func(i, left, s int)
	rec = func(i, left, s int) {
		if i == d-1 || d == 0 {
			if d > 0 {
				cur[i] = uint8(left)
			} else if left > 0 {
				return
			}
			idx[string(cur)] = int32(len(t.sum))
			t.v = append(t.v, cur...)
			t.sum = append(t.sum, s)
			return
		}
		for c := left; c >= 0; c-- {
			cur[i] = uint8(c)
			rec(i+1, left-c, s)
		}
	}
	for s := 0; s <= nmax; s++ {
		if d > 0 || s == 0 {
			rec(0, s, s)
		}
		t.size[s] = len(t.sum)
	}
	t.inc = make([]int32, len(t.sum)*d)
	key := make([]uint8, d)
	for st := range t.sum {
		for z := range d {
			if t.sum[st] == nmax {
				t.inc[st*d+z] = -1
				continue
			}
			copy(key, t.v[st*d:(st+1)*d])
			key[z]++
			t.inc[st*d+z] = idx[string(key)]
		}
	}
	if d == 0 {
		// One class: the single vector (n); never used by a fit.
		for n := range t.size {
			t.size[n] = 1
		}
	}
	return t
}

// polySet holds every object's likelihood as a polynomial in its
// distribution q:
//
//	Π_{i ∈ j} Σ_z q(z) P(y_i | z) = Σ_c A_j(c) Π_z q(z)^{c(z)},
//
// summed over the count vectors c of subjective classes (Σ_z c(z) = n_j).
// The coefficients do not depend on the prior, so the marginal likelihood
// under Dirichlet(a), a = α p,
//
//	∫ Dir(q | a) Σ_c A_j(c) Π_z q(z)^{c(z)} dq = Σ_c A_j(c) [Γ(α)/Γ(α + n_j)] Π_z Γ(a_z + c(z))/Γ(a_z),
//
// and the posterior mean of q, E[q(z) | labels] = Σ_c w_j(c) (a_z + c(z))/(α + n_j)
// with w_j(c) the normalised terms of that sum, cost one pass over the
// coefficients for every a (estep). The objects, their count vectors
// (stateTable) and the chunks of the parallel passes are fixed for a data
// set; build computes the coefficients at the noise parameters of a fit.
type polySet struct {
	d      *data.Dataset
	k      int
	tab    *stateTable
	off    []int     // object j's coefficients are logA[off[j]:off[j+1]]
	logA   []float64 // log A_j(c)
	nmax   int       // the largest n_j of an included object
	ns     []float64 // ns[n]: the number of included objects with n labels
	chunks [][2]int  // object ranges of the parallel passes
	hists  [][]float64
}

// polyLimit returns the largest number of labels of an object that
// newPolySet includes (0 for none) and the number of coefficients of the
// included objects in all, which newPolySet allocates.
func polyLimit(d *data.Dataset) (nmax, coefficients int) {
	k := d.NumClasses()
	for n := 1; n <= maxPolyLabels && binom(n+k-1, k-1) <= maxStates; n++ {
		nmax = n
	}
	objects := make([]int, nmax+1) // the number of objects of n labels
	for j := range d.Tasks {
		if n := d.Offsets[j+1] - d.Offsets[j]; n <= nmax {
			objects[n]++
		}
	}
	total := 0
	for n := 1; n <= nmax; n++ {
		size := objects[n] * binom(n+k-1, k-1)
		if total+size > maxCoefficients {
			return n - 1, total
		}
		total += size
	}
	return nmax, total
}

// newPolySet returns the polynomials' layout for d: every object with
// 1 ≤ n_j ≤ maxPolyLabels labels and at most maxStates count vectors is
// included, as long as the included objects' count vectors number at most
// maxCoefficients in all; beyond that, the objects with the most labels
// are left out, as many as it takes (with many classes, all of them: at
// K = 20 an object of 5 labels has 42,504 count vectors).
func newPolySet(d *data.Dataset) *polySet {
	k := d.NumClasses()
	nmax, _ := polyLimit(d)
	ps := &polySet{d: d, k: k, off: make([]int, d.NumTasks()+1)}
	most := 0
	for j := range d.Tasks {
		n := d.Offsets[j+1] - d.Offsets[j]
		size := 0
		if n >= 1 && n <= nmax {
			size = binom(n+k-1, k-1)
			most = max(most, n)
		}
		ps.off[j+1] = ps.off[j] + size
	}
	ps.nmax = most
	ps.tab = newStateTable(k, most)
	ps.logA = make([]float64, ps.off[d.NumTasks()])
	ps.ns = make([]float64, most+1)
	for j := range d.Tasks {
		if ps.off[j+1] > ps.off[j] {
			ps.ns[d.Offsets[j+1]-d.Offsets[j]]++
		}
	}
	// Chunks of about equal numbers of coefficients, at most fitting.MaxChunks,
	// fixed by the data.
	total := len(ps.logA)
	c := min(fitting.MaxChunks, max(1, total/fitting.MinChunkLabels))
	lo := 0
	for i := 1; i <= c && lo < d.NumTasks(); i++ {
		hi := lo
		for hi < d.NumTasks() && (i == c || ps.off[hi] < total*i/c) {
			hi++
		}
		if hi > lo {
			ps.chunks = append(ps.chunks, [2]int{lo, hi})
		}
		lo = hi
	}
	ps.hists = make([][]float64, len(ps.chunks))
	for i := range ps.hists {
		ps.hists[i] = make([]float64, k*(most+1))
	}
	return ps
}

// included reports whether object j has a polynomial.
func (ps *polySet) included(j int) bool { return ps.off[j+1] > ps.off[j] }

// count returns the number of objects with a polynomial.
func (ps *polySet) count() int {
	n := 0
	for j := range ps.d.Tasks {
		if ps.included(j) {
			n++
		}
	}
	return n
}

// build computes every included object's coefficients at the fitted noise
// parameters of r, on up to threads goroutines: a dynamic programme over
// the object's labels in probability space, each label's probabilities
// divided by their largest (whose logarithm is added back at the end), so
// that the largest coefficient never decreases and nothing it depends on
// underflows.
func (ps *polySet) build(r *model.Result, threads int) {
	d, k := ps.d, ps.k
	ev := r.FittedNoise()
	tab := ps.tab
	dd := k - 1
	fitting.RunChunks(len(ps.chunks), threads, func(ci int) {
		lo, hi := ps.chunks[ci][0], ps.chunks[ci][1]
		l := make([]float64, fitting.MostLabels(d, lo, hi)*k)
		pz := make([]float64, k)
		for j := lo; j < hi; j++ {
			if !ps.included(j) {
				continue
			}
			n := d.Offsets[j+1] - d.Offsets[j]
			ev.LogProb(j, l[:n*k])
			a := ps.logA[ps.off[j]:ps.off[j+1]]
			clear(a)
			a[0] = 1
			var scale float64
			for i := range n {
				li := l[i*k : (i+1)*k]
				mx := math.Inf(-1)
				for _, v := range li {
					mx = max(mx, v)
				}
				if math.IsInf(mx, -1) {
					mx = 0 // an impossible label: every coefficient 0
				}
				scale += mx
				for z, v := range li {
					pz[z] = math.Exp(v - mx)
				}
				// In place from the last state down: a state's
				// targets lie above it and are final when it is read.
				for s := tab.size[i] - 1; s >= 0; s-- {
					c := a[s]
					if c == 0 {
						continue
					}
					a[s] = c * pz[0]
					for z, t := range tab.inc[s*dd : (s+1)*dd] {
						a[t] += c * pz[z+1]
					}
				}
			}
			num.LogTo(a, a)
			for s := range a {
				a[s] += scale
			}
		}
	})
}

// estep returns the log marginal likelihood Σ_j log Σ_c A_j(c) DM(c | a)
// of the included objects under Dirichlet(a), a_z = alpha·p_z, on up to
// threads goroutines. It writes into hist the expected histogram of the
// subjective counts, hist[z·(nmax+1) + v] = Σ_j Σ_c w_j(c) 1[c(z) = v],
// with w_j(c) the posterior weights of the count vectors, and, if mean is
// not nil, every included object's posterior mean of q (J×K; the rows of
// the other objects are untouched). The results do not depend on threads.
func (ps *polySet) estep(alpha float64, p []float64, threads int, hist, mean []float64) float64 {
	d, k, tab := ps.d, ps.k, ps.tab
	nm := ps.nmax
	ra := make([]float64, nm+1)
	risingLog(ra, alpha)
	rz := make([]float64, k*(nm+1))
	a := make([]float64, k)
	for z := range k {
		a[z] = alpha * p[z]
		risingLog(rz[z*(nm+1):(z+1)*(nm+1)], a[z])
	}
	dd := k - 1
	totals := make([]float64, len(ps.chunks))
	fitting.RunChunks(len(ps.chunks), threads, func(ci int) {
		lo, hi := ps.chunks[ci][0], ps.chunks[ci][1]
		h := ps.hists[ci]
		clear(h)
		var terms []float64
		ec := make([]float64, k)
		var total float64
		for j := lo; j < hi; j++ {
			if !ps.included(j) {
				continue
			}
			n := d.Offsets[j+1] - d.Offsets[j]
			la := ps.logA[ps.off[j]:ps.off[j+1]]
			terms = append(terms[:0], la...)
			mx := math.Inf(-1)
			for s := range terms {
				v := terms[s] + rz[n-tab.sum[s]]
				for z, c := range tab.v[s*dd : (s+1)*dd] {
					v += rz[(z+1)*(nm+1)+int(c)]
				}
				terms[s] = v
				mx = max(mx, v)
			}
			if math.IsInf(mx, -1) {
				// Labels impossible under the noise model.
				total = mx
				continue
			}
			for s := range terms {
				terms[s] -= mx
			}
			num.ExpTo(terms, terms)
			var sum float64
			for _, e := range terms {
				sum += e
			}
			total += mx + math.Log(sum) - ra[n]
			inv := 1 / sum
			clear(ec)
			for s, e := range terms {
				if e == 0 {
					continue
				}
				w := e * inv
				c0 := n - tab.sum[s]
				h[c0] += w
				ec[0] += w * float64(c0)
				for z, c := range tab.v[s*dd : (s+1)*dd] {
					h[(z+1)*(nm+1)+int(c)] += w
					ec[z+1] += w * float64(c)
				}
			}
			if mean != nil {
				for z := range k {
					mean[j*k+z] = (a[z] + ec[z]) / (alpha + float64(n))
				}
			}
		}
		totals[ci] = total
	})
	clear(hist)
	var total float64
	for ci, h := range ps.hists {
		total += totals[ci]
		for i, v := range h {
			hist[i] += v
		}
	}
	return total
}

func binom(n, k int) int {
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
		if r > 1<<40 {
			return r
		}
	}
	return r
}

// risingLog fills t[c] = log Γ(a + c) - log Γ(a) = Σ_{s<c} log(a + s) for
// c = 0..len(t)-1.
func risingLog(t []float64, a float64) {
	t[0] = 0
	for c := 1; c < len(t); c++ {
		t[c] = t[c-1] + math.Log(a+float64(c-1))
	}
}
