package vb

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestObject2Newton checks the default's label distributions given the
// workers at K = 2 (object2Newton) against the fixed point itself: on the
// shipped sets rte and temp and on the spammers and sparse regimes, with
// the LA fit's workers frozen, every free task's q_j is within 10⁻⁹ of
// the root of g found by bisection, a task of known class keeps e_g, and
// the generic loop's q_j (SQUAREM to innerTol) are within its own error
// of them.
func TestObject2Newton(t *testing.T) {
	sets := shippedSets(t, "rte", "temp")
	for _, regime := range []string{"spammers", "sparse"} {
		st, err := sim.Regime(regime, 1)
		if err != nil {
			t.Fatal(err)
		}
		d, _, err := sim.Simulate(st)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, testSet{regime, d, nil})
	}
	for _, st := range sets {
		d := st.d
		gold := make([]int, d.NumTasks()) // every seventh task clamped to class 1
		for j := range gold {
			gold[j] = -1
			if j%7 == 0 {
				gold[j] = 1
			}
		}
		nv, err := defaultForm().posterior(d)
		if err != nil {
			t.Fatal(err)
		}
		own := model.Settings{FunctionTol: VBFunctionTol, ParamTol: VBParamTol}
		set := own.WithDefaults()
		if _, err := vbFit(context.Background(), "vb-ds", d, set, nv, newVBLA(d, nil), vbFresh, nil); err != nil {
			t.Fatal(err)
		}
		set.MaxIterations = 1
		a := []float64{JeffreysPrior, JeffreysPrior}
		frozen := func(generic bool) []float64 {
			s := newVBDA(d, false, a, gold)
			s.generic, s.distOnly = generic, true
			r, err := vbFit(context.Background(), "vb-ds", d, set, nv, s, vbFrozen, nil)
			if err != nil {
				t.Fatal(err)
			}
			return r.Probs
		}
		got, generic := frozen(false), frozen(true)
		var worst, worstGeneric float64
		for j := range d.Tasks {
			q := got[2*j : 2*j+2]
			if gold[j] >= 0 {
				if q[0] != 0 || q[1] != 1 {
					t.Fatalf("%s: task %d of known class 1 has q_j %v", st.name, j, q)
				}
				continue
			}
			root := fixedPoint2(d, nv, j, a)
			worst = max(worst, math.Abs(q[0]-root))
			worstGeneric = max(worstGeneric, math.Abs(generic[2*j]-root))
		}
		if worst > 1e-9 {
			t.Errorf("%s: q_j up to %.3g from the fixed point", st.name, worst)
		}
		if worstGeneric > 0.02 {
			t.Errorf("%s: the generic loop's q_j up to %.3g from the fixed point", st.name, worstGeneric)
		}
		t.Logf("%s: q_j within %.2g of the fixed point, the generic loop's within %.2g", st.name, worst, worstGeneric)
	}
}

// fixedPoint2 returns q_j(0) = x/S at the root x of g(x) = F_0(x) − x
// nearest to where object2Newton ends (the generic step vbStep2 as F), by
// bisection on a bracket found by scanning from a_0 to S − a_1.
func fixedPoint2(d *data.Dataset, nv noise.Variational, j int, a []float64) float64 {
	n := d.Offsets[j+1] - d.Offsets[j]
	p, w := make([]float64, 2*n), make([]float64, 2*n)
	nv.Prob(j, j+1, p)
	s := a[0] + a[1] + float64(n)
	g := func(x float64) float64 {
		_, _, n0, _, _ := vbStep2(p, w, x, s-x, a[0], a[1])
		return n0 - x
	}
	// The first sign change on a fine grid from a_0: object2Newton's
	// bracket starts there too, and on these data g has one root.
	lo, hi := a[0], s-a[1]
	const steps = 4000
	for i := 1; i <= steps; i++ {
		x := a[0] + (s-a[0]-a[1])*float64(i)/steps
		if g(x) <= 0 {
			lo, hi = x-(s-a[0]-a[1])/steps, x
			break
		}
	}
	for range 200 {
		m := lo + (hi-lo)/2
		if g(m) > 0 {
			lo = m
		} else {
			hi = m
		}
	}
	return lo / s
}

