package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/consensuslab/consensus/data"
)

// gladMAPData returns a small data set with k classes and random weights
// g_i(z) ≥ 0 on its labels (rows summing to 1, as the assumptions' are).
func gladMAPData(t *testing.T, k int) (*data.Dataset, []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(k), 3))
	var tasks, workers []int32
	var labels []uint16
	for j := range 12 {
		for w := range 5 {
			if w == 0 || rng.Float64() < 0.8 {
				tasks, workers, labels = append(tasks, int32(j)), append(workers, int32(w)), append(labels, uint16(rng.IntN(k)))
			}
		}
	}
	names := func(p string, n int) []string {
		var s []string
		for i := range n {
			s = append(s, fmt.Sprint(p, i))
		}
		return s
	}
	d, err := data.FromIndices(names("t", 12), names("w", 5), names("", k), tasks, workers, labels)
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, d.NumLabels()*k)
	for i := 0; i < len(g); i += k {
		var s float64
		for z := range k {
			g[i+z] = rng.Float64()
			s += g[i+z]
		}
		for z := range k {
			g[i+z] /= s
		}
	}
	return d, g
}

// objective returns the expected complete log-likelihood of every label
// under the weights g plus the log prior, at the parameters x (abilities,
// then log difficulties), straight from the definitions: Σ_i Σ_z g_i(z)
// log P(y_i | z) − Σ (x − μ)²/(2σ²).
func gladMAPObjective(m *gladMAP, d *data.Dataset, g, x []float64) float64 {
	k := d.NumClasses()
	nw := d.NumWorkers()
	f := 0.0
	for _, v := range x {
		f -= m.prec / 2 * (v - m.mu) * (v - m.mu)
	}
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		dj := math.Exp(x[nw+j])
		for i, w := range workers {
			a := 1 / (1 + math.Exp(-x[w]*dj))
			gi := g[(d.Offsets[j]+i)*k : (d.Offsets[j]+i+1)*k]
			for z, v := range gi {
				if z == int(labels[i]) {
					f += v * math.Log(a)
				} else {
					f += v * math.Log((1-a)/float64(k-1))
				}
			}
		}
	}
	return f
}

// The gradient of the abilities that Accumulate adds up equals finite
// differences of the objective, and repeated updates with fixed weights
// reach a stationary point of the objective (so the log difficulties'
// steps use its gradient too), never lowering it on the way.
func TestGLADMAPGradientAndStationaryPoint(t *testing.T) {
	for _, k := range []int{2, 3} {
		d, g := gladMAPData(t, k)
		m := GLAD{}.NewMAP(d).(*gladMAP)
		nw := d.NumWorkers()
		rng := rand.New(rand.NewPCG(7, uint64(k)))
		x := make([]float64, nw+d.NumTasks())
		for i := range x {
			x[i] = 2*rng.Float64() - 0.5
		}
		m.Load(x)
		m.floor = 1.0 / 16
		acc := make([]float64, m.AccDim())
		m.Accumulate(0, d.NumTasks(), g, acc)
		num := fd.Gradient(nil, func(x []float64) float64 { return gladMAPObjective(m, d, g, x) }, x, nil)
		for w := range nw {
			want := num[w]
			got := acc[w] - m.prec*(x[w]-m.mu)
			if math.Abs(got-want) > 1e-5*max(1, math.Abs(want)) {
				t.Errorf("K=%d: ∂/∂e_%d %g, finite differences %g", k, w, got, want)
			}
		}

		prev := gladMAPObjective(m, d, g, x)
		for it := range 500 {
			clear(acc)
			m.Accumulate(0, d.NumTasks(), g, acc)
			m.Update(acc)
			f := gladMAPObjective(m, d, g, m.Params(nil))
			if f < prev-1e-9*math.Abs(prev) {
				t.Errorf("K=%d: iteration %d lowers the objective from %.12g to %.12g", k, it, prev, f)
			}
			prev = f
		}
		x = m.Params(nil)
		num = fd.Gradient(nil, func(x []float64) float64 { return gladMAPObjective(m, d, g, x) }, x, nil)
		for i, v := range num {
			if math.Abs(v) > 1e-5 {
				t.Errorf("K=%d: after 500 updates, ∂/∂x_%d = %g", k, i, v)
			}
		}
	}
}
