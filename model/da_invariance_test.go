package model_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/model"
)

// The DA-DS likelihood (paper eq. 3 with Dawid-Skene workers) is flat
// along a line: shrinking every q_j towards the uniform distribution u,
// q_j → c q_j + (1 − c) u, while every worker's confusion rows spread
// away from their mean by 1/c, π_w(z, y) → π̄_w(y) + (π_w(z, y) − π̄_w(y))/c,
// leaves every label's probability Σ_z q_j(z) π_w(z, y) unchanged, for
// every c (an algebraic identity), and the data cannot tell the
// objects' ambiguity from the workers' noise along it. Only the simplex
// bounds the line, and the maximum-likelihood fit sits where it ends in
// both directions: a worker with a zero confusion entry stops c < 1, a
// q_j on the boundary stops c > 1.
func TestDADSLikelihoodLine(t *testing.T) {
	for _, name := range []string{"temp", "duchenne"} {
		t.Run(name, func(t *testing.T) {
			d, _, err := datasets.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			k := d.NumClasses()
			est, _ := model.ByName("da-ds")
			// ll returns the log-likelihood of r moved to c along the line,
			// and whether the moved parameters are valid.
			ll := func(r *model.Result, c float64) (float64, bool) {
				off := -1
				for i, col := range r.WorkerColumns() {
					if strings.HasPrefix(col, "p[") && off < 0 {
						off = i
					}
				}
				ok := true
				pi := make([][]float64, d.NumWorkers())
				for w := range pi {
					p := r.WorkerValues(w, nil)[off : off+k*k]
					pi[w] = make([]float64, k*k)
					for y := range k {
						var bar float64
						for z := range k {
							bar += p[z*k+y] / float64(k)
						}
						for z := range k {
							v := bar + (p[z*k+y]-bar)/c
							ok = ok && v >= 0
							pi[w][z*k+y] = v
						}
					}
				}
				var s float64
				q := make([]float64, k)
				for j := range d.Tasks {
					for z := range q {
						q[z] = c*r.Probs[j*k+z] + (1-c)/float64(k)
						ok = ok && q[z] >= 0
					}
					for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
						var p float64
						for z := range q {
							p += q[z] * pi[d.Worker[i]][z*k+int(d.Label[i])]
						}
						s += math.Log(p)
					}
				}
				return s, ok
			}
			r, err := est.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			base, _ := ll(r, 1)
			for _, c := range []float64{0.99, 1.01} {
				v, ok := ll(r, c)
				if math.Abs(v-base) > 1e-9*math.Abs(base) {
					t.Errorf("c = %g: log-likelihood %.10g against %.10g", c, v, base)
				}
				if ok {
					t.Errorf("the fit can move to c = %g: want the end of the line in both directions", c)
				}
			}
		})
	}
}
