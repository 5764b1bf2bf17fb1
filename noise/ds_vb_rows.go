package noise

import "github.com/consensuslab/consensus/internal/num"

// rowsBlock is the number of confusion rows whose special functions
// setRows takes in one batch.
const rowsBlock = 64

// rowScratch is setRows' scratch for one goroutine: the arguments of a
// block's digammas and log-gammas (a row's K pseudo-counts, then their
// sum), and the log-gammas.
type rowScratch struct {
	args, lg []float64
}

// setRows sets the pseudo-counts not held of the rows [r0, r1) (flat row
// indices times K) to β + acc, at least β, or with exact to exact's, at
// least sharedFloor; their expected logarithms E[log π] =
// ψ(λ_wz(y)) − ψ(Σ_y λ_wz(y)); and with bound their KL divergences from
// the prior into v.kl, under norm (the prior rows' shared
// num.DirichletLogNorm) or, with an estimated prior, norms[z]. The values
// are num.DirichletExpLog's and num.DirichletKL's bit for bit: the
// digammas and log-gammas of a block of rows are taken in one call each
// (num.DigammaTo, num.LgammaTo, which give mathext.Digamma's and
// math.Lgamma's values), and summed in those functions' order.
func (v *dsVB) setRows(r0, r1 int, acc, exact []float64, norm float64, norms []float64, bound bool, sc *rowScratch) {
	k := v.e.k
	k2 := k * k
	beta := make([]float64, k)
	if len(sc.args) < rowsBlock*(k+1) {
		sc.args, sc.lg = make([]float64, rowsBlock*(k+1)), make([]float64, rowsBlock*(k+1))
	}
	for b0 := r0; b0 < r1; b0 += rowsBlock * k {
		b1 := min(b0+rowsBlock*k, r1)
		n := (b1 - b0) / k * (k + 1)
		args, lg := sc.args[:n], sc.lg[:n]
		for r, i := b0, 0; r < b1; r, i = r+k, i+k+1 {
			base, z := r/k2*k2, (r%k2)/k
			lam := v.lam[r : r+k]
			var s float64
			for y := range lam {
				if v.fixed == nil || !v.fixed[r+y] {
					if exact != nil {
						lam[y] = max(exact[r+y], sharedFloor)
					} else {
						lam[y] = v.prior(z, y) + max(acc[countAt(base, k, z, y)], 0)
					}
				}
				args[i+y] = lam[y]
				s += lam[y]
			}
			args[i+k] = s
		}
		if bound {
			num.LgammaTo(lg, args)
		}
		num.DigammaTo(args, args)
		for r, i := b0, 0; r < b1; r, i = r+k, i+k+1 {
			elog, ps := v.e.logPi[r:r+k], args[i+k]
			for y := range elog {
				elog[y] = args[i+y] - ps
			}
			if !bound {
				continue
			}
			z := (r % k2) / k
			if v.beta != nil {
				norm = norms[z]
			}
			// DirichletKL(λ, β_z, elog, norm), its DirichletLogNorm's
			// log-gammas from the block's.
			var l float64
			for y := range k {
				l -= lg[i+y]
			}
			kl := l + lg[i+k] - norm
			lam := v.lam[r : r+k]
			for y := range k {
				beta[y] = v.prior(z, y)
				kl += (lam[y] - beta[y]) * elog[y]
			}
			v.kl[r/k] = kl
		}
	}
}
