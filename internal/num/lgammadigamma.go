package num

import "math"

// gammaShift is the argument from which LgammaDigammaTo takes the
// asymptotic series; smaller arguments are shifted up to it by the
// recurrences.
const gammaShift = 10

// LgammaDigammaTo writes log Γ(x[i]) into lg[i] and ψ(x[i]) into ps[i]
// for every i of x (positive and finite): one pass that shares the
// logarithms of the two, taken four at a time (MathLogTo). An argument
// below 10 is shifted up by the recurrences, u = x + m ≥ 10 with
// log Γ(x) = log Γ(u) − log Π_{i<m} (x + i) and ψ(x) = ψ(u) − Σ_{i<m}
// 1/(x + i); at u the Stirling series
//
//	log Γ(u) = (u − ½) log u − u + ½ log 2π + 1/(12u) − 1/(360u³) + 1/(1260u⁵) − 1/(1680u⁷) + 1/(1188u⁹),
//	ψ(u)     = log u − 1/(2u) − 1/(12u²) + 1/(120u⁴) − 1/(252u⁶) + 1/(240u⁸) − 1/(132u¹⁰),
//
// whose next terms are below 2·10⁻¹⁴ there (Abramowitz and Stegun 6.1.41,
// 6.3.18); on amd64 with AVX2 the shifts and the series are taken four
// arguments at a time too, in the same operations and order
// (haveUnfusedAVX2). The values agree with math.Lgamma and gonum's mathext.Digamma
// within about 10⁻¹³ of max(1, |value|) (TestLgammaDigammaTo), not bit for
// bit. lg and ps must be at least as long as x; neither may overlap x.
func LgammaDigammaTo(lg, ps, x []float64) {
	const block = 64
	var logs [2 * block]float64
	var shift, us [block]float64
	halfLog2Pi := 0.5 * math.Log(2*math.Pi)
	for lo := 0; lo < len(x); lo += block {
		xs := x[lo:min(lo+block, len(x))]
		n := len(xs)
		for i := 0; i < n; i++ {
			if haveUnfusedAVX2 && n-i >= 4 {
				if i = lgdgShiftAVX2(us[:n], logs[n:2*n], shift[:n], xs, i); i == n {
					break
				}
			}
			u, prod, inv := xs[i], 1.0, 0.0
			for ; u < gammaShift; u++ {
				prod *= u
				inv += 1 / u
			}
			logs[n+i], shift[i], us[i] = prod, inv, u
		}
		copy(logs[:n], us[:n])
		MathLogTo(logs[:2*n], logs[:2*n])
		m := 0
		if haveUnfusedAVX2 {
			m = n &^ 3
			lgdgSeriesAVX2(lg[lo:lo+m], ps[lo:lo+m], us[:m], logs[:m], logs[n:n+m], shift[:m], halfLog2Pi)
		}
		for i := m; i < n; i++ {
			u := us[i]
			lu := logs[i]
			r := 1 / u
			r2 := r * r
			lg[lo+i] = (u-0.5)*lu - u + halfLog2Pi +
				r*(1.0/12-r2*(1.0/360-r2*(1.0/1260-r2*(1.0/1680-r2/1188)))) - logs[n+i]
			ps[lo+i] = lu - 0.5*r - r2*(1.0/12-r2*(1.0/120-r2*(1.0/252-r2*(1.0/240-r2/132)))) - shift[i]
		}
	}
}
