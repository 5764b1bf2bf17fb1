package num

import "math"

// LgammaTo writes log|Γ(x[i])| into dst[i] for every i of x: the first
// result of math.Lgamma, bit for bit on every build, with the logarithms
// that math.Lgamma's branches take (of x below 0.9 or from 8 on, of a
// product of shifted arguments between 3 and 8) computed for all of x in
// one MathLogTo call, four at a time where it can, instead of one math.Log
// call each; on amd64 with AVX2 the arguments of a group of four in
// (2, 2⁵⁸) take the branches from 2 on four at a time too, with
// math.Lgamma's operations in its order (haveUnfusedAVX2). Values that
// math.Lgamma treats specially (not positive and finite, below 2⁻⁷⁰ or
// from 2⁵⁸ on) are given to math.Lgamma itself. dst must be at least as
// long as x and must not overlap it.
//
// The branches and their polynomials are math.Lgamma's (Go's
// math/lgamma.go, from FreeBSD's e_lgamma_r.c), written in the same
// operations and order.
func LgammaTo(dst, x []float64) {
	dst = dst[:len(x)]
	for i := 0; i < len(x); i++ { // the argument of each logarithm, or 1
		if haveUnfusedAVX2 && len(x)-i >= 4 {
			if i = lgammaArgAVX2(dst, x, i); i == len(x) {
				break
			}
		}
		dst[i] = lgammaLogArg(x[i])
	}
	MathLogTo(dst, dst)
	for i := 0; i < len(x); i++ {
		if haveUnfusedAVX2 && len(x)-i >= 4 {
			if i = lgammaValueAVX2(dst, x, i); i == len(x) {
				break
			}
		}
		dst[i] = lgammaWithLog(x[i], dst[i])
	}
}

// Bounds of math.Lgamma's branches.
const (
	lgamTiny  = 1.0 / (1 << 70)
	lgamTwo58 = 1 << 58
	lgamYmin  = 1.461632144968362245
	lgamTc    = 1.46163214496836224576e+00
	lgamTf    = -1.21486290535849611461e-01
	lgamTt    = -3.63867699703950536541e-18
)

// lgammaSpecial reports whether math.Lgamma computes x by a branch that
// LgammaTo leaves to it: x not a finite number in [2⁻⁷⁰, 2⁵⁸), or 1 or 2.
func lgammaSpecial(x float64) bool {
	return !(x >= lgamTiny && x < lgamTwo58) || x == 1 || x == 2
}

// lgammaLogArg returns the argument of the logarithm that math.Lgamma
// takes for x, or 1 where it takes none (or x is special).
func lgammaLogArg(x float64) float64 {
	switch {
	case lgammaSpecial(x):
		return 1
	case x < 2:
		if x <= 0.9 {
			return x
		}
		return 1
	case x < 8:
		i := int(x)
		y := x - float64(i)
		z := 1.0
		switch i {
		case 7:
			z *= (y + 6)
			fallthrough
		case 6:
			z *= (y + 5)
			fallthrough
		case 5:
			z *= (y + 4)
			fallthrough
		case 4:
			z *= (y + 3)
			fallthrough
		case 3:
			z *= (y + 2)
			return z
		}
		return 1
	}
	return x
}

