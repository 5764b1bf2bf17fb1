//go:build amd64 && !purego && !amd64.v3

package num

// haveUnfusedAVX2 reports whether the processor has AVX2 (haveAVX2) on a
// build that rounds every product before a sum takes it: GOAMD64 below
// v3, whose Go code, such as mathext.Digamma's and math.Lgamma's, a vector
// loop without fused multiply-adds repeats bit for bit. DigammaTo, LgammaTo
// and LgammaDigammaTo then take four arguments at a time
// (digammaShiftAVX2, digammaSeriesAVX2, lgammaArgAVX2, lgammaValueAVX2,
// lgdgShiftAVX2, lgdgSeriesAVX2), with the scalar loops' operations in
// their order; a GOAMD64=v3 build fuses multiply-adds in the scalar code
// and keeps the scalar loops (UnfusedVectorised).
var haveUnfusedAVX2 = haveAVX2

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

// lgammaArgAVX2 writes lgammaLogArg(x[j]) into dst[j] for j = i, i+4, ...
// in groups of four, and returns the first j it did not write: where fewer
// than four elements remain, or at a group with an element outside
// (2, 2⁵⁸), which the caller takes one element at a time.
//
//go:noescape
func lgammaArgAVX2(dst, x []float64, i int) int

// lgammaValueAVX2 sets dst[j] = lgammaWithLog(x[j], dst[j]) for j = i,
// i+4, ... in groups of four, and returns the first j it did not set, as
// lgammaArgAVX2 does.
//
//go:noescape
func lgammaValueAVX2(dst, x []float64, i int) int

// lgdgShiftAVX2 writes LgammaDigammaTo's shifted argument, product and sum
// of reciprocals of x[j] into u[j], prod[j] and inv[j] for j = i, i+4, ...
// in groups of four, and returns the first j it did not write: where fewer
// than four elements remain, or at a group with an element that is not
// positive and finite, which the caller takes one element at a time.
//
//go:noescape
func lgdgShiftAVX2(u, prod, inv, x []float64, i int) int

// lgdgSeriesAVX2 writes LgammaDigammaTo's log Γ and ψ of every j of u into
// lg[j] and ps[j], given lu[j] = log u[j], lp[j] the logarithm of the
// shift's product, sh[j] its sum of reciprocals and h = ½ log 2π; len(u)
// must be a multiple of four.
//
//go:noescape
func lgdgSeriesAVX2(lg, ps, u, lu, lp, sh []float64, h float64)
