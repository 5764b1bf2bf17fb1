package model

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestBestPermutation checks the renaming of the consensus classes on
// matrices whose best permutation is known, exhaustive (k ≤ 8) and greedy.
func TestBestPermutation(t *testing.T) {
	for _, c := range []struct {
		m    []float64
		k    int
		want []int
	}{
		{[]float64{5, 1, 1, 5}, 2, []int{0, 1}},
		{[]float64{1, 5, 5, 1}, 2, []int{1, 0}},
		{[]float64{1, 1, 1, 1}, 2, []int{0, 1}}, // ties: the first in lexicographic order
		{[]float64{0, 9, 0, 0, 0, 9, 9, 0, 0}, 3, []int{1, 2, 0}},
		// The largest entry, m(0, 0) = 10, is not in the best permutation:
		// 10 + 1 + 0 < 9 + 9 + 0.
		{[]float64{10, 9, 0, 9, 1, 0, 0, 0, 0}, 3, []int{1, 0, 2}},
	} {
		if got := bestPermutation(c.m, c.k); !slices.Equal(got, c.want) {
			t.Errorf("bestPermutation(%v) = %v, want %v", c.m, got, c.want)
		}
	}
	// k > 8: greedy, on a matrix whose largest entries form a permutation.
	k := 10
	m := make([]float64, k*k)
	want := make([]int, k)
	for z := range k {
		want[z] = (z + 3) % k
		m[z*k+want[z]] = float64(10 + z)
		m[z*k+z] = 1
	}
	if got := bestPermutation(m, k); !slices.Equal(got, want) {
		t.Errorf("bestPermutation (k = 10) = %v, want %v", got, want)
	}
}

// TestPermuteGroups checks that every k-long group moves class z to
// perm[z].
func TestPermuteGroups(t *testing.T) {
	x := []float64{0, 1, 2, 10, 11, 12}
	permuteGroups(x, 3, []int{2, 0, 1})
	if want := []float64{1, 2, 0, 11, 12, 10}; !slices.Equal(x, want) {
		t.Errorf("permuteGroups = %v, want %v", x, want)
	}
}

// TestGuardRelabelsExactMirror builds the exact mirror of a converged
// Dawid-Skene fit under DA (every worker's confusion rows and every q_j
// with the classes renamed cyclically, which leaves the likelihood
// unchanged), fits from it (EM stays there: it is a fixed point), and
// checks that the guard returns the fit the right way round: worker
// agreement above 1/K, the same log-likelihood and the same consensus as
// the original fit.
func TestGuardRelabelsExactMirror(t *testing.T) {
	const k = 3
	d, _, err := sim.Simulate(sim.Settings{Tasks: 300, Workers: 20, Classes: k, LabelsPerTask: 8, Noise: noise.DS{}, Latent: latent.DA{}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	m := Model{Noise: noise.DS{}, Latent: latent.DA{}}
	set := &Settings{MaxIterations: 2000}
	r, err := m.Fit(context.Background(), d, set)
	if err != nil {
		t.Fatal(err)
	}
	shift := []int{1, 2, 0}
	x := slices.Clone(r.Params)
	w, _, _, tb := m.Layout(d).Split(x)
	// A worker's logits are K rows of K: row z moves to row shift[z].
	for i := 0; i < len(w); i += k * k {
		rows := slices.Clone(w[i : i+k*k])
		for z := range k {
			copy(w[i+shift[z]*k:i+(shift[z]+1)*k], rows[z*k:(z+1)*k])
		}
	}
	permuteGroups(tb, k, shift)
	ms := set
	ms.Start = x
	mirror, err := m.FitOnce(context.Background(), d, ms)
	if err != nil {
		t.Fatal(err)
	}
	if a := mirror.Agreement(); a >= 1.0/k {
		t.Fatalf("the mirrored fit has worker agreement %.3f, not below 1/K", a)
	}
	if rel := math.Abs(mirror.LogLikelihood-r.LogLikelihood) / math.Abs(r.LogLikelihood); rel > 1e-9 {
		t.Fatalf("mirror log-likelihood %.6f, fit %.6f", mirror.LogLikelihood, r.LogLikelihood)
	}
	g, err := Guard{}.Check(context.Background(), m, d, set, mirror)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fit: agreement %.4f, log-likelihood %.4f; mirror: %.4f, %.4f; guarded: %.4f, %.4f (%s)",
		r.Agreement(), r.LogLikelihood, mirror.Agreement(), mirror.LogLikelihood, g.Agreement(), g.LogLikelihood, g.Method)
	if a := g.Agreement(); math.Abs(a-r.Agreement()) > 1e-4 {
		t.Errorf("guarded agreement %.6f, fit's %.6f", a, r.Agreement())
	}
	if rel := math.Abs(g.LogLikelihood-r.LogLikelihood) / math.Abs(r.LogLikelihood); rel > 1e-6 {
		t.Errorf("guarded log-likelihood %.6f, fit's %.6f", g.LogLikelihood, r.LogLikelihood)
	}
	var worst float64
	for i, p := range g.Probs {
		worst = max(worst, math.Abs(p-r.Probs[i]))
	}
	if worst > 1e-3 {
		t.Errorf("guarded consensus differs from the fit's by up to %.2g", worst)
	}
}

// TestWorkerSkillsDefinition checks WorkerSkills bit for bit against its
// definition, Σ_z out_j(z) P(y = z | z; w, j) summed label by label with
// Result.Conditional, for noise models whose conditionals are the
// worker's alone (noise.WorkerOnly: read once per worker) and for those
// that depend on the object (GLAD, minimax entropy), under LA, DA and
// variational Bayes; and that a WorkerOnly model's conditionals are indeed
// the same for every object.
func TestWorkerSkillsDefinition(t *testing.T) {
	d, _, err := datasets.Load("temp")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"la-ds", "da-ds", "vb-da-ds", "vb-la-onecoin", "la-onecoin", "da-mace", "la-twocoin", "la-glad", "da-mme", "vb-da-glad"} {
		est, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := est.Fit(context.Background(), d, &Settings{MaxIterations: 50})
		if err != nil {
			t.Fatal(err)
		}
		k := d.NumClasses()
		p, p0 := make([]float64, k), make([]float64, k)
		want := make([]float64, d.NumWorkers())
		n := make([]float64, d.NumWorkers())
		varies := false
		for j := range d.Tasks {
			out := r.Dist(j)
			workers, _ := d.TaskLabels(j)
			for _, w := range workers {
				n[w]++
				for z, q := range out {
					r.Conditional(w, j, z, p)
					r.Conditional(w, 0, z, p0)
					for y := range p {
						varies = varies || p[y] != p0[y]
					}
					if q != 0 {
						want[w] += q * p[z]
					}
				}
			}
		}
		for w := range want {
			want[w] /= n[w]
		}
		got := r.WorkerSkills()
		for w := range got {
			if got[w] != want[w] && !(math.IsNaN(got[w]) && math.IsNaN(want[w])) {
				t.Errorf("%s: worker %d skill %v, by definition %v", name, w, got[w], want[w])
				break
			}
		}
		_, only := r.noiseView().(noise.WorkerOnly)
		if only && varies {
			t.Errorf("%s: marked noise.WorkerOnly, but its conditionals depend on the object", name)
		}
		if perObject := name == "la-glad" || name == "da-mme" || name == "vb-da-glad"; only == perObject {
			t.Errorf("%s: noise.WorkerOnly %v, want %v", name, only, !perObject)
		}
	}
}
