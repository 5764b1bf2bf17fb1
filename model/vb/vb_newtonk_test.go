package vb

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// stepK is F(γ) = a + Σ_i φ_i(γ) of a task's labels p (K a label) into dst.
func stepK(p, a, gamma, dst []float64) {
	k := len(a)
	e := make([]float64, k)
	for z, x := range gamma {
		e[z] = num.ExpDigamma(x)
	}
	copy(dst, a)
	r := make([]float64, k)
	for i := 0; i+k <= len(p); i += k {
		num.Responsibilities(r, e, p[i:i+k])
		for z, x := range r {
			dst[z] += x
		}
	}
}

// fixedPointK returns the fixed point of stepK reached from start by
// SQUAREM (as the generic loop) run until max_z |F_z(γ) − γ_z| < tol,
// and that residual.
func fixedPointK(p, a, start []float64, tol float64, most int) ([]float64, float64) {
	k := len(a)
	g, f1, f2, q := append([]float64(nil), start...), make([]float64, k), make([]float64, k), make([]float64, k)
	var diff float64
	accel, last := true, math.Inf(1)
	for range most {
		stepK(p, a, g, f1)
		diff = 0
		for z := range g {
			diff = max(diff, math.Abs(f1[z]-g[z]))
		}
		if diff < tol {
			break
		}
		accel = accel && diff < last
		last = diff
		if !accel {
			copy(g, f1)
			continue
		}
		stepK(p, a, f1, f2)
		alpha := -squaremLength(g, f1, f2, math.Inf(1))
		ok := true
		for z := range g {
			r := f1[z] - g[z]
			w := f2[z] - 2*f1[z] + g[z]
			q[z] = g[z] - 2*alpha*r + alpha*alpha*w
			ok = ok && q[z] >= a[z]
		}
		if ok {
			copy(g, q)
		} else {
			copy(g, f2)
		}
	}
	return g, diff
}

