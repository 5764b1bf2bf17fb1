package dsmix

// CoinCounts returns the one-coin kind's a + c_w and a + b + c_w + e_w of
// worker w: the pseudo-counts of its accuracy's Beta posterior and their
// sum.
func (x *Mix) CoinCounts(w int) (pa, pab float64) {
	return x.a + x.c[w], x.a + x.b + x.c[w] + x.e[w]
}

// CavityMean averages into p (the full kind's cavity means of P(y | z),
// one a class z) the other kinds' means for worker w without its label y,
// whose expected counts were r; right is the one-coin kind's accuracy
// without it.
func (x *Mix) CavityMean(w, y int, right float64, r, p []float64) {
	m, mc := x.Shares(w, false)
	mo := max(1-m-mc, 0)
	k := len(p)
	cl := x.cls
	if cl == nil {
		for z := range k {
			v := 1 - right
			if z == y {
				v = right
			} else if k > 2 {
				v *= x.mu[z*k+y]
			}
			p[z] = m*p[z] + mo*v
		}
		return
	}
	for z := range k {
		var v, vc float64
		if z == y {
			v = right
			cz := max(cl.cz[w*k+z]-r[z], 0)
			vc = (cl.a + cz) / (cl.a + cl.b + cz + cl.ez[w*k+z])
		} else {
			mu := x.mu[z*k+y]
			n := max(cl.off[(w*k+z)*k+y]-r[z], 0)
			ez := max(cl.ez[w*k+z]-r[z], 0)
			v = (1 - right) * (cl.one.Kap*mu + n) / (cl.one.Kap + ez)
			qa, qb := cl.a+cl.cz[w*k+z], cl.b+ez
			vc = qb / (qa + qb) * (cl.cls.Kap*mu + n) / (cl.cls.Kap + ez)
		}
		p[z] = m*p[z] + mo*v + mc*vc
	}
}
