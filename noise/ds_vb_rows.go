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
	// vals holds the values of the arguments that are not their row's
	// prior pseudo-count, whose places at holds; pr, lgPr and psPr the
	// prior's pseudo-counts, K×K, and their log Γ and ψ.
	vals           []float64
	at             []int32
	pr, lgPr, psPr []float64
}

// priorValues sets sc's pr, lgPr and psPr for v's prior.
func (sc *rowScratch) priorValues(v *dsVB) {
	k := v.e.k
	sc.pr = v.priorRows(sc.pr)
	if len(sc.lgPr) != k*k {
		sc.lgPr, sc.psPr = make([]float64, k*k), make([]float64, k*k)
	}
	num.LgammaTo(sc.lgPr, sc.pr)
	num.DigammaTo(sc.psPr, sc.pr)
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
	if len(sc.args) < rowsBlock*(k+1) {
		sc.args, sc.lg = make([]float64, rowsBlock*(k+1)), make([]float64, rowsBlock*(k+1))
		sc.vals, sc.at = make([]float64, 2*rowsBlock*(k+1)), make([]int32, rowsBlock*(k+1))
	}
	sc.priorValues(v)
	for b0 := r0; b0 < r1; b0 += rowsBlock * k {
		b1 := min(b0+rowsBlock*k, r1)
		n := (b1 - b0) / k * (k + 1)
		// A pseudo-count equal to its row's prior's (no count: most of
		// a worker of few labels) takes the prior's log Γ and ψ, the
		// others the batches': the values are the same.
		args, lg := sc.args[:n], sc.lg[:n]
		in, at := sc.vals[:0], sc.at[:0]
		for r, i := b0, 0; r < b1; r, i = r+k, i+k+1 {
			base, z := r/k2*k2, (r%k2)/k
			lam := v.lam[r : r+k]
			pr := sc.pr[z*k : (z+1)*k]
			var s float64
			for y := range lam {
				if v.fixed == nil || !v.fixed[r+y] {
					if exact != nil {
						lam[y] = max(exact[r+y], sharedFloor)
					} else {
						lam[y] = pr[y] + max(acc[countAt(base, k, z, y)], 0)
					}
				}
				if lam[y] == pr[y] {
					args[i+y], lg[i+y] = sc.psPr[z*k+y], sc.lgPr[z*k+y]
				} else {
					in = append(in, lam[y])
					at = append(at, int32(i+y))
				}
				s += lam[y]
			}
			in = append(in, s)
			at = append(at, int32(i+k))
		}
		out := sc.vals[len(sc.at):][:len(in)]
		if bound {
			num.LgammaTo(out, in)
			for m, j := range at {
				lg[j] = out[m]
			}
		}
		num.DigammaTo(out, in)
		for m, j := range at {
			args[j] = out[m]
		}
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
			lam, beta := v.lam[r:r+k], sc.pr[z*k:(z+1)*k]
			for y := range k {
				kl += (lam[y] - beta[y]) * elog[y]
			}
			v.kl[r/k] = kl
		}
	}
}
