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
	var ga, gb, haa, hbb, hab, den float64
	pa, pb, pab := Digamma(a), Digamma(b), Digamma(a+b)
	ta, tb, tab := Trigamma(a), Trigamma(b), Trigamma(a+b)
	for i, ui := range u {
		t := c[i] + e[i]
		if ui < 1e-12 || t <= 0 {
			continue
		}
		dn, tn := Digamma(a+b+t), Trigamma(a+b+t)
		ga += ui * (Digamma(a+c[i]) - pa)
		gb += ui * (Digamma(b+e[i]) - pb)
		den += ui * (dn - pab)
		haa += ui * (Trigamma(a+c[i]) - ta)
		hbb += ui * (Trigamma(b+e[i]) - tb)
		hab += ui * (tab - tn)
	}
	if den <= 0 || ga <= 0 || gb <= 0 {
		return a, b
	}
	// The gradient is (ga − den, gb − den); the Hessian adds the cross
	// term hab to both diagonal entries.
	na, nb := a*ga/den, b*gb/den // the fixed point's step
	haa, hbb = haa+hab, hbb+hab
	if det := haa*hbb - hab*hab; haa < 0 && det > 0 {
		fa, fb := ga-den, gb-den
		da := -(hbb*fa - hab*fb) / det
		db := -(haa*fb - hab*fa) / det
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
