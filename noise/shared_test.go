package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
)

// sharedData returns a data set of 9 objects with k classes, labelled by
// up to 4 of 4 workers each, with a few objects without labels.
func sharedData(t *testing.T, k int) *data.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(k), 15))
	var tasks, workers []int32
	var labels []uint16
	var names []string
	for j := range 9 {
		names = append(names, fmt.Sprint("t", j))
		if j%4 == 1 {
			continue // no labels
		}
		for w := range 4 {
			if w == 0 || rng.Float64() < 0.7 {
				tasks, workers, labels = append(tasks, int32(j)), append(workers, int32(w)), append(labels, uint16(rng.IntN(k)))
			}
		}
	}
	classes := make([]string, k)
	for z := range classes {
		classes[z] = fmt.Sprint(z)
	}
	d, err := data.FromIndices(names, []string{"a", "b", "c", "d"}, classes, tasks, workers, labels)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestBackpropShared checks, for every noise model with BackpropShared,
// that it is bit for bit BackpropProb given the same weights copied to
// every label of an object, on every range of objects.
func TestBackpropShared(t *testing.T) {
	for _, m := range []Model{DS{}, GLAD{}, GLAD{PriorVar: 1}} {
		for _, k := range []int{2, 3, 5} {
			t.Run(fmt.Sprintf("%s%+v/K=%d", m.Name(), m, k), func(t *testing.T) {
				d := sharedData(t, k)
				rng := rand.New(rand.NewPCG(uint64(k), 7))
				w := make([]float64, d.NumWorkers()*m.WorkerDim(k))
				o := make([]float64, d.NumTasks()*m.TaskDim(k))
				for i := range w {
					w[i] = rng.NormFloat64()
				}
				for i := range o {
					o[i] = rng.NormFloat64()
				}
				ev := m.NewEvaluator(d)
				sb, ok := ev.(SharedBackpropper)
				if !ok {
					t.Fatalf("%T has no BackpropShared", ev)
				}
				ev.SetParams(w, o)
				off := d.Offsets
				for lo := 0; lo < d.NumTasks(); lo++ {
					for hi := lo + 1; hi <= d.NumTasks(); hi++ {
						n := off[hi] - off[lo]
						p := make([]float64, n*k)
						sb.Prob(lo, hi, p)
						gs := make([]float64, (hi-lo)*k)
						for i := range gs {
							gs[i] = rng.Float64()
						}
						g := make([]float64, n*k)
						for j := lo; j < hi; j++ {
							for i := off[j]; i < off[j+1]; i++ {
								copy(g[(i-off[lo])*k:], gs[(j-lo)*k:(j-lo+1)*k])
							}
						}
						gw1, gw2 := make([]float64, len(w)), make([]float64, len(w))
						go1, go2 := make([]float64, len(o)), make([]float64, len(o))
						sb.BackpropProb(lo, hi, p, g, gw1, go1)
						sb.BackpropShared(lo, hi, p, gs, gw2, go2)
						if !sameBits(gw1, gw2) || !sameBits(go1, go2) {
							t.Fatalf("objects [%d, %d): BackpropShared gives %v %v, BackpropProb %v %v", lo, hi, gw2, go2, gw1, go1)
						}
					}
				}
			})
		}
	}
}

// TestGLADProbSigmoids checks that GLAD's Prob, which takes the
// exponentials of a range in one call, writes bit for bit what sigmoids
// gives label by label, at ordinary, underflowing, infinite and NaN
// products e_w d_j.
func TestGLADProbSigmoids(t *testing.T) {
	for _, k := range []int{2, 3, 5} {
		d := sharedData(t, k)
		w := []float64{0.7, -2, 800, math.NaN()}
		o := make([]float64, d.NumTasks())
		for j := range o {
			o[j] = float64(j%5) - 2 // d_j from e⁻² to e²
		}
		o[2] = 7 // e_w d_j beyond the normal range for most workers
		ev := GLAD{}.NewEvaluator(d).(*gladEval)
		ev.SetParams(w, o)
		n := d.NumLabels()
		p := make([]float64, n*k)
		ev.Prob(0, d.NumTasks(), p)
		want := make([]float64, k)
		for j := range d.NumTasks() {
			workers, labels := d.TaskLabels(j)
			for i, wk := range workers {
				a, na := sigmoids(w[wk] * ev.diff[j])
				for z := range want {
					want[z] = na / float64(k-1)
					if k == 2 {
						want[z] = na
					}
				}
				want[labels[i]] = a
				at := (d.Offsets[j] + i) * k
				if !sameBits(p[at:at+k], want) {
					t.Errorf("K=%d, object %d, label %d: Prob gives %v, want %v", k, j, i, p[at:at+k], want)
				}
			}
		}
	}
}

// sameBits reports whether a and b hold the same bits, NaNs included.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
