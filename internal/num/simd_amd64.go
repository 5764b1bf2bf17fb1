//go:build amd64 && !purego

package num

import "golang.org/x/sys/cpu"

// haveAVX2 reports whether ExpTo and SigmoidPairs use their AVX2 loops,
// which take four elements at a time with the same operations, in the
// same order, as the scalar loops (no fused multiply-add), so that the
// results are bit for bit the same.
var haveAVX2 = cpu.X86.HasAVX2

// expAVX2 writes Exp(x[j]) into dst[j] for j = i, i+1, ... in groups of
// four, and returns the first j it did not write: where fewer than four
// elements remain, or at a group with an element outside (-700, 700) or
// NaN, which the caller takes one element at a time. dst must be at least
// as long as x.
//
//go:noescape
func expAVX2(dst, x []float64, i int) int

// sigmoidPairsAVX2 writes SigmoidPairOf(s[j]) into dst[2j] and dst[2j+1]
// for j = i-1, i-2, ... in groups of four, from the end, swapped where
// y[j] is odd if y is not nil (SigmoidPairsAt), and returns the number of
// elements it left at the start: fewer than four, or up to a group whose
// exponential's argument -|s_j| is below -700 (or NaN), which the caller
// takes one element at a time. dst must hold 2i numbers, and y, if not
// nil, i labels; s may be dst's first i.
//
//go:noescape
func sigmoidPairsAVX2(dst, s []float64, y []uint16, i int) int

// respRowsAVX2 is RespRows for rows not empty and len(q) of at least
// four: four classes at a time, the rest one at a time.
//
//go:noescape
func respRowsAVX2(r, q, t []float64, rows []int, m []float64)

// addRowsEachAVX2 is AddRowsEach for the elements [0, n) of each row of
// k numbers, n a multiple of four, and rows not empty; acc may be nil.
//
//go:noescape
func addRowsEachAVX2(t []float64, rows []int, g, acc []float64, k, n int)

// expDigammaPartsAVX2 writes ExpDigammaParts(x[j]) into s[j] and w[j] for
// j = i, i+1, ... in groups of four, and returns the first j it did not
// write: where fewer than four elements remain, or at a group with an
// element below 10⁻¹⁰⁰ or NaN, which the caller takes one element at a
// time. The shifts are taken where x < 7 until no element of the group
// needs one. s and w must be at least as long as x.
//
//go:noescape
func expDigammaPartsAVX2(s, w, x []float64, i int) int

// logAVX2 writes math.Log(x[j]) into dst[j], bit for bit, for j = i, i+1,
// ... in groups of four, and returns the first j it did not write: where
// fewer than four elements remain, or at a group with an element that is
// zero, negative, infinite or NaN, which the caller takes one element at
// a time. dst must be at least as long as x.
//
//go:noescape
func logAVX2(dst, x []float64, i int) int

// haveMathExpAVX2 reports whether MathExpTo uses mathExpAVX2: math.Exp
// takes its code with fused multiply-adds where the processor has FMA and
// AVX (math's useFMA), which is the code the vector loop repeats.
var haveMathExpAVX2 = haveAVX2 && cpu.X86.HasFMA && cpu.X86.HasAVX

// mathExpAVX2 writes math.Exp(x[j]) into dst[j], bit for bit where
// haveMathExpAVX2, for j = i, i+1, ... in groups of four, and returns the
// first j it did not write: where fewer than four elements remain, or at
// a group with an element that is not finite, above math.Exp's overflow
// bound or whose result would be subnormal or zero, which the caller
// takes one element at a time. dst must be at least as long as x.
//
//go:noescape
func mathExpAVX2(dst, x []float64, i int) int

// logToAVX2 writes LogTo(x[j]) into dst[j], bit for bit the scalar loop's,
// for j = i, i+1, ... in groups of four, and returns the first j it did
// not write: where fewer than four elements remain, or at a group with an
// element that is zero, subnormal, negative, infinite or NaN, which the
// caller takes one element at a time. dst must be at least as long as x.
//
//go:noescape
func logToAVX2(dst, x []float64, i int) int

// weightsAVX2 is WeightsTo for the elements [0, m) of x, m a multiple of
// four: Intel's max with 0 as its first operand keeps a NaN and a zero of
// either sign, and adding +0 then turns -0 into +0, which is Go's max.
//
//go:noescape
func weightsAVX2(x, g []float64, a, n float64, m int) float64

// divMaxAVX2 is DivMaxTo for the elements [0, m) of x, m a multiple of
// four, and a positive floor: Intel's max with the floor as its first
// operand keeps a NaN quotient, and with a positive floor there is no
// pair of zeros, so it is Go's max.
//
//go:noescape
func divMaxAVX2(x []float64, s, floor float64, m int)

// respPairsAVX is RespPairs' loop for slices of the right lengths, with
// the labels' two classes in one register; it returns done = -1 at a
// worker whose row lies outside t.
//
//go:noescape
func respPairsAVX(t, gw []float64, worker []int32, label []uint16, ends []int, b, ex, gb, r []float64, prod float64, scale int) (float64, int, int)

// posteriorPairsAVX is PosteriorPairs' loop for slices of the right
// lengths, with both classes in one register; it returns done = -1 at a
// worker whose row lies outside t.
//
//go:noescape
func posteriorPairsAVX(t, gw []float64, worker []int32, label []uint16, ends []int, p0, p1 float64, acc []float64, m float64, e int) (float64, int, int)

// posteriorPairsRhoAVX is PosteriorPairsRho's loop for slices of the right
// lengths (the groups' offsets off, at least two), with both classes in
// one register; it returns done = -1 at a worker whose row lies outside t.
//
//go:noescape
func posteriorPairsRhoAVX(t, gw []float64, worker []int32, label []uint16, off []int, p0, p1 float64, rho, sums []float64, change, m float64, e int) (float64, float64, int, int)

// posteriorRowsAVX is PosteriorRows' loop for slices of the right lengths
// and K ≥ 4, with the product as M and E; its last result is the number of
// groups done, or -1 if a label's row lies outside t.
//
//go:noescape
func posteriorRowsAVX(t, gw []float64, worker []int32, label []uint16, ends []int, p, s, acc []float64, m float64, e int) (float64, int, int)

// respRowsGroupsAVX is RespRowsGroups' loop for slices of the right
// lengths and K ≥ 4; its last result is the number of groups done, or -1
// if a label's row lies outside t.
//
//go:noescape
func respRowsGroupsAVX(t, gw []float64, worker []int32, label []uint16, ends []int, q, gb, r, acc []float64, prod float64, scale int) (float64, int, int)

// respPairsBatchAVX is RespPairsBatch's loop for slices of the right
// lengths, with the labels' two classes in one register.
//
//go:noescape
func respPairsBatchAVX(p, g []float64, ends []int, b, ex, gb []float64, prod float64, scale int) (float64, int, int)

// oddsPairsAVX is OddsPairs for the objects [0, m), m a multiple of four,
// four at a time: Intel's max with 0 as its first operand keeps a NaN and
// a zero of either sign, and adding +0 then turns -0 into +0, which is
// Go's max; where the sum is positive neither weight is a NaN.
//
//go:noescape
func oddsPairsAVX(odds, b, g, ex []float64, off []int, pseudo, floor float64, m int)

// shiftMaxRowsAVX2 is ShiftMaxRows for n ≥ 1 rows of k ≥ 4 numbers, the
// four chains of a row's largest element the lanes of one vector.
//
//go:noescape
func shiftMaxRowsAVX2(dst, b []float64, k, n int)