// lgammaWithLog returns math.Lgamma(x)'s first result given log, the
// logarithm of lgammaLogArg(x).
func lgammaWithLog(x, log float64) float64 {
	if lgammaSpecial(x) {
		lg, _ := math.Lgamma(x)
		return lg
	}
	var lgamma float64
	switch {
	case x < 2: // lgamma(x) = lgamma(x+1) - log(x)
		var y float64
		var i int
		if x <= 0.9 {
			lgamma = -log
			switch {
			case x >= (lgamYmin - 1 + 0.27): // 0.7316 <= x <= 0.9
				y = 1 - x
				i = 0
			case x >= (lgamYmin - 1 - 0.27): // 0.2316 <= x < 0.7316
				y = x - (lgamTc - 1)
				i = 1
			default: // 0 < x < 0.2316
				y = x
				i = 2
			}
		} else {
			lgamma = 0
			switch {
			case x >= (lgamYmin + 0.27): // 1.7316 <= x < 2
				y = 2 - x
				i = 0
			case x >= (lgamYmin - 0.27): // 1.2316 <= x < 1.7316
				y = x - lgamTc
				i = 1
			default: // 0.9 < x < 1.2316
				y = x - 1
				i = 2
			}
		}
		switch i {
		case 0:
			z := y * y
			p1 := lgamA[0] + z*(lgamA[2]+z*(lgamA[4]+z*(lgamA[6]+z*(lgamA[8]+z*lgamA[10]))))
			p2 := z * (lgamA[1] + z*(+lgamA[3]+z*(lgamA[5]+z*(lgamA[7]+z*(lgamA[9]+z*lgamA[11])))))
			p := y*p1 + p2
			lgamma += (p - 0.5*y)
		case 1:
			z := y * y
			w := z * y
			p1 := lgamT[0] + w*(lgamT[3]+w*(lgamT[6]+w*(lgamT[9]+w*lgamT[12])))
			p2 := lgamT[1] + w*(lgamT[4]+w*(lgamT[7]+w*(lgamT[10]+w*lgamT[13])))
			p3 := lgamT[2] + w*(lgamT[5]+w*(lgamT[8]+w*(lgamT[11]+w*lgamT[14])))
			p := z*p1 - (lgamTt - w*(p2+y*p3))
			lgamma += (lgamTf + p)
		case 2:
			p1 := y * (lgamU[0] + y*(lgamU[1]+y*(lgamU[2]+y*(lgamU[3]+y*(lgamU[4]+y*lgamU[5])))))
			p2 := 1 + y*(lgamV[1]+y*(lgamV[2]+y*(lgamV[3]+y*(lgamV[4]+y*lgamV[5]))))
			lgamma += (-0.5*y + p1/p2)
		}
	case x < 8: // 2 <= x < 8
		i := int(x)
		y := x - float64(i)
		p := y * (lgamS[0] + y*(lgamS[1]+y*(lgamS[2]+y*(lgamS[3]+y*(lgamS[4]+y*(lgamS[5]+y*lgamS[6]))))))
		q := 1 + y*(lgamR[1]+y*(lgamR[2]+y*(lgamR[3]+y*(lgamR[4]+y*(lgamR[5]+y*lgamR[6])))))
		lgamma = 0.5*y + p/q
		if i >= 3 { // Lgamma(1+s) = Log(s) + Lgamma(s)
			lgamma += log
		}
	default: // 8 <= x < 2**58
		t := log
		z := 1 / x
		y := z * z
		w := lgamW[0] + z*(lgamW[1]+y*(lgamW[2]+y*(lgamW[3]+y*(lgamW[4]+y*(lgamW[5]+y*lgamW[6])))))
		lgamma = (x-0.5)*(t-1) + w
	}
	return lgamma
}

