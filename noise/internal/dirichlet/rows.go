package dirichlet

import (
	"math"

	"github.com/consensuslab/consensus/internal/num"
)

// RowCounts holds what the shared prior's fixed point on one row z of the
// confusion matrices reads of W workers' expected counts (noise's
// learnRows): the workers with counts in the row and a weight above 0,
// their counts C_w(z, y) above 0 (classes in Y, values in C, the i-th
// worker's at [At[i], At[i+1])), their sums N and weights Wt, and per
// class the summed weight M of the workers with a count of it. A worker of
// few labels has counts in few classes; the fixed point reads no zero.
type RowCounts struct {
	Y     []int32
	C     []float64
	At    []int32
	N, Wt []float64
	M     []float64
	// args holds the fixed point's and Evidence's arguments and values.
	args []float64
}

// GatherRows sets rows[z], for every row z of the K×K expected counts acc
// of w workers (worker i's C_i(z, y) at i·K² + y·K + z, noise's
// accumulator layout; negative values read as 0), each worker weighted by
// omega[i] (nil: 1 each).
func GatherRows(rows []RowCounts, acc []float64, k, w int, omega []float64) {
	k2 := k * k
	for z := range rows {
		r := &rows[z]
		r.Y, r.C, r.N, r.Wt = r.Y[:0], r.C[:0], r.N[:0], r.Wt[:0]
		r.At = append(r.At[:0], 0)
		if len(r.M) != k {
			r.M = make([]float64, k)
		}
		clear(r.M)
	}
	for i := range w {
		wi := 1.0
		if omega != nil {
			wi = omega[i]
		}
		if !(wi > 0) {
			continue
		}
		base := i * k2
		for z := range rows {
			r := &rows[z]
			var n float64
			n0 := len(r.C)
			for y := range k {
				c := max(acc[base+y*k+z], 0)
				n += c
				if c > 0 {
					r.Y, r.C = append(r.Y, int32(y)), append(r.C, c)
				}
			}
			if !(n > 0) {
				r.Y, r.C = r.Y[:n0], r.C[:n0]
				continue
			}
			for _, y := range r.Y[n0:] {
				r.M[y] += wi
			}
			r.At = append(r.At, int32(len(r.C)))
			r.N, r.Wt = append(r.N, n), append(r.Wt, wi)
		}
	}
}

// FixedPoint takes at most steps steps of Minka's fixed point for the
// Pólya distribution on the row beta (K values, changed in place) from the
// counts r, every value at least lo and the row's sum at most maxSum, and
// stops when no value moved by more than tol of itself (noise's
// learnPrior has the formula).
func (r *RowCounts) FixedPoint(beta []float64, steps int, tol, lo, maxSum float64) {
	k := len(beta)
	nnz, nw := len(r.C), len(r.N)
	if cap(r.args) < nnz+nw {
		r.args = make([]float64, nnz+nw)
	}
	args := r.args[:nnz+nw]
	row, psiB := make([]float64, k), make([]float64, k)
	var sw float64
	for _, w := range r.Wt {
		sw += w
	}
	for range steps {
		var sb float64
		for _, b := range beta {
			sb += b
		}
		psb := num.Digamma(sb)
		// Every digamma of the step in one call: each count's
		// ψ(C_w(z, y) + β_z(y)), then each worker's ψ(n_wz + Σβ_z).
		for j, c := range r.C {
			args[j] = c + beta[r.Y[j]]
		}
		for i, n := range r.N {
			args[nnz+i] = n + sb
		}
		num.DigammaTo(args, args)
		var den float64
		clear(row)
		for i, w := range r.Wt {
			for j := r.At[i]; j < r.At[i+1]; j++ {
				row[r.Y[j]] += w * args[j]
			}
			den += w * args[nnz+i]
		}
		den -= sw * psb
		if den <= 0 {
			break
		}
		for y := range k {
			psiB[y] = num.Digamma(beta[y])
		}
		var next float64
		for y := range k {
			row[y] = max(beta[y]*(row[y]-r.M[y]*psiB[y])/den, lo)
			next += row[y]
		}
		scale := min(1, maxSum/next)
		done := true
		for y := range k {
			b := row[y] * scale
			if math.Abs(b-beta[y]) > tol*beta[y] {
				done = false
			}
			beta[y] = b
		}
		if done {
			break
		}
	}
}

// PatternGain returns L(β) − L(β^sym) for the Dirichlet-multinomial log
// evidence of the counts r (up to the multinomial coefficients, which do
// not depend on the row), every worker's term weighted by its weight,
//
//	L(β) = Σ_w Wt_w [log Γ(Σβ) − log Γ(Σβ + n_w) + Σ_y log Γ(β_y + C_w(y)) − log Γ(β_y)],
//
// where β^sym is beta with every value but beta[z] replaced by off. The
// log Γ of both are taken in one call, β_z + C_w(z) once for both.
func (r *RowCounts) PatternGain(beta []float64, z int, off float64) float64 {
	nnz := len(r.C)
	// args: the full row's counts, sums, β_y and Σβ; then the symmetric
	// row's counts off the diagonal, sums, values and sum.
	var sb, ss float64
	for y, b := range beta {
		sb += b
		if y == z {
			ss += b
		} else {
			ss += off
		}
	}
	args := r.args[:0]
	for j, c := range r.C {
		args = append(args, c+beta[r.Y[j]])
	}
	for _, n := range r.N {
		args = append(args, n+sb)
	}
	args = append(args, beta...)
	args = append(args, sb)
	sym := len(args)
	for j, c := range r.C {
		if int(r.Y[j]) != z {
			args = append(args, c+off)
		}
	}
	for _, n := range r.N {
		args = append(args, n+ss)
	}
	for y, b := range beta {
		if y != z {
			b = off
		}
		args = append(args, b)
	}
	args = append(args, ss)
	n := len(args)
	args = append(args, args...) // room for the values
	r.args = args
	vals := args[n:]
	num.LgammaTo(vals, args[:n])
	full := r.evidence(vals[:sym], vals[:nnz], -1)
	return full - r.evidence(vals[sym:], vals[:nnz], z)
}

// evidence sums PatternGain's L from the log Γ values vals (laid out as
// PatternGain's arguments of one row) in the order of the formula; with
// z ≥ 0, vals holds no count of class z, whose values are diag's.
func (r *RowCounts) evidence(vals, diag []float64, z int) float64 {
	k := len(r.M)
	cnt := len(r.C)
	if z >= 0 {
		for _, y := range r.Y {
			if int(y) == z {
				cnt--
			}
		}
	}
	nw := len(r.N)
	lgB, lgSum := vals[cnt+nw:cnt+nw+k], vals[cnt+nw+k]
	var ll float64
	j := 0
	for i, w := range r.Wt {
		var li float64
		for m := r.At[i]; m < r.At[i+1]; m++ {
			y := r.Y[m]
			if int(y) == z {
				li += diag[m] - lgB[y]
				continue
			}
			li += vals[j] - lgB[y]
			j++
		}
		li += lgSum - vals[cnt+i]
		li *= w
		ll += li
	}
	return ll
}
