package hda

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestPolyMarginal checks the polynomials of the hierarchical model
// (polySet.build) and their pass (polySet.estep) against a brute-force sum
// over every sequence of subjective classes: under Dirichlet(a) the
// classes z_1, …, z_n of an object's labels follow a Pólya urn,
// P(z_1, …, z_n) = Π_i (a_{z_i} + c_{<i}(z_i))/(α + i - 1), so that the
// marginal likelihood of the labels is Σ_z P(z) Π_i P(y_i | z_i) and the
// posterior mean of q is Σ_z w(z) (a + c(z))/(α + n), w the normalised
// terms. The expected histograms of the counts are checked the same way.
// Objects have 1 to 6 labels, K = 2, 3 and 4, and the pass runs on one
// and on three goroutines.
func TestPolyMarginal(t *testing.T) {
	for _, k := range []int{2, 3, 4} {
		t.Run(fmt.Sprintf("K=%d", k), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(k), 1))
			var task, worker []int32
			var label []uint16
			const objects, workers = 30, 8
			for j := range objects {
				n := 1 + j%6
				for i := range n {
					task = append(task, int32(j))
					worker = append(worker, int32((j+i)%workers))
					label = append(label, uint16(rng.IntN(k)))
				}
			}
			d := mustIndices(t, objects, workers, k, task, worker, label)
			m := model.Model{Noise: noise.DS{}, Latent: latent.Dirichlet{Alpha: 1}}
			r, err := m.Fit(context.Background(), d, &model.Settings{MaxIterations: 5})
			if err != nil {
				t.Fatal(err)
			}
			alpha := 0.7
			p := make([]float64, k)
			for z := range p {
				p[z] = float64(z+1) / float64(k*(k+1)/2)
			}
			ps := newPolySet(d)
			ps.build(r, 1)
			for _, threads := range []int{1, 3} {
				hist := make([]float64, k*(ps.nmax+1))
				mean := make([]float64, objects*k)
				got := ps.estep(alpha, p, threads, hist, mean)
				want, wantMean, wantHist := bruteMarginal(r, alpha, p, ps.nmax)
				if math.Abs(got-want) > 1e-9*math.Abs(want) {
					t.Errorf("threads %d: log marginal likelihood %.12g, brute force %.12g", threads, got, want)
				}
				for i := range mean {
					if math.Abs(mean[i]-wantMean[i]) > 1e-12 {
						t.Fatalf("threads %d: posterior mean [%d] %.15g, brute force %.15g", threads, i, mean[i], wantMean[i])
					}
				}
				for i := range hist {
					if math.Abs(hist[i]-wantHist[i]) > 1e-9 {
						t.Fatalf("threads %d: histogram [%d] %.15g, brute force %.15g", threads, i, hist[i], wantHist[i])
					}
				}
			}
		})
	}
}

// bruteMarginal returns the log marginal likelihood, the posterior means
// and the expected histograms of TestPolyMarginal by enumerating every
// sequence of subjective classes of every object of r's data.
func bruteMarginal(r *model.Result, alpha float64, p []float64, nmax int) (float64, []float64, []float64) {
	d := r.Data
	k := d.NumClasses()
	ev := r.FittedNoise()
	mean := make([]float64, d.NumTasks()*k)
	hist := make([]float64, k*(nmax+1))
	var total float64
	for j := range d.Tasks {
		n := d.Offsets[j+1] - d.Offsets[j]
		l := make([]float64, n*k)
		ev.LogProb(j, l)
		seq := make([]int, n)
		var sum float64
		var terms []float64
		var counts [][]int
		for {
			c := make([]int, k)
			v := 1.0
			for i, z := range seq {
				v *= (alpha*p[z] + float64(c[z])) / (alpha + float64(i))
				v *= math.Exp(l[i*k+z])
				c[z]++
			}
			sum += v
			terms = append(terms, v)
			counts = append(counts, c)
			// The next sequence, in base k.
			i := 0
			for i < n && seq[i] == k-1 {
				seq[i] = 0
				i++
			}
			if i == n {
				break
			}
			seq[i]++
		}
		total += math.Log(sum)
		for s, v := range terms {
			w := v / sum
			for z, c := range counts[s] {
				mean[j*k+z] += w * (alpha*p[z] + float64(c)) / (alpha + float64(n))
				hist[z*(nmax+1)+c] += w
			}
		}
	}
	return total, mean, hist
}

// mustIndices returns the data set of the given index columns, with
// objects, workers and classes named by their indices.
func mustIndices(t *testing.T, objects, workers, k int, task, worker []int32, label []uint16) *data.Dataset {
	t.Helper()
	name := func(n int, prefix string) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint(prefix, i)
		}
		return s
	}
	d, err := data.FromIndices(name(objects, "t"), name(workers, "w"), name(k, ""), task, worker, label)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDMHistMatchesLgamma checks that the Dirichlet-multinomial estimate
