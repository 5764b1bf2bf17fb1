package num

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// digammaBlock is the number of arguments DigammaTo takes through one
// batch of logarithms.
const digammaBlock = 64

// DigammaTo writes ψ(x[i]) into dst[i] for every i of x, bit for bit
// Digamma's (gonum's mathext.Digamma) on every build, and faster in a loop
// over many arguments: the logarithms of the asymptotic series,
//
//	ψ(x) = Σ_{i<m} −1/(x'+i) + log u + u⁻²/24 − 7u⁻⁴/960 + 31u⁻⁶/8064 − 127u⁻⁸/30720,
//
// with u = x' + m − ½ for the first m such that x' + m ≥ 7, are taken
// four at a time (MathLogTo), and on amd64 with AVX2 so are the recurrence
// and the series, with the scalar loop's operations in its order
// (haveUnfusedAVX2). Arguments that are not positive and finite go to
// Digamma. dst must be at least as long as x and may be x itself.
func DigammaTo(dst, x []float64) {
	dst = dst[:len(x)]
	var u, lg, sv [digammaBlock]float64
	var special [digammaBlock]bool
	for lo := 0; lo < len(x); lo += digammaBlock {
		xs := x[lo:min(lo+digammaBlock, len(x))]
		ds := dst[lo : lo+len(xs)]
		n := len(xs)
		clear(special[:n])
		// The recurrence, as mathext.Digamma takes it, four at a time
		// where the processor can; a special argument is kept in u until
		// every argument is read.
		for i := 0; i < n; i++ {
			if haveUnfusedAVX2 && n-i >= 4 {
				if i = digammaShiftAVX2(ds, u[:n], xs, i); i == n {
					break
				}
			}
			v := xs[i]
			if special[i] = !(v > 0) || math.IsInf(v, 1); special[i] {
				u[i] = v
				continue
			}
			var r float64
			for ; v < 7; v++ {
				r -= 1 / v
			}
			ds[i], u[i] = r, v-0.5
		}
		// Every argument read, dst may be x.
		for i := range n {
			if special[i] {
				sv[i] = mathext.Digamma(u[i])
				u[i] = 1
			}
		}
		MathLogTo(lg[:n], u[:n])
		m := 0
		if haveUnfusedAVX2 {
			// Every group of four, the special arguments' too, whose
			// values are then put back.
			m = n &^ 3
			digammaSeriesAVX2(ds, u[:n], lg[:n], m)
		}
		for i := m; i < n; i++ {
			ds[i] = digammaSeries(ds[i], u[i], lg[i])
		}
		for i := range n {
			if special[i] {
				ds[i] = sv[i]
			}
		}
	}
}

// digammaSeries adds the asymptotic series at u, whose logarithm is lg,
// to the recurrence's part r: mathext.Digamma's last lines, written as
// they are there so that a build that fuses multiply-adds (GOAMD64=v3)
// fuses the same ones.
func digammaSeries(result, x, lg float64) float64 {
	xx := 1 / x
	xx2 := xx * xx
	xx4 := xx2 * xx2
	result += lg + (1.0/24.0)*xx2 - (7.0/960.0)*xx4 + (31.0/8064.0)*xx4*xx2 - (127.0/30720.0)*xx4*xx4
	return result
}