// The coefficients of math.Lgamma's polynomials.
var lgamA = [...]float64{
	7.72156649015328655494e-02, // 0x3FB3C467E37DB0C8
	3.22467033424113591611e-01, // 0x3FD4A34CC4A60FAD
	6.73523010531292681824e-02, // 0x3FB13E001A5562A7
	2.05808084325167332806e-02, // 0x3F951322AC92547B
	7.38555086081402883957e-03, // 0x3F7E404FB68FEFE8
	2.89051383673415629091e-03, // 0x3F67ADD8CCB7926B
	1.19270763183362067845e-03, // 0x3F538A94116F3F5D
	5.10069792153511336608e-04, // 0x3F40B6C689B99C00
	2.20862790713908385557e-04, // 0x3F2CF2ECED10E54D
	1.08011567247583939954e-04, // 0x3F1C5088987DFB07
	2.52144565451257326939e-05, // 0x3EFA7074428CFA52
	4.48640949618915160150e-05, // 0x3F07858E90A45837
}
var lgamR = [...]float64{
	1.0,                        // placeholder
	1.39200533467621045958e+00, // 0x3FF645A762C4AB74
	7.21935547567138069525e-01, // 0x3FE71A1893D3DCDC
	1.71933865632803078993e-01, // 0x3FC601EDCCFBDF27
	1.86459191715652901344e-02, // 0x3F9317EA742ED475
	7.77942496381893596434e-04, // 0x3F497DDACA41A95B
	7.32668430744625636189e-06, // 0x3EDEBAF7A5B38140
}
var lgamS = [...]float64{
	-7.72156649015328655494e-02, // 0xBFB3C467E37DB0C8
	2.14982415960608852501e-01,  // 0x3FCB848B36E20878
	3.25778796408930981787e-01,  // 0x3FD4D98F4F139F59
	1.46350472652464452805e-01,  // 0x3FC2BB9CBEE5F2F7
	2.66422703033638609560e-02,  // 0x3F9B481C7E939961
	1.84028451407337715652e-03,  // 0x3F5E26B67368F239
	3.19475326584100867617e-05,  // 0x3F00BFECDD17E945
}
var lgamT = [...]float64{
	4.83836122723810047042e-01,  // 0x3FDEF72BC8EE38A2
	-1.47587722994593911752e-01, // 0xBFC2E4278DC6C509
	6.46249402391333854778e-02,  // 0x3FB08B4294D5419B
	-3.27885410759859649565e-02, // 0xBFA0C9A8DF35B713
	1.79706750811820387126e-02,  // 0x3F9266E7970AF9EC
	-1.03142241298341437450e-02, // 0xBF851F9FBA91EC6A
	6.10053870246291332635e-03,  // 0x3F78FCE0E370E344
	-3.68452016781138256760e-03, // 0xBF6E2EFFB3E914D7
	2.25964780900612472250e-03,  // 0x3F6282D32E15C915
	-1.40346469989232843813e-03, // 0xBF56FE8EBF2D1AF1
	8.81081882437654011382e-04,  // 0x3F4CDF0CEF61A8E9
	-5.38595305356740546715e-04, // 0xBF41A6109C73E0EC
	3.15632070903625950361e-04,  // 0x3F34AF6D6C0EBBF7
	-3.12754168375120860518e-04, // 0xBF347F24ECC38C38
	3.35529192635519073543e-04,  // 0x3F35FD3EE8C2D3F4
}
var lgamU = [...]float64{
	-7.72156649015328655494e-02, // 0xBFB3C467E37DB0C8
	6.32827064025093366517e-01,  // 0x3FE4401E8B005DFF
	1.45492250137234768737e+00,  // 0x3FF7475CD119BD6F
	9.77717527963372745603e-01,  // 0x3FEF497644EA8450
	2.28963728064692451092e-01,  // 0x3FCD4EAEF6010924
	1.33810918536787660377e-02,  // 0x3F8B678BBF2BAB09
}
var lgamV = [...]float64{
	1.0,
	2.45597793713041134822e+00, // 0x4003A5D7C2BD619C
	2.12848976379893395361e+00, // 0x40010725A42B18F5
	7.69285150456672783825e-01, // 0x3FE89DFBE45050AF
	1.04222645593369134254e-01, // 0x3FBAAE55D6537C88
	3.21709242282423911810e-03, // 0x3F6A5ABB57D0CF61
}
var lgamW = [...]float64{
	4.18938533204672725052e-01,  // 0x3FDACFE390C97D69
	8.33333333333329678849e-02,  // 0x3FB555555555553B
	-2.77777777728775536470e-03, // 0xBF66C16C16B02E5C
	7.93650558643019558500e-04,  // 0x3F4A019F98CF38B6
	-5.95187557450339963135e-04, // 0xBF4380CB8C0FE741
	8.36339918996282139126e-04,  // 0x3F4B67BA4CDAD5D1
	-1.63092934096575273989e-03, // 0xBF5AB89D0B9E43E4
}
