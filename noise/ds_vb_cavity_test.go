package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// TestCavityProbs checks CavityProbs against the posterior of the same
// counts with the label taken out: for fixed Dirichlet rows, exactly the
// Conditional of a posterior updated with the counts less the label's; for
// the kinds' average (DS.Averaged), the mean of the counts less the
// label's with the kinds' probabilities and priors held.
func TestCavityProbs(t *testing.T) {
	for _, k := range []int{2, 3} {
		rng := rand.New(rand.NewPCG(uint64(k), 7))
		const nt, nw, per = 300, 40, 3
		var tasks, ws []int32
		var labels []uint16
		for j := range nt {
			for _, w := range rng.Perm(nw)[:per] {
				tasks, ws, labels = append(tasks, int32(j)), append(ws, int32(w)), append(labels, uint16(rng.IntN(k)))
			}
		}
		wn, cn, tn := make([]string, nw), make([]string, k), make([]string, nt)
		for i := range wn {
			wn[i] = fmt.Sprint("w", i)
		}
		for i := range cn {
			cn[i] = fmt.Sprint(i)
		}
		for i := range tn {
			tn[i] = fmt.Sprint("t", i)
		}
		d, err := data.FromIndices(tn, wn, cn, tasks, ws, labels)
		if err != nil {
			t.Fatal(err)
		}
		taskOf := make([]int, d.NumLabels())
		for j := range nt {
			for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
				taskOf[i] = j
			}
		}
		// Every task's posterior, and the expected counts they give.
		rho := make([]float64, nt*k)
		for j := range nt {
			r := rho[j*k : (j+1)*k]
			for z := range r {
				r[z] = rng.Float64() + 0.1
			}
			normalizeRow(r)
		}
		k2 := k * k
		counts := func(skip int) []float64 {
			acc := make([]float64, nw*k2)
			for i := range d.Label {
				if i == skip {
					continue
				}
				j, w, y := taskOf[i], int(d.Worker[i]), int(d.Label[i])
				for z := range k {
					acc[countAt(w*k2, k, z, y)] += rho[j*k+z]
				}
			}
			return acc
		}
		for _, m := range []DS{{}, DS{}.WithSharedPrior().(DS)} {
			v := m.NewVariational(d).(*dsVB)
			v.Update(counts(-1))
			for _, i := range []int{0, 7, 100, len(d.Label) - 1} {
				j, w, y := taskOf[i], d.Worker[i], int(d.Label[i])
				r := rho[j*k : (j+1)*k]
				p := make([]float64, (d.Offsets[j+1]-d.Offsets[j])*k)
				v.CavityProbs(j, r, p)
				got := p[(i-d.Offsets[j])*k : (i-d.Offsets[j]+1)*k]
				want := make([]float64, k)
				row := make([]float64, k)
				if v.mix == nil {
					u := m.NewVariational(d).(*dsVB)
					u.Update(counts(i))
					for z := range k {
						u.Conditional(w, j, z, row)
						want[z] = row[y]
					}
				} else {
					// The kinds' counts without the label, their
					// probabilities and priors as they were.
					v.mix.Counts(counts(i), k, v.prior, v.patternPrior())
					for z := range k {
						base := (int(w)*k + z) * k
						s := sum(v.lam[base:base+k]) - r[z]
						for x := range k {
							row[x] = v.lam[base+x] / s
						}
						row[y] = (v.lam[base+y] - r[z]) / s
						v.mix.Mean(int(w), z, false, row)
						want[z] = row[y]
					}
					v.mix.Counts(counts(-1), k, v.prior, v.patternPrior())
				}
				for z := range k {
					if math.Abs(got[z]-want[z]) > 1e-12 {
						t.Errorf("K=%d averaged %v label %d: P(y | %d) without it %.15g, want %.15g", k, m.Averaged, i, z, got[z], want[z])
					}
				}
			}
		}
	}
}

// normalizeRow divides x by its sum.
func normalizeRow(x []float64) {
	s := sum(x)
	for i := range x {
		x[i] /= s
	}
}