// TestObjectNewtonK checks the default's label distributions given the
// workers at K ≥ 3 (objectNewton) against the fixed point itself, the
// generic loop run to max_z |F_z(γ) − γ_z| < 10⁻¹³: on Dawid-Skene data
// at K = 3, 5 and 10 with 3, 5 and 10 labels a task, on the shipped sets
// of more than two classes and on the many-classes regime, with the LA
// fit's workers frozen and every seventh task clamped, every free task's
// q_j is within 10⁻⁹ of it (none left to the generic loop) and a task of
// known class keeps e_g; the result is the same bit for bit on one
// goroutine and on four.
func TestObjectNewtonK(t *testing.T) {
	sets := shippedSets(t, "trec2010", "adult", "websearch")
	for _, k := range []int{3, 5, 10} {
		for _, n := range []int{3, 5, 10} {
			d, _, err := sim.Simulate(sim.Settings{Tasks: 1500, Workers: 40, Classes: k, LabelsPerTask: n,
				Noise: noise.DS{}, Latent: latent.LA{}, Seed: uint64(10*k + n)})
			if err != nil {
				t.Fatal(err)
			}
			sets = append(sets, testSet{fmt.Sprintf("K=%d n=%d", k, n), d, nil})
		}
	}
	st, err := sim.Regime("many-classes", 1)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := sim.Simulate(st)
	if err != nil {
		t.Fatal(err)
	}
	sets = append(sets, testSet{"many-classes", d, nil})
	for _, st := range sets {
		d := st.d
		k := d.NumClasses()
		gold := make([]int, d.NumTasks())
		for j := range gold {
			gold[j] = -1
			if j%7 == 0 {
				gold[j] = j % k
			}
		}
		nv, err := defaultForm().posterior(d)
		if err != nil {
			t.Fatal(err)
		}
		own := model.Settings{FunctionTol: VBFunctionTol, ParamTol: VBParamTol}
		set := own.WithDefaults()
		if _, err := vbFit(context.Background(), "vb-ds", d, set, nv, newVBLA(d, nil), vbFresh, nil); err != nil {
			t.Fatal(err)
		}
		set.MaxIterations = 1
		a := symmetric(k, JeffreysPrior)
		frozen := func(squarem bool, threads int) []float64 {
			s := newVBDA(d, false, a, gold)
			s.squarem, s.distOnly = squarem, true
			one := set
			one.Threads = threads
			r, err := vbFit(context.Background(), "vb-ds", d, one, nv, s, vbFrozen, nil)
			if err != nil {
				t.Fatal(err)
			}
			return r.Probs
		}
		got, old := frozen(false, 1), frozen(true, 1)
		if !slices.Equal(got, frozen(false, 4)) {
			t.Errorf("%s: q_j differ between one goroutine and four", st.name)
		}
		var worst, worstOld float64
		v := newVBDA(d, false, a, nil)
		v.distOnly = true
		v.setGlobals(nil)
		var c vbChunk
		failed := 0
		for j := range d.Tasks {
			q := got[j*k : (j+1)*k]
			if g := gold[j]; g >= 0 {
				for z, x := range q {
					if x != float64(b2i(z == g)) {
						t.Fatalf("%s: task %d of known class %d has q_j %v", st.name, j, g, q)
					}
				}
				continue
			}
			p, start := taskProbs(d, nv, j, a)
			if !v.objectNewton(&c, p, slices.Clone(start)) {
				failed++
			}
			root, res := fixedPointK(p, a, start, 1e-13, 100_000)
			if res >= 1e-13 {
				t.Errorf("%s: task %d: the reference stopped at residual %.3g", st.name, j, res)
				continue
			}
			sr := sum(root)
			for z, x := range q {
				worst = max(worst, math.Abs(x-root[z]/sr))
				worstOld = max(worstOld, math.Abs(old[j*k+z]-root[z]/sr))
			}
		}
		if worst > 1e-9 {
			t.Errorf("%s: q_j up to %.3g from the fixed point", st.name, worst)
		}
		if failed > 0 {
			t.Errorf("%s: %d tasks left to the generic loop", st.name, failed)
		}
		t.Logf("%s: q_j within %.2g of the fixed point, the generic loop's within %.2g", st.name, worst, worstOld)
	}
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// taskProbs returns task j's expected label probabilities under nv and
// its start a + (label counts).
func taskProbs(d *data.Dataset, nv noise.Variational, j int, a []float64) ([]float64, []float64) {
	k := len(a)
	n := d.Offsets[j+1] - d.Offsets[j]
	p := make([]float64, n*k)
	nv.Prob(j, j+1, p)
	start := make([]float64, k)
	d.TaskCounts(j, start)
	for z := range start {
		start[z] += a[z]
	}
	return p, start
}

// objectBound is a task's term of the bound at γ with the weights φ(γ).
func objectBound(p, a, gamma []float64) float64 {
	k := len(a)
	var t float64
	for i := 0; i+k <= len(p); i += k {
		var m float64
		for z := range k {
			m += math.Exp(num.Digamma(gamma[z])) * p[i+z]
		}
		t += math.Log(m)
	}
	lg, _ := math.Lgamma(sum(gamma))
	t -= lg
	for z, x := range gamma {
		l, _ := math.Lgamma(x)
		la, _ := math.Lgamma(a[z])
		t += l - (x-a[z])*num.Digamma(x) - la
	}
	la, _ := math.Lgamma(sum(a))
	return t + la
}

// TestObjectNewtonJacobian checks objectNewton's derivatives against
// central differences (gonum diff/fd) on random tasks of K = 3, 5 and 10
// classes and 2 to 12 labels: F's Jacobian (diag(S) − M) D, the step of
// newtonScratch.solve, which solves (I − J + μI) Δ = G in the n×n form
// (fewer labels than classes) and in the K×K form, and ∇L = D G along
// Σγ = Σa + n (L from newtonEval against objectBound, the task's term of
// the bound, up to a constant).
func TestObjectNewtonJacobian(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{3, 5, 10} {
		for _, n := range []int{2, 3, 5, 10, 12} {
			for _, shift := range []bool{false, true} {
				a := symmetric(k, JeffreysPrior)
				p := make([]float64, n*k)
				for i := range p {
					p[i] = 0.02 + rng.Float64()
				}
				gamma := make([]float64, k)
				for z := range gamma {
					gamma[z] = a[z] + 0.1 + rng.Float64()
				}
				// Σγ = Σa + n, as F keeps it.
				scale := float64(n) / (sum(gamma) - sum(a))
				for z := range gamma {
					gamma[z] = a[z] + (gamma[z]-a[z])*scale
				}
				if !shift {
					// Near the fixed point, where H is positive definite
					// without a shift.
					start := slices.Clone(a)
					for i := range n {
						start[i%k]++
					}
					root, _ := fixedPointK(p, a, start, 1e-13, 100_000)
					for z := range gamma {
						gamma[z] = root[z] + 0.05*float64(z%2*2-1)
					}
					if k%2 == 1 {
						gamma[k-1] = root[k-1]
					}
				}
				v := &vbDA{k: k, a: a}
				var c vbChunk
				nk := c.newtonScratch(k, n)
				copy(nk.x, gamma)
				_, _, l0 := v.newtonEval(nk, p, gamma, nil, true)
				mu := 0.0
				if shift {
					mu = 2 * slices.Max(nk.s[:k]) * slices.Max(nk.t[:k])
				}
				name := fmt.Sprintf("K=%d n=%d μ=%.3g", k, n, mu)
				jac := mat.NewDense(k, k, nil)
				fd.Jacobian(jac, func(dst, x []float64) { stepK(p, a, x, dst) }, gamma, &fd.JacobianSettings{Formula: fd.Central})
				// The analytic Jacobian from the weights newtonEval left.
				u, s, tri := nk.u[:n*k], nk.s[:k], nk.t[:k]
				for z := range k {
					for w := range k {
						var m float64
						for i := range n {
							m += u[i*k+z] * u[i*k+w]
						}
						want := -m * tri[w]
						if z == w {
							want += s[z] * tri[w]
						}
						if got := jac.At(z, w); math.Abs(got-want) > 1e-6*(1+math.Abs(want)) {
							t.Errorf("%s: ∂F_%d/∂γ_%d = %.8g by differences, %.8g by the formula", name, z, w, got, want)
						}
					}
				}
				if !nk.solve(p, mu) {
					t.Errorf("%s: solve found no positive-definite matrix", name)
					continue
				}
				// (I − J + μI) Δ = G.
				g, y := nk.g[:k], nk.y[:k]
				for z := range k {
					lhs := (1 + mu) * y[z]
					for w := range k {
						lhs -= jac.At(z, w) * y[w]
					}
					if math.Abs(lhs-g[z]) > 1e-6*(1+math.Abs(g[z])) {
						t.Errorf("%s: row %d of (I − J + μI)Δ is %.8g, G_%d %.8g", name, z, lhs, z, g[z])
					}
				}
				if mu > 0 {
					continue
				}
				// ∇L along e_z − e_0 is ψ'_z G_z − ψ'_0 G_0, and L is the
				// bound's term up to a constant.
				for z := 1; z < k; z++ {
					f := func(x []float64) float64 {
						h := slices.Clone(gamma)
						h[z] += x[0]
						h[0] -= x[0]
						return objectBound(p, a, h)
					}
					got := fd.Derivative(func(x float64) float64 { return f([]float64{x}) }, 0, &fd.Settings{Formula: fd.Central})
					if want := tri[z]*g[z] - tri[0]*g[0]; math.Abs(got-want) > 1e-6*(1+math.Abs(want)) {
						t.Errorf("%s: ∂L along e_%d − e_0 is %.8g by differences, %.8g from G", name, z, got, want)
					}
				}
				h := slices.Clone(gamma)
				h[1] += 0.2
				h[0] -= 0.2
				_, _, l1 := v.newtonEval(nk, p, h, nil, true)
				if got, want := l1-l0, objectBound(p, a, h)-objectBound(p, a, gamma); math.Abs(got-want) > 1e-12 {
					t.Errorf("%s: L moves by %.15g, the bound by %.15g", name, got, want)
				}
			}
		}
	}
}

// TestNewtonSolveInertia checks newtonScratch.solve's answer to whether
// H = diag(c) + Σ_i (d∘φ_i)(d∘φ_i)ᵀ is positive definite, in both of its
// forms, against H's eigenvalues (gonum mat.EigenSym), on random weights,
// sums and slopes for which c_z = 1 − S_z ψ'_z takes both signs, and that
// the step then solves (I − A D) Δ = G.
func TestNewtonSolveInertia(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	counts := map[[2]bool]int{}
	for trial := range 2000 {
		k := 3 + trial%8
		n := 1 + rng.IntN(2*k)
		var c vbChunk
		nk := c.newtonScratch(k, n)
		u, s, tri, g := nk.u[:n*k], nk.s[:k], nk.t[:k], nk.g[:k]
		for i := range u {
			u[i] = rng.Float64() / float64(k)
		}
		for z := range k {
			s[z] = 3 * rng.Float64()
			tri[z] = 0.1 + rng.Float64()
			g[z] = rng.NormFloat64()
		}
		h := mat.NewSymDense(k, nil)
		for z := range k {
			for w := z; w < k; w++ {
				var m float64
				for i := range n {
					m += u[i*k+z] * u[i*k+w]
				}
				x := math.Sqrt(tri[z]*tri[w]) * m
				if z == w {
					x += 1 - s[z]*tri[z]
				}
				h.SetSym(z, w, x)
			}
		}
		var eig mat.EigenSym
		if !eig.Factorize(h, false) {
			t.Fatal("no eigenvalues")
		}
		vals := eig.Values(nil)
		if math.Abs(vals[0]) < 1e-6 {
			continue // too near singular to tell
		}
		pd := vals[0] > 0
		got := nk.solve(make([]float64, n*k), 0)
		counts[[2]bool{n < k, pd}]++
		if got != pd {
			t.Errorf("K=%d n=%d: solve says positive definite %v, the least eigenvalue is %.3g", k, n, got, vals[0])
			continue
		}
		if !got {
			continue
		}
		y := nk.y[:k]
		for z := range k {
			// Row z of (I − A D) Δ with A = diag(S) − Σ_i φ_i φ_iᵀ.
			lhs := y[z] - s[z]*tri[z]*y[z]
			for w := range k {
				var m float64
				for i := range n {
					m += u[i*k+z] * u[i*k+w]
				}
				lhs += m * tri[w] * y[w]
			}
			if math.Abs(lhs-g[z]) > 1e-8*(1+math.Abs(g[z]))/vals[0] {
				t.Errorf("K=%d n=%d: row %d of (I − A D)Δ is %.10g, G_%d %.10g", k, n, z, lhs, z, g[z])
			}
		}
	}
	for _, small := range []bool{false, true} {
		for _, pd := range []bool{false, true} {
			if counts[[2]bool{small, pd}] < 50 {
				t.Errorf("only %d cases with fewer labels than classes %v, positive definite %v", counts[[2]bool{small, pd}], small, pd)
			}
		}
	}
	t.Logf("cases (fewer labels than classes, positive definite): %v", counts)
}
