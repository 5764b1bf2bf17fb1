package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/num"
)

// TestMMEBlocksExact checks that MME's LogProb and Backprop, which take a
// block of labels' log-sum-exps and probabilities in one call each, give
// bit for bit what the loop over labels and latent classes with LogSumExp
// and math.Exp gives: for K = 2, 3, 20 and 21 (above the stack buffers)
// and objects of 1 to 250 labels by up to 7 workers (several blocks).
func TestMMEBlocksExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	sizes := []int{1, 5, 99, 100, 101, 250}
	for _, k := range []int{2, 3, 20, 21} {
		var tasks, workers []int32
		var labels []uint16
		names := make([]string, len(sizes))
		for j, n := range sizes {
			names[j] = fmt.Sprint("t", j)
			for range n {
				tasks, workers, labels = append(tasks, int32(j)), append(workers, int32(rng.IntN(7))), append(labels, uint16(rng.IntN(k)))
			}
		}
		classes := make([]string, k)
		for z := range classes {
			classes[z] = fmt.Sprint(z)
		}
		d, err := data.FromIndices(names, []string{"a", "b", "c", "d", "e", "f", "g"}, classes, tasks, workers, labels)
		if err != nil {
			t.Fatal(err)
		}
		kk := k * k
		w := make([]float64, 7*kk)
		o := make([]float64, len(sizes)*kk)
		for _, p := range [][]float64{w, o} {
			for i := range p {
				p[i] = 4 * rng.NormFloat64()
			}
		}
		e := MME{}.NewEvaluator(d).(*mmeEval)
		e.SetParams(w, o)
		row := make([]float64, k)
		for j := range sizes {
			ws, ys := d.TaskLabels(j)
			n := len(ws)
			l := make([]float64, n*k)
			e.LogProb(j, l)
			g := make([]float64, n*k)
			for i := range g {
				g[i] = rng.NormFloat64()
				if rng.IntN(4) == 0 {
					g[i] = 0 // a weight Backprop skips
				}
			}
			gw, gobj := make([]float64, len(w)), make([]float64, len(o))
			e.Backprop(j, g, gw, gobj)

			wantGW, wantGO := make([]float64, len(w)), make([]float64, len(o))
			for i, wk := range ws {
				y := int(ys[i])
				for z := range k {
					for c := range row {
						row[c] = w[int(wk)*kk+z*k+c] + o[j*kk+z*k+c]
					}
					lse := num.LogSumExp(row)
					if want := row[y] - lse; math.Float64bits(l[i*k+z]) != math.Float64bits(want) {
						t.Fatalf("K=%d, %d labels: l[%d] = %v, want %v", k, n, i*k+z, l[i*k+z], want)
					}
					gz := g[i*k+z]
					if gz == 0 {
						continue
					}
					for c, v := range row {
						tc := -gz * math.Exp(v-lse)
						if c == y {
							tc += gz
						}
						wantGW[int(wk)*kk+z*k+c] += tc
						wantGO[j*kk+z*k+c] += tc
					}
				}
			}
			for _, c := range []struct {
				name      string
				got, want []float64
			}{{"worker gradient", gw, wantGW}, {"object gradient", gobj, wantGO}} {
				for i := range c.got {
					if math.Float64bits(c.got[i]) != math.Float64bits(c.want[i]) {
						t.Fatalf("K=%d, %d labels: %s[%d] = %v, want %v", k, n, c.name, i, c.got[i], c.want[i])
					}
				}
			}
		}
	}
}
