//go:build amd64 && !purego && !amd64.v3

package num

// haveDigammaAVX2 reports whether DigammaTo takes its recurrence and its
// series four arguments at a time (digammaShiftAVX2, digammaSeriesAVX2),
// with the scalar loop's operations in its order. A build for GOAMD64=v3
// fuses multiply-adds in the scalar series, as in mathext.Digamma, and
// keeps the scalar loop, whose results are then those of the fused code.
var haveDigammaAVX2 = haveAVX2

// digammaShiftAVX2 writes, for j = i, i+4, ... in groups of four, the
// recurrence's part r of ψ(x[j]) into r[j] and the shifted argument less
// ½ into u[j], as DigammaTo's scalar loop does, and returns the first j it
// did not write: where fewer than four elements remain, or at a group with
// an element that is not positive and finite, which the caller takes one
// element at a time. r may be x.
//
//go:noescape
func digammaShiftAVX2(r, u, x []float64, i int) int

// digammaSeriesAVX2 sets dst[j] = digammaSeries(dst[j], u[j], lg[j]) for
// j in [0, n), n a multiple of four.
//
//go:noescape
func digammaSeriesAVX2(dst, u, lg []float64, n int)
