package vb

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// object2 is the update of one object without a known class in
// vbDA.objects for K = 2, with γ_j, exp ψ(γ_j) and the new γ_j held in
// scalars instead of scratch slices while it iterates, and settle's end:
// the same operations in the same order (TestVBObjectScalar compares it with
// the generic loop bit for bit). An
// object's update is most of a variational pass, and this one took the
// pass at K = 2 from 73-77 to 64-66 cpu-ns/label (BenchmarkVBPass).
// pj holds the expected probabilities of the object's labels, gj receives
// their weights, and gamma is γ_j, updated in place.
func (v *vbDA) object2(c *vbChunk, pj, gj, gamma []float64) {
	a0, a1 := v.a[0], v.a[1]
	old0, old1 := gamma[0], gamma[1] // γ_j as the last pass left it
	x0, x1 := old0, old1
	accel, last := true, math.Inf(1)
	for it := 0; ; it++ {
		e0, e1, n0, n1, prod := vbStep2(pj, gj, x0, x1, a0, a1)
		diff := max(max(0, math.Abs(n0-x0)), math.Abs(n1-x1))
		if diff >= innerTol && it+1 < maxInner {
			// SQUAREM as in objects.
			accel = accel && diff < last
			last = diff
			if !accel {
				x0, x1 = n0, n1
				continue
			}
			_, _, m0, m1, _ := vbStep2(pj, gj, n0, n1, a0, a1)
			r0, r1 := n0-x0, n1-x1
			w0, w1 := m0-2*n0+x0, m1-2*n1+x1
			alpha := -1.0
			// Each product is rounded before the sum that takes it
			// (float64), as in squaremLength and objects, so that no
			// build fuses one path and not the other.
			if vv := float64(w0*w0) + float64(w1*w1); vv > 0 {
				alpha = -min(max(math.Sqrt((float64(r0*r0)+float64(r1*r1))/vv), 1), math.Inf(1))
			}
			p0 := x0 - float64(2*alpha*r0) + float64(alpha*alpha*w0)
			p1 := x1 - float64(2*alpha*r1) + float64(alpha*alpha*w1)
			if p0 >= a0 && p1 >= a1 {
				x0, x1 = p0, p1
			} else {
				x0, x1 = m0, m1
			}
			continue
		}
		gamma[0], gamma[1] = x0, x1
		e, old, next := [2]float64{e0, e1}, [2]float64{old0, old1}, [2]float64{n0, n1}
		v.settle(c, len(pj)/2, prod, gamma, e[:], old[:], next[:])
		return
	}
}

// vbStep2 is objects' step for K = 2 from γ = (s0, s1): it writes the
// weights φ_i of the labels into gj and returns exp ψ(γ), the new
// γ = a + Σ_i φ_i and the product of the normalisers.
func vbStep2(pj, gj []float64, s0, s1, a0, a1 float64) (e0, e1, d0, d1 float64, prod num.Product) {
	// Both exponentials after both shifts, so that they overlap: as
	// num.ExpDigammaTo, bit for bit num.ExpDigammaFast.
	t0, w0 := num.ExpDigammaParts(s0)
	t1, w1 := num.ExpDigammaParts(s1)
	e0, e1 = num.Exp(t0)*w0, num.Exp(t1)*w1
	d0, d1 = a0, a1
	prod = num.NewProduct()
	gj = gj[:len(pj)]
	for i := 0; i+1 < len(pj); i += 2 {
		t0, t1 := float64(e0*pj[i]), float64(e1*pj[i+1]) // rounded, as num.Responsibilities
		m := t0 + t1
		inv := 1 / m
		r0, r1 := float64(t0*inv), float64(t1*inv) // rounded before the sums, on every build
		gj[i], gj[i+1] = r0, r1
		prod.Mul(m)
		d0 += r0
		d1 += r1
	}
	return e0, e1, d0, d1, prod
}