// TestDigammaParts checks the parts and the slope of Newton's steps
// against num.ExpDigammaParts and num.Trigamma. exp ψ(x) is compared
// within 10⁻¹⁵ of itself per unit of |ψ(x)| (ψ(0.001) ≈ −1000): an
// exponent's rounding, which differs where the compiler fuses a multiply
// and an add (GOAMD64=v3), is multiplied by its size.
func TestDigammaParts(t *testing.T) {
	for x := 1e-3; x < 1e3; x *= 1.07 {
		s, w, tri := digammaParts(x)
		ws, ww := num.ExpDigammaParts(x)
		got, want := num.Exp(s)*w, num.Exp(ws)*ww
		if tol := 1e-15 * (1 + math.Abs(math.Log(want))) * want; math.Abs(got-want) > tol {
			t.Errorf("exp ψ(%g) from digammaParts = %v, want %v", x, got, want)
		}
		if want := num.Trigamma(x); math.Abs(tri-want) > 1e-8*want {
			t.Errorf("ψ'(%g) from digammaParts = %v, want %v", x, tri, want)
		}
	}
}

// BenchmarkObject2Newton measures the default's pass for the label
// distributions given the LA fit's workers at K = 2 on the speed target's
// data (2·10⁶ labels from one-coin workers, 5 a task), on one goroutine,
// by Newton's method (object2Newton) and by the generic loop's SQUAREM
// (object2), in CPU seconds a pass:
//
//	go test ./model/vb -run '^$' -bench Object2Newton -count 5
func BenchmarkObject2Newton(b *testing.B) {
	d, err := benchdata.Get(2_000_000, 2, noise.OneCoin{}, latent.LA{})
	if err != nil {
		b.Fatal(err)
	}
	nv, err := defaultForm().posterior(d)
	if err != nil {
		b.Fatal(err)
	}
	own := model.Settings{FunctionTol: VBFunctionTol, ParamTol: VBParamTol}
	set := own.WithDefaults()
	if _, err := vbFit(context.Background(), "vb-ds", d, set, nv, newVBLA(d, nil), vbFresh, nil); err != nil {
		b.Fatal(err)
	}
	set.MaxIterations, set.Threads = 1, 1
	a := []float64{JeffreysPrior, JeffreysPrior}
	for _, squarem := range []bool{false, true} {
		name := map[bool]string{false: "newton", true: "squarem"}[squarem]
		b.Run(name, func(b *testing.B) {
			cpu0, _ := benchdata.CPUTime()
			for b.Loop() {
				s := newVBDA(d, false, a, nil)
				s.squarem, s.distOnly = squarem, true
				if _, err := vbFit(context.Background(), "vb-ds", d, set, nv, s, vbFrozen, nil); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, ok := benchdata.CPUTime(); ok {
				b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			}
		})
	}
}

// defaultForm is the default model's form, vb-ds.
func defaultForm() Bayes {
	return Bayes{Noise: noise.DS{SharedPrior: true, Averaged: true}, Latent: latent.LA{}, Both: true}
}

// BenchmarkObjectNewton measures the default's pass for the label
// distributions given the LA fit's workers at K = 5 and 10 on data of the
// size of the K = 10 speed file (2·10⁵ labels from Dawid-Skene workers, 5
// a task), on one goroutine, by Newton's method (objectNewton) and by the
// generic loop's SQUAREM, in CPU seconds a pass:
//
//	go test ./model/vb -run '^$' -bench ObjectNewton -count 5
func BenchmarkObjectNewton(b *testing.B) {
	for _, k := range []int{5, 10} {
		d, err := benchdata.Get(200_000, k, noise.DS{}, latent.LA{})
		if err != nil {
			b.Fatal(err)
		}
		nv, err := defaultForm().posterior(d)
		if err != nil {
			b.Fatal(err)
		}
		own := model.Settings{FunctionTol: VBFunctionTol, ParamTol: VBParamTol}
		set := own.WithDefaults()
		if _, err := vbFit(context.Background(), "vb-ds", d, set, nv, newVBLA(d, nil), vbFresh, nil); err != nil {
			b.Fatal(err)
		}
		set.MaxIterations, set.Threads = 1, 1
		a := symmetric(k, JeffreysPrior)
		for _, squarem := range []bool{false, true} {
			name := map[bool]string{false: "newton", true: "squarem"}[squarem]
			b.Run(fmt.Sprintf("K=%d/%s", k, name), func(b *testing.B) {
				cpu0, _ := benchdata.CPUTime()
				for b.Loop() {
					s := newVBDA(d, false, a, nil)
					s.squarem, s.distOnly = squarem, true
					if _, err := vbFit(context.Background(), "vb-ds", d, set, nv, s, vbFrozen, nil); err != nil {
						b.Fatal(err)
					}
				}
				if cpu1, ok := benchdata.CPUTime(); ok {
					b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
				}
			})
		}
	}
}
