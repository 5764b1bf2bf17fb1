package num

// BetaBinomialStep returns (a, b) after one step towards the maximiser of the
// Beta-binomial likelihood of the counts (c_i, e_i) weighted by u_i,
//
//	L(a, b) = Σ_i u_i [log B(a + c_i, b + e_i) − log B(a, b)],
//
// whose gradient and Hessian are sums of digammas and trigammas: Newton's
// step where the Hessian is negative definite, changing no value by more
// than a factor of two, and otherwise the fixed point of Minka
// (Estimating a Dirichlet distribution, 2000, eq. 55). The counts of
// weight below 10⁻¹² or with c_i + e_i = 0 do not count; with no count,
// or a gradient that the fixed point cannot follow, it returns (a, b).
func BetaBinomialStep(a, b float64, c, e, u []float64) (float64, float64) {
	g, h, den := BetaBinomialDerivs(a, b, c, e, u)
	// The fixed point's step needs the gradient's positive parts.
	ga, gb := g[0]+den, g[1]+den
	if den <= 0 || ga <= 0 || gb <= 0 {
		return a, b
	}
	na, nb := a*ga/den, b*gb/den // the fixed point's step
	haa, hbb, hab := h[0][0], h[1][1], h[0][1]
	if det := haa*hbb - hab*hab; haa < 0 && det > 0 {
		da := -(hbb*g[0] - hab*g[1]) / det
		db := -(haa*g[1] - hab*g[0]) / det
		// At most halve or double a value in one step.
		step := 1.0
		for _, r := range [...]float64{da / a, db / b} {
			if r < -0.5 {
				step = min(step, -0.5/r)
			} else if r > 1 {
				step = min(step, 1/r)
			}
		}
		na, nb = a+step*da, b+step*db
	}
	return na, nb
}

// BetaBinomialDerivs returns the gradient g and the Hessian h in (a, b) of
// BetaBinomialStep's weighted Beta-binomial likelihood L(a, b), and
// den = Σ_i u_i [ψ(a + b + c_i + e_i) − ψ(a + b)], the part of each
// gradient entry common to both:
//
//	g_a = Σ_i u_i [ψ(a + c_i) − ψ(a)] − den, and likewise g_b,
//	h_ab = Σ_i u_i [ψ′(a + b) − ψ′(a + b + c_i + e_i)],
//	h_aa = Σ_i u_i [ψ′(a + c_i) − ψ′(a)] + h_ab, and likewise h_bb,
//
// over the counts that BetaBinomialStep reads.
func BetaBinomialDerivs(a, b float64, c, e, u []float64) (g [2]float64, h [2][2]float64, den float64) {
	var ga, gb, haa, hbb, hab float64
	pa, pb, pab := Digamma(a), Digamma(b), Digamma(a+b)
	ta, tb, tab := Trigamma(a), Trigamma(b), Trigamma(a+b)
	// The digammas of a block of counts in one DigammaTo call each (bit
	// for bit Digamma's), summed in the counts' order.
	var idx [digammaBlock]int32
	var da, db, dn [digammaBlock]float64
	for lo := 0; lo < len(u); {
		m := 0
		for ; lo < len(u) && m < digammaBlock; lo++ {
			t := c[lo] + e[lo]
			if u[lo] < 1e-12 || t <= 0 {
				continue
			}
			idx[m], da[m], db[m], dn[m] = int32(lo), a+c[lo], b+e[lo], a+b+t
			m++
		}
		DigammaTo(da[:m], da[:m])
		DigammaTo(db[:m], db[:m])
		DigammaTo(dn[:m], dn[:m])
		for j, i := range idx[:m] {
			ui, t := u[i], c[i]+e[i]
			tn := Trigamma(a + b + t)
			ga += ui * (da[j] - pa)
			gb += ui * (db[j] - pb)
			den += ui * (dn[j] - pab)
			haa += ui * (Trigamma(a+c[i]) - ta)
			hbb += ui * (Trigamma(b+e[i]) - tb)
			hab += ui * (tab - tn)
		}
	}
	g = [2]float64{ga - den, gb - den}
	h = [2][2]float64{{haa + hab, hab}, {hab, hbb + hab}}
	return g, h, den
}