// object3 is objects' update of one object for K = 3, as object2 is for
// K = 2: the generic loop's operations in the same order (its step, its
// SQUAREM and its end, settle), bit for bit, with the three classes in
// registers instead of scratch slices.
func (v *vbDA) object3(c *vbChunk, pj, gj, gamma []float64) {
	a0, a1, a2 := v.a[0], v.a[1], v.a[2]
	old := [3]float64{gamma[0], gamma[1], gamma[2]} // γ_j as the last pass left it
	x0, x1, x2 := old[0], old[1], old[2]
	accel, last := true, math.Inf(1)
	for it := 0; ; it++ {
		e0, e1, e2, n0, n1, n2, prod := vbStep3(pj, gj, x0, x1, x2, a0, a1, a2)
		diff := max(max(max(0, math.Abs(n0-x0)), math.Abs(n1-x1)), math.Abs(n2-x2))
		if diff >= innerTol && it+1 < maxInner {
			// SQUAREM as in objects.
			accel = accel && diff < last
			last = diff
			if !accel {
				x0, x1, x2 = n0, n1, n2
				continue
			}
			_, _, _, m0, m1, m2, _ := vbStep3(pj, gj, n0, n1, n2, a0, a1, a2)
			r0, r1, r2 := n0-x0, n1-x1, n2-x2
			w0, w1, w2 := m0-2*n0+x0, m1-2*n1+x1, m2-2*n2+x2
			alpha := -1.0
			// Each product rounded before the sum that takes it, as in
			// squaremLength.
			if vv := float64(w0*w0) + float64(w1*w1) + float64(w2*w2); vv > 0 {
				rr := float64(r0*r0) + float64(r1*r1) + float64(r2*r2)
				alpha = -min(max(math.Sqrt(rr/vv), 1), math.Inf(1))
			}
			p0 := x0 - float64(2*alpha*r0) + float64(alpha*alpha*w0)
			p1 := x1 - float64(2*alpha*r1) + float64(alpha*alpha*w1)
			p2 := x2 - float64(2*alpha*r2) + float64(alpha*alpha*w2)
			if p0 >= a0 && p1 >= a1 && p2 >= a2 {
				x0, x1, x2 = p0, p1, p2
			} else {
				x0, x1, x2 = m0, m1, m2
			}
			continue
		}
		gamma[0], gamma[1], gamma[2] = x0, x1, x2
		e, next := [3]float64{e0, e1, e2}, [3]float64{n0, n1, n2}
		v.settle(c, len(pj)/3, prod, gamma, e[:], old[:], next[:])
		return
	}
}

// vbStep3 is objects' step for K = 3 from γ = (s0, s1, s2): it writes the
// weights φ_i of the labels into gj and returns exp ψ(γ), the new
// γ = a + Σ_i φ_i and the product of the normalisers. exp ψ of the three
// classes is taken with a fourth value, 7 (no shift), so that they make a
// group of four for num.ExpDigammaTo's vector code; each label's
// responsibilities are num.Responsibilities', rounded alike.
func vbStep3(pj, gj []float64, s0, s1, s2, a0, a1, a2 float64) (e0, e1, e2, d0, d1, d2 float64, prod num.Product) {
	x4 := [4]float64{s0, s1, s2, 7}
	var e4 [4]float64
	num.ExpDigammaTo(e4[:], x4[:])
	e0, e1, e2 = e4[0], e4[1], e4[2]
	d0, d1, d2 = a0, a1, a2
	prod = num.NewProduct()
	gj = gj[:len(pj)]
	for i := 0; i+2 < len(pj); i += 3 {
		// Rounded before the sums, as num.Responsibilities, on every build.
		t0, t1, t2 := float64(e0*pj[i]), float64(e1*pj[i+1]), float64(e2*pj[i+2])
		m := t0 + t1 + t2
		inv := 1 / m
		r0, r1, r2 := float64(t0*inv), float64(t1*inv), float64(t2*inv)
		gj[i], gj[i+1], gj[i+2] = r0, r1, r2
		prod.Mul(m)
		d0 += r0
		d1 += r1
		d2 += r2
	}
	return e0, e1, e2, d0, d1, d2, prod
}

