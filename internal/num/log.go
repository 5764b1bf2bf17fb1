package num

import "math"

// logN is the number of table entries per octave of Log.
const logN = 128

// logTable holds, for i in [0, logN), c_i = 1 + i/logN, 1/c_i and log c_i.
var logTable = func() (t [logN][3]float64) {
	for i := range t {
		c := 1 + float64(i)/logN
		t[i] = [3]float64{c, 1 / c, math.Log(c)}
	}
	return t
}()

// Log returns log x for x > 0, within a few ulp plus 2·10⁻¹⁶ of
// math.Log (an absolute error, which matters for x just below 1) and
// faster: x = 2^e·m with m in [1, 2), c_i ≤ m < c_i + 1/logN
// from a table, u = (m - c_i)/c_i in [0, 1/logN) and
//
//	log x = e·log 2 + log c_i + log(1 + u),
//
// the last term from its degree-7 Taylor polynomial (truncation error
// below 2·10⁻¹⁸). Zero, negative, subnormal, infinite and NaN arguments go to
// math.Log.
//
// A loop over many independent arguments is faster with LogTo, which gives
// the same results.
func Log(x float64) float64 {
	d := [1]float64{x}
	LogTo(d[:], d[:])
	return d[0]
}

// LogTo writes Log(x[i]) into dst[i] for every i of x, faster than calling
// Log in a loop (see ExpTo). On amd64 with AVX2 it takes four elements at a
// time, with the scalar loop's operations in its order (no fused
// multiply-add), so the results are the same bit for bit. dst must be at
// least as long as x and may be x itself.
func LogTo(dst, x []float64) {
	dst = dst[:len(x)]
	if !haveAVX2 {
		logTo(dst, x)
		return
	}
	for i := 0; i < len(x); i++ {
		i = logToAVX2(dst, x, i)
		if i < len(x) {
			logTo(dst[i:i+1], x[i:i+1])
		}
	}
}

// logTo is LogTo's scalar loop. Every product is rounded before the sum
// that takes it (float64), so that a build for GOAMD64=v3 does not fuse
// the two into a multiply-add and gives the vector loop's results.
func logTo(dst, x []float64) {
	const (
		ln2Hi = 6.93147180369123816490e-01 // ex·ln2Hi is exact
		ln2Lo = 1.90821492927058770002e-10
	)
	dst = dst[:len(x)]
	for i, v := range x {
		bits := math.Float64bits(v)
		ex := int(bits>>52) - 1023 // the sign bit is 0 for v > 0
		if ex <= -1023 || ex >= 1024 {
			dst[i] = math.Log(v)
			continue
		}
		c := &logTable[(bits>>(52-7))&(logN-1)]
		m := math.Float64frombits(bits&(1<<52-1) | 1023<<52)
		u := (m - c[0]) * c[1] // m - c_i is exact
		p := float64(u * (1.0 / 7))
		p = float64(u * (1.0/6 - p))
		p = float64(u * (1.0/5 - p))
		p = float64(u * (1.0/4 - p))
		p = float64(u * (1.0/3 - p))
		p = float64(u * (1.0/2 - p))
		p = float64(u * (1 - p))
		e := float64(ex)
		dst[i] = float64(e*ln2Hi) + (c[2] + (p + float64(e*ln2Lo)))
	}
}

// MathLogTo writes math.Log(x[i]) into dst[i] for every i of x, bit for
// bit on every build: on amd64 with AVX2, four at a time by the
// operations of math.Log's amd64 code in their order (an element that is
// zero, negative, infinite or NaN sends its group of four to math.Log).
// dst must be at least as long as x and may be x itself. Unlike LogTo,
// whose results may differ from math.Log's in the last bit, it can
// replace a loop of math.Log calls without changing any result.
func MathLogTo(dst, x []float64) {
	dst = dst[:len(x)]
	for i := 0; i < len(x); i++ {
		if haveAVX2 && len(x)-i >= 4 {
			if i = logAVX2(dst, x, i); i == len(x) {
				break
			}
		}
		dst[i] = math.Log(x[i])
	}
}

// MathExpTo writes math.Exp(x[i]) into dst[i] for every i of x, bit for
// bit on every build: on amd64 with AVX2 and FMA, four at a time by the
// operations of math.Exp's amd64 code in their order (a group with an
// element that is not finite, above the overflow bound or whose result is
// subnormal or zero goes to math.Exp). dst must be at least as long as x
// and may be x itself. Unlike ExpTo, whose results may differ from
// math.Exp's in the last bit, it can replace a loop of math.Exp calls
// without changing any result.
func MathExpTo(dst, x []float64) {
	// The loop of MathLogTo, written out: with the kernel and the scalar
	// function passed as values, dst and x would escape to the heap, and
	// so would every caller's buffer.
	dst = dst[:len(x)]
	for i := 0; i < len(x); i++ {
		if haveMathExpAVX2 && len(x)-i >= 4 {
			if i = mathExpAVX2(dst, x, i); i == len(x) {
				break
			}
		}
		dst[i] = math.Exp(x[i])
	}
}
