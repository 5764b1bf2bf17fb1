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
// four at a time (MathLogTo). Arguments that are not positive and finite
// go to Digamma. dst must be at least as long as x and may be x itself.
func DigammaTo(dst, x []float64) {
	dst = dst[:len(x)]
	var u, lg [digammaBlock]float64
	var special [digammaBlock]bool
	for lo := 0; lo < len(x); lo += digammaBlock {
		xs := x[lo:min(lo+digammaBlock, len(x))]
		ds := dst[lo : lo+len(xs)]
		// The recurrence, as mathext.Digamma takes it; a special
		// argument is kept in u until every argument is read.
		for i, v := range xs {
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
		for i := range xs {
			if special[i] {
				ds[i] = mathext.Digamma(u[i])
				u[i] = 1
			}
		}
		MathLogTo(lg[:len(xs)], u[:len(xs)])
		for i := range xs {
			if !special[i] {
				ds[i] = digammaSeries(ds[i], u[i], lg[i])
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
