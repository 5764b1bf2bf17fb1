package latent_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
)

// TestDAMStep checks DA's M-step, q_j = q_j + gtask_j/n_j with negatives
// raised to 0 and every probability to at least MinProb, for K = 2 (one
// logarithm per object, logits (0, log(q₁/q₀))) and K = 3 (logits log q_j),
// through the probabilities softmax(b_j) it writes.
func TestDAMStep(t *testing.T) {
	for _, c := range []struct {
		name string
		q    []float64 // current q_j
		want []float64 // weights q_j + gtask_j/n_j, before clamping
	}{
		{"interior", []float64{0.5, 0.5}, []float64{0.3, 0.7}},
		{"unchanged", []float64{0.2, 0.8}, []float64{0.2, 0.8}},
		{"zero", []float64{0.5, 0.5}, []float64{0, 1}},
		{"rounded below zero", []float64{0.1, 0.9}, []float64{-1e-17, 1}},
		{"below MinProb", []float64{0.5, 0.5}, []float64{1e-40, 1}},
		{"both zero", []float64{0.5, 0.5}, []float64{0, 0}},
		{"K=3 interior", []float64{0.2, 0.3, 0.5}, []float64{0.1, 0.6, 0.3}},
		{"K=3 zero", []float64{0.2, 0.3, 0.5}, []float64{0, 0.4, 0.6}},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := len(c.q)
			classes := make([]string, k)
			for z := range classes {
				classes[z] = fmt.Sprint(z)
			}
			// One object with three labels.
			d, err := data.FromIndices([]string{"x"}, []string{"a", "b", "c"}, classes,
				[]int32{0, 0, 0}, []int32{0, 1, 2}, []uint16{0, 1, 1})
			if err != nil {
				t.Fatal(err)
			}
			ev := evaluator(t, latent.DA{}, d).(latent.MStepper)
			b := make([]float64, k)
			gtask := make([]float64, k)
			for z := range b {
				b[z] = math.Log(c.q[z]) + 1 // any gauge
				gtask[z] = 3 * (c.want[z] - c.q[z])
			}
			b0 := append([]float64(nil), b...)
			ev.MStep(nil, gtask, nil, b)
			got := softmaxOf(b)
			want := make([]float64, k)
			var s float64
			for z := range c.want {
				// The weight MStep sees, q_j + gtask_j/n_j, with its rounding.
				want[z] = max(softmaxOf(b0)[z]+gtask[z]/3, 0)
				s += want[z]
			}
			var s2 float64
			for z := range want {
				if s > 0 {
					want[z] = max(want[z]/s, latent.MinProb)
				} else {
					want[z] = 1
				}
				s2 += want[z]
			}
			for z := range want {
				want[z] /= s2
			}
			for z := range want {
				if math.Abs(got[z]-want[z]) > 1e-15 || math.Abs(got[z]-want[z]) > 1e-12*want[z] {
					t.Errorf("q = %v, want %v", got, want)
					break
				}
			}
		})
	}
}

func softmaxOf(b []float64) []float64 {
	mx := math.Inf(-1)
	for _, v := range b {
		mx = max(mx, v)
	}
	q := make([]float64, len(b))
	var s float64
	for z, v := range b {
		q[z] = math.Exp(v - mx)
		s += q[z]
	}
	for z := range q {
		q[z] /= s
	}
	return q
}

// TestDAMStepTasks checks that DA's MStep equals MStepGlobal followed by
// MStepTasks on any split of the objects into ranges, bit for bit, for
// K = 2, 3, 5 and 300 (more classes than a block of the K > 2 M-step
// holds values), on more objects than one block, that
// objects without labels keep their parameters, and that every other
// object's distribution is the one TestDAMStep checks.
func TestDAMStepTasks(t *testing.T) {
	for _, k := range []int{2, 3, 5, 300} {
		const nt = 150
		d := latent.MStepData(t, k, nt, func(j int) int { return j % 4 }) // objects 0, 4, 8, ... have no labels
		ev := evaluator(t, latent.DA{}, d).(latent.TaskMStepper)
		t0 := make([]float64, nt*k)
		gtask := make([]float64, nt*k)
		for i := range t0 {
			t0[i] = math.Sin(float64(i))
			gtask[i] = 0.3 * math.Cos(float64(3*i))
		}
		whole := append([]float64(nil), t0...)
		ev.MStep(nil, gtask, nil, whole)
		for j := range nt {
			n := float64(j % 4)
			got := softmaxOf(whole[j*k : (j+1)*k])
			var w []float64
			var sum float64
			for z, q := range softmaxOf(t0[j*k : (j+1)*k]) {
				v := q
				if n > 0 {
					v = max(q+gtask[j*k+z]/n, 0)
				}
				w = append(w, v)
				sum += v
			}
			for z := range got {
				if want := max(w[z]/sum, latent.MinProb); math.Abs(got[z]-want) > 1e-14 {
					t.Errorf("K=%d, object %d (%v labels): q(%d) = %v, want %v", k, j, n, z, got[z], want)
				}
			}
		}
		for _, split := range [][]int{{0, nt}, {0, 3, nt}, {0, 1, 2, 5, 6, nt}, {0, 63, 64, 65, 129, nt}} {
			parts := append([]float64(nil), t0...)
			ev.MStepGlobal(nil, nil)
			for i := 0; i+1 < len(split); i++ {
				ev.MStepTasks(split[i], split[i+1], gtask, parts)
			}
			for i := range whole {
				if whole[i] != parts[i] {
					t.Errorf("K=%d, split %v: parameter %d is %v, MStep gives %v", k, split, i, parts[i], whole[i])
				}
			}
		}
	}
}

// BenchmarkDAMStep measures DA's M-step on 4·10⁵ objects of five labels
// each (the shape of the 2·10⁶-label file of docs/performance.md; at
// K = 20, 2·10⁵, the shape of the K = 20 file), with
// logits and gradients as a fit late on the boundary has them (a third of
// the objects with a probability near 0, drawn at random). ns/object is the time per object.
//
//	go test ./latent -run '^$' -bench DAMStep
func BenchmarkDAMStep(b *testing.B) {
	for _, k := range []int{2, 5, 20} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			nt, per := 400000, 5
			if k == 20 {
				nt = 200000 // the K = 20 file's shape
			}
			d := latent.MStepData(b, k, nt, func(int) int { return per })
			ev := evaluator(b, latent.DA{}, d).(latent.MStepper)
			t0 := make([]float64, nt*k)
			gtask := make([]float64, nt*k)
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range t0 {
				t0[i] = 3 * rng.NormFloat64()
				if rng.IntN(3) == 0 {
					t0[i] = -30 // near the boundary
				}
				gtask[i] = 0.3 * rng.NormFloat64()
			}
			t := make([]float64, len(t0))
			b.ResetTimer()
			for b.Loop() {
				copy(t, t0)
				ev.MStep(nil, gtask, nil, t)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nt), "ns/object")
		})
	}
}