// from the histograms of integer counts (dmHist, the path of
// FitDirichletMultinomial and of the empirical Bayes update) equals the
// estimate from the log-gamma form of the likelihood on the same counts,
// with nothing fixed, α fixed and p fixed.
func TestDMHistMatchesLgamma(t *testing.T) {
	const k, rows = 3, 400
	rng := rand.New(rand.NewPCG(3, 4))
	counts := make([]float64, rows*k)
	for j := range rows {
		// Overdispersed: each row's labels mostly of one class.
		main := rng.IntN(k)
		for range 1 + rng.IntN(9) {
			z := main
			if rng.Float64() < 0.3 {
				z = rng.IntN(k)
			}
			counts[j*k+z]++
		}
	}
	h, ok := countHist(counts, k)
	if !ok {
		t.Fatal("integer counts not taken as a histogram")
	}
	p0 := []float64{0.3, 0.3, 0.4}
	for _, c := range []struct {
		name       string
		fixA, fixP bool
	}{{"free", false, false}, {"alpha fixed", true, false}, {"p fixed", false, true}} {
		a1, p1 := h.fit(2, p0, c.fixA, c.fixP, rows)
		a2, p2 := dmFit(2, p0, c.fixA, c.fixP, rows, lgammaDM(counts, k))
		if math.Abs(a1-a2) > 1e-4*a2 {
			t.Errorf("%s: alpha %.8g from the histograms, %.8g from log-gamma", c.name, a1, a2)
		}
		for z := range p1 {
			if math.Abs(p1[z]-p2[z]) > 1e-5 {
				t.Errorf("%s: p %v from the histograms, %v from log-gamma", c.name, p1, p2)
				break
			}
		}
		if c.fixA && a1 != 2 || c.fixP && p1[2] != 0.4 {
			t.Errorf("%s: the fixed part moved: alpha %g, p %v", c.name, a1, p1)
		}
	}
	if _, ok := countHist([]float64{0.5, 1}, 2); ok {
		t.Error("fractional counts taken as a histogram")
	}
}

// TestHDAThreadsIdentical checks that a hierarchical fit whose polynomials
// span many chunks (3000 objects of 10 labels, K = 3: 198 000 count
// vectors) gives bit-identical consensus distributions and the same prior
// on one and on two goroutines.
func TestHDAThreadsIdentical(t *testing.T) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 3000, Workers: 50, Classes: 3, LabelsPerTask: 10, Noise: noise.DS{}, Latent: latent.DA{}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if c := len(newPolySet(d).chunks); c < 2 {
		t.Fatalf("the polynomials take %d chunk: the case does not test the reduction", c)
	}
	var first *model.Result
	for _, threads := range []int{1, 2} {
		r, err := HDA{Noise: noise.DS{}}.Fit(context.Background(), d, &model.Settings{Threads: threads, MaxIterations: 60})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = r
			continue
		}
		if r.Method != first.Method {
			t.Errorf("threads %d: %s, threads 1: %s", threads, r.Method, first.Method)
		}
		for i, p := range r.Probs {
			if p != first.Probs[i] {
				t.Fatalf("threads %d: probability [%d] %v, threads 1: %v", threads, i, p, first.Probs[i])
			}
		}
	}
}

// TestHDACoefficientBudget checks the bound on the polynomials'
// coefficients (maxCoefficients): with room for the 60 objects of 3 labels
// (20 count vectors each at K = 4) but not for the 40 of 6 (84 each), only
// the former have the posterior mean, which the result's Method reports,
// and the latter keep the MAP output of the same fit bit for bit; with no
// room at all, every object keeps the MAP output and there is one fit.
func TestHDACoefficientBudget(t *testing.T) {
	full, _, err := sim.Simulate(sim.Settings{Tasks: 100, Workers: 20, Classes: 4, LabelsPerTask: 6, Noise: noise.DS{}, Latent: latent.DA{}, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	// The first 60 objects keep their first 3 labels.
	d := *full
	d.Offsets, d.Worker, d.Label = []int{0}, nil, nil
	for j := range full.Tasks {
		workers, labels := full.TaskLabels(j)
		if j < 60 {
			workers, labels = workers[:3], labels[:3]
		}
		d.Worker, d.Label = append(d.Worker, workers...), append(d.Label, labels...)
		d.Offsets = append(d.Offsets, len(d.Label))
	}
	defer func(m int) { maxCoefficients = m }(maxCoefficients)
	for _, tc := range []struct {
		budget   int
		included int
		method   string
	}{
		{1 << 25, 100, "), posterior mean output"},
		{60*20 + 40*84 - 1, 60, "posterior mean (60 of 100 tasks; the others MAP) output"},
		{60 * 20, 60, "posterior mean (60 of 100 tasks; the others MAP) output"},
		{60*20 - 1, 0, "(1 fits), MAP (every task has too many count vectors for the posterior mean) output"},
	} {
		maxCoefficients = tc.budget
		if n := newPolySet(&d).count(); n != tc.included {
			t.Fatalf("budget %d: %d objects included, want %d", tc.budget, n, tc.included)
		}
		set := &model.Settings{MaxIterations: 60}
		r, err := HDA{Noise: noise.DS{}}.Fit(context.Background(), &d, set)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Method, tc.method) {
			t.Errorf("budget %d: method %q, want it to contain %q", tc.budget, r.Method, tc.method)
		}
		m, err := HDA{Noise: noise.DS{}, MAP: true}.Fit(context.Background(), &d, set)
		if err != nil {
			t.Fatal(err)
		}
		for j := range d.Tasks {
			same := slices.Equal(r.Dist(j), m.Dist(j))
			if posterior := j < tc.included; same == posterior {
				t.Fatalf("budget %d: task %d's output equals the MAP's: %v, want %v", tc.budget, j, same, !posterior)
			}
		}
	}
}
