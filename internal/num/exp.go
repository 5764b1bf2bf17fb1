package num

import "math"

// expN is the number of table entries per octave of Exp.
const expN = 128

// expTable holds 2^(i/expN) for i in [0, expN).
var expTable = func() [expN]float64 {
	var t [expN]float64
	for i := range t {
		t[i] = math.Exp2(float64(i) / expN)
	}
	return t
}()

// The constants of ExpTo.
const (
	invLn2N = expN / math.Ln2
	// log(2)/expN in two parts, the first with enough trailing zero bits
	// that k·ln2Hi is exact for |k| < 2²⁰.
	expLn2Hi = 6.93147180369123816490e-01 / expN
	expLn2Lo = 1.90821492927058770002e-10 / expN
	round    = 0x1.8p52 // adding and subtracting it rounds to an integer
)

// Exp returns e^x, within about 2 ulp of math.Exp, and faster than it in
// hot loops: x = (m·expN + i)·log(2)/expN + r with |r| ≤ log(2)/(2·expN),
// e^x = 2^m · 2^(i/expN) · e^r, the middle factor from a table and e^r from
// its degree-5 Taylor polynomial (truncation error below 10⁻¹⁸). Outside
// [-700, 700], and for NaN, it returns math.Exp(x).
//
// A loop over many independent arguments is faster with ExpTo, which gives
// the same results.
//
// Every product that an addition takes is converted to float64 explicitly,
// which keeps the compiler from fusing the two into one multiply-add (as it
// may when building for GOAMD64=v3): the results are then the same on
// every build, and the same as ExpTo's vector loop.
//
// Its body is ExpTo's loop body, written out twice on purpose: as one
// function called from both (too large for the compiler to inline), it
// would cost a call per element in ExpTo, and calling ExpTo from Exp costs
// about 2 ns per call, which the callers of one value at a time (the
// default's K = 2 update, twice per object and step) would pay.
func Exp(x float64) float64 {
	if !(x > -700 && x < 700) {
		return math.Exp(x)
	}
	kf := float64(x*invLn2N) + round
	kf -= round
	k := int64(kf)
	r := (x - float64(kf*expLn2Hi)) - float64(kf*expLn2Lo)
	// e^r - 1, added to 1 last for accuracy.
	q := r + float64(float64(r*r)*(1.0/2+float64(r*(1.0/6+float64(r*(1.0/24+float64(r*(1.0/120))))))))
	t := expTable[k&(expN-1)]
	t += float64(t * q)
	return math.Float64frombits(math.Float64bits(t) + uint64(k>>7)<<52)
}

// ExpTo writes Exp(x[i]) into dst[i] for every i of x. With no call per
// element, consecutive elements overlap in the processor: it takes about
// half the time of calling Exp in a loop. On amd64 with AVX2 it takes four
// elements at a time, with the same operations in the same order (no fused
// multiply-add), so the results are the same bit for bit; build with the
// tag purego for the scalar loop alone. dst must be at least as long as x
// and may be x itself.
func ExpTo(dst, x []float64) {
	dst = dst[:len(x)]
	if !haveAVX2 {
		expTo(dst, x)
		return
	}
	for i := 0; i < len(x); i++ {
		i = expAVX2(dst, x, i)
		if i < len(x) {
			expTo(dst[i:i+1], x[i:i+1])
		}
	}
}

// expTo is ExpTo's scalar loop.
func expTo(dst, x []float64) {
	dst = dst[:len(x)]
	for i, v := range x {
		if !(v > -700 && v < 700) {
			dst[i] = math.Exp(v)
			continue
		}
		kf := float64(v*invLn2N) + round
		kf -= round
		k := int64(kf)
		r := (v - float64(kf*expLn2Hi)) - float64(kf*expLn2Lo)
		q := r + float64(float64(r*r)*(1.0/2+float64(r*(1.0/6+float64(r*(1.0/24+float64(r*(1.0/120))))))))
		t := expTable[k&(expN-1)]
		t += float64(t * q)
		dst[i] = math.Float64frombits(math.Float64bits(t) + uint64(k>>7)<<52)
	}
}
