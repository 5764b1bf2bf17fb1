package vb

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/internal/num"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestVBObjectScalar checks that the scalar updates of an object at K = 2, 3
// and 4 (vbDA.object2, object3, object4) give bit for bit the fit of the
// generic loop: the same outputs, bound and number of passes, with the
// prior fixed and estimated (hier), with and without gold objects, on the
// binary shipped sets and on simulated three- and four-class data (2,000
// tasks of 4 labels from 60 workers, under DA).
func TestVBObjectScalar(t *testing.T) {
	sets := shippedSets(t, "rte", "temp", "duchenne")
	for _, k := range []int{3, 4} {
		d, tr, err := sim.Simulate(sim.Settings{Noise: noise.DS{}, Latent: latent.DA{}, Classes: k, Tasks: 2000, Workers: 60, LabelsPerTask: 4, Seed: uint64(k)})
		if err != nil {
			t.Fatal(err)
		}
		g := &data.Gold{} // every third task, at the argmax of its q_j
		for j := 0; j < d.NumTasks(); j += 3 {
			q := tr.Q[j*k : (j+1)*k]
			g.Task = append(g.Task, int32(j))
			g.Label = append(g.Label, uint16(slices.Index(q, slices.Max(q))))
		}
		sets = append(sets, testSet{fmt.Sprintf("simulated K=%d", k), d, g})
	}
	for _, st := range sets {
		name, d, gold := st.name, st.d, st.gold
		// Every fifth gold task clamped, the others free.
		clamped := make([]int, d.NumTasks())
		for j := range clamped {
			clamped[j] = -1
		}
		for i, j := range gold.Task {
			if i%5 == 0 {
				clamped[j] = int(gold.Label[i])
			}
		}
		for _, tc := range []struct {
			name string
			hier bool
			gold []int
		}{
			{"fixed", false, nil},
			{"hier", true, nil},
			{"gold", false, clamped},
		} {
			fit := func(generic bool) *model.Result {
				own := model.Settings{FunctionTol: VBFunctionTol, ParamTol: VBParamTol}
				set := own.WithDefaults()
				var a []float64
				if !tc.hier {
					a = slices.Repeat([]float64{JeffreysPrior}, d.NumClasses())
				}
				s := newVBDA(d, tc.hier, a, tc.gold)
				s.generic = generic
				r, err := vbFit(context.Background(), "vb-da-ds", d, set, noise.DS{}.NewVariational(d), s, vbFresh, nil)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			want, got := fit(true), fit(false)
			if got.Iterations != want.Iterations || math.Float64bits(got.LogLikelihood) != math.Float64bits(want.LogLikelihood) {
				t.Errorf("%s %s: %d passes, bound %v; generic loop: %d passes, bound %v", name, tc.name, got.Iterations, got.LogLikelihood, want.Iterations, want.LogLikelihood)
			}
			for i, p := range got.Probs {
				if math.Float64bits(p) != math.Float64bits(want.Probs[i]) {
					t.Errorf("%s %s: output %d is %v, generic loop %v", name, tc.name, i, p, want.Probs[i])
					break
				}
			}
		}
	}
}

// TestVBDAParams checks that the DA side's params gives the noise
// posterior's numbers, γ and a whatever dst it is handed, and that for a
// dst of the length start was told of it returns γ's own storage instead
// of a copy; and that a fit's Params are the noise posterior's followed by
// γ and a.
func TestVBDAParams(t *testing.T) {
	d, _, err := datasets.Load("temp")
	if err != nil {
		t.Fatal(err)
	}
	for _, hier := range []bool{false, true} {
		v := newVBDA(d, hier, nil, nil)
		v.start(d, 3)
		for _, head := range [][]float64{{7, 8, 9}, {7}, nil} {
			want := append(append(append([]float64(nil), head...), v.gamma...), v.a...)
			got := v.params(append([]float64(nil), head...))
			if !slices.Equal(got, want) {
				t.Fatalf("hier %v, head %v: params differ from γ and a appended", hier, head)
			}
			if inPlace := &got[len(head)] == &v.gamma[0]; inPlace != (len(head) == 3) {
				t.Errorf("hier %v, head %v: γ's storage returned %v, want %v", hier, head, inPlace, len(head) == 3)
			}
		}
	}
	r, err := Bayes{Noise: noise.DS{}, Latent: latent.DA{}}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := d.NumClasses()
	nw := d.NumWorkers() * k * k
	if len(r.Params) != nw+d.NumTasks()*k+k {
		t.Fatalf("%d parameters, want %d", len(r.Params), nw+d.NumTasks()*k+k)
	}
	for j := range d.Tasks { // the output is γ_j normalised
		g := r.Params[nw+j*k : nw+(j+1)*k]
		for z, p := range r.Dist(j) {
			if math.Abs(p-g[z]/sum(g)) > 1e-15 {
				t.Fatalf("task %d: output %v, γ_j %v", j, r.Dist(j), g)
			}
		}
	}
}

// TestVBSettleAll checks that ending a batch of object updates at once
// (vbDA.settleAll, the logarithms of the whole batch in one call each)
// adds to the chunk, and leaves in γ, bit for bit what ending each object
// by itself gives (settleOne: one object's logarithms by math.Log,
// math.Lgamma and num.Log, in the order of the terms), with and without
// the hierarchical prior, at K = 2, 3 and 20, on objects whose γ_j fall in
// every branch of log Γ, with some exp ψ underflowing.
func TestVBSettleAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{2, 3, 20} {
		d, _, err := sim.Simulate(sim.Settings{Noise: noise.DS{}, Latent: latent.DA{}, Classes: k, Tasks: 300, Workers: 20, LabelsPerTask: 5, Seed: uint64(k)})
		if err != nil {
			t.Fatal(err)
		}
		for _, hier := range []bool{false, true} {
			v := newVBDA(d, hier, nil, nil)
			for z := range v.a {
				v.a[z] = 0.3 + float64(z%4)
			}
			v.setGlobals(v.a)
			v.start(d, 0)
			want := slices.Clone(v.gamma)
			var c, ref vbChunk
			c.glob, ref.glob = make([]float64, k), make([]float64, k)
			for j := range d.Tasks {
				row := v.gamma[j*k : (j+1)*k]
				e, old, next := make([]float64, k), make([]float64, k), make([]float64, k)
				for z := range row {
					// γ from 10⁻³ to 10⁴: every branch of log Γ.
					row[z] = math.Exp(rng.Float64()*16 - 7)
					e[z] = math.Exp(num.Digamma(row[z]))
					old[z], next[z] = rng.Float64()*5+0.1, rng.Float64()*5+0.1
				}
				if j%5 == 0 {
					e[0] = 0 // exp ψ underflowed: ψ from γ
				}
				copy(want[j*k:(j+1)*k], row)
				prod := num.NewProduct()
				for range 5 {
					prod.Mul(rng.Float64() * 1e-3)
				}
				nj := d.Offsets[j+1] - d.Offsets[j]
				v.settleOne(&ref, nj, prod, want[j*k:(j+1)*k], e, old, next)
				v.settle(&c, nj, prod, row, e, old, next)
				if j%7 == 6 {
					v.settleAll(&c) // batches of seven objects
				}
			}
			v.settleAll(&c)
			if math.Float64bits(c.bound) != math.Float64bits(ref.bound) || c.change != ref.change {
				t.Errorf("K=%d hier %v: bound %v change %v, one object at a time %v %v", k, hier, c.bound, c.change, ref.bound, ref.change)
			}
			if !slices.Equal(v.gamma, want) || !slices.Equal(c.glob, ref.glob) {
				t.Errorf("K=%d hier %v: γ or the prior's sums differ from one object at a time", k, hier)
			}
		}
	}
}

// settleOne ends one object's update by itself, as vbDA.settle and
// settleAll together do for a batch, for TestVBSettleAll.
func (v *vbDA) settleOne(c *vbChunk, nj int, prod num.Product, gamma, e, old, next []float64) {
	k := v.k
	t := prod.Log() + v.normA
	if v.hier {
		s := sum(gamma)
		lg, _ := math.Lgamma(s)
		t += (s-v.sumA-float64(nj))*num.Digamma(s) - lg
	} else {
		t -= v.lgS[nj]
	}
	psi := make([]float64, k)
	for z, x := range gamma {
		lg, _ := math.Lgamma(x)
		psi[z] = num.Log(e[z])
		if !(e[z] > 0x1p-1000) {
			psi[z] = num.Digamma(x)
		}
		t += vbBoundTerm(x, v.a[z], lg, psi[z])
	}
	c.bound += t
	so, sn := sum(old), sum(next)
	for z := range next {
		c.change = max(c.change, math.Abs(next[z]/sn-old[z]/so))
	}
	copy(gamma, next)
	if v.hier {
		elog := make([]float64, k)
		num.DirichletExpLog(elog, gamma)
		for z, x := range elog {
			c.glob[z] += x
		}
	}
}