// object4 is object3 for K = 4.
func (v *vbDA) object4(c *vbChunk, pj, gj, gamma []float64) {
	a0, a1, a2, a3 := v.a[0], v.a[1], v.a[2], v.a[3]
	old := [4]float64{gamma[0], gamma[1], gamma[2], gamma[3]}
	x0, x1, x2, x3 := old[0], old[1], old[2], old[3]
	accel, last := true, math.Inf(1)
	for it := 0; ; it++ {
		e0, e1, e2, e3, n0, n1, n2, n3, prod := vbStep4(pj, gj, x0, x1, x2, x3, a0, a1, a2, a3)
		diff := max(max(max(max(0, math.Abs(n0-x0)), math.Abs(n1-x1)), math.Abs(n2-x2)), math.Abs(n3-x3))
		if diff >= innerTol && it+1 < maxInner {
			accel = accel && diff < last
			last = diff
			if !accel {
				x0, x1, x2, x3 = n0, n1, n2, n3
				continue
			}
			_, _, _, _, m0, m1, m2, m3, _ := vbStep4(pj, gj, n0, n1, n2, n3, a0, a1, a2, a3)
			r0, r1, r2, r3 := n0-x0, n1-x1, n2-x2, n3-x3
			w0, w1, w2, w3 := m0-2*n0+x0, m1-2*n1+x1, m2-2*n2+x2, m3-2*n3+x3
			alpha := -1.0
			if vv := float64(w0*w0) + float64(w1*w1) + float64(w2*w2) + float64(w3*w3); vv > 0 {
				rr := float64(r0*r0) + float64(r1*r1) + float64(r2*r2) + float64(r3*r3)
				alpha = -min(max(math.Sqrt(rr/vv), 1), math.Inf(1))
			}
			p0 := x0 - float64(2*alpha*r0) + float64(alpha*alpha*w0)
			p1 := x1 - float64(2*alpha*r1) + float64(alpha*alpha*w1)
			p2 := x2 - float64(2*alpha*r2) + float64(alpha*alpha*w2)
			p3 := x3 - float64(2*alpha*r3) + float64(alpha*alpha*w3)
			if p0 >= a0 && p1 >= a1 && p2 >= a2 && p3 >= a3 {
				x0, x1, x2, x3 = p0, p1, p2, p3
			} else {
				x0, x1, x2, x3 = m0, m1, m2, m3
			}
			continue
		}
		gamma[0], gamma[1], gamma[2], gamma[3] = x0, x1, x2, x3
		e, next := [4]float64{e0, e1, e2, e3}, [4]float64{n0, n1, n2, n3}
		v.settle(c, len(pj)/4, prod, gamma, e[:], old[:], next[:])
		return
	}
}

// vbStep4 is vbStep3 for K = 4.
func vbStep4(pj, gj []float64, s0, s1, s2, s3, a0, a1, a2, a3 float64) (e0, e1, e2, e3, d0, d1, d2, d3 float64, prod num.Product) {
	x4 := [4]float64{s0, s1, s2, s3}
	var e4 [4]float64
	num.ExpDigammaTo(e4[:], x4[:])
	e0, e1, e2, e3 = e4[0], e4[1], e4[2], e4[3]
	d0, d1, d2, d3 = a0, a1, a2, a3
	prod = num.NewProduct()
	gj = gj[:len(pj)]
	for i := 0; i+3 < len(pj); i += 4 {
		t0, t1, t2, t3 := float64(e0*pj[i]), float64(e1*pj[i+1]), float64(e2*pj[i+2]), float64(e3*pj[i+3])
		m := t0 + t1 + t2 + t3
		inv := 1 / m
		r0, r1, r2, r3 := float64(t0*inv), float64(t1*inv), float64(t2*inv), float64(t3*inv)
		gj[i], gj[i+1], gj[i+2], gj[i+3] = r0, r1, r2, r3
		prod.Mul(m)
		d0 += r0
		d1 += r1
		d2 += r2
		d3 += r3
	}
	return e0, e1, e2, e3, d0, d1, d2, d3, prod
}

// vbBoundTerm is one class's term log Γ(x) − (x − a) ψ(x) of the bound in
// objects, given lg = log Γ(x) and psi = ψ(x) (vbPsi).
func vbBoundTerm(x, a, lg, psi float64) float64 {
	return lg - (x-a)*psi
}

// vbPsi writes ψ(x_z) into psi for every class: log e_z from
// e_z = exp ψ(x_z) (num.LogTo, num.Log's values for all of them in one
// call), or ψ(x_z) itself where e_z underflows.
func vbPsi(psi, x, e []float64) {
	num.LogTo(psi, e)
	for z, ez := range e {
		if !(ez > 0x1p-1000) {
			psi[z] = num.Digamma(x[z])
		}
	}
}
