package sim

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/noise"
)

// unknownLimit runs TestUnknownWorkerLimit.
var unknownLimit = flag.Bool("unknown-limit", false, "run TestUnknownWorkerLimit: the Bayes limit of a consensus that knows the workers' population but not each worker")

// unknownSweeps and unknownRNG set TestUnknownWorkerLimit's sampler: the
// sweeps each chain keeps (after a quarter as many discarded) and the low
// half of its seed (the crowd's seed is the high half).
var (
	unknownSweeps = flag.Int("unknown-sweeps", 400, "sweeps each chain of TestUnknownWorkerLimit keeps")
	unknownRNG    = flag.Uint64("unknown-rng", 0, "low half of the seed of TestUnknownWorkerLimit's sampler")
)

// oracleRun sets the Gibbs sampler of unknownWorkerPosterior: Chains
// chains (run two at a time) of Burn sweeps discarded and Sweeps kept,
// seeded by Seed.
type oracleRun struct {
	Chains, Burn, Sweeps int
	Seed                 uint64
}

// unknownWorkerPosterior returns the posterior of every object's true
// class, J×K, for someone who knows the class prior and the distribution
// that DSParams{Diag: []Range{diag}} (ErrorDecay 0) draws the workers'
// confusion matrices from, but not any worker's draw: the Bayes-optimal
// consensus without gold when the workers are new. It also returns every
// chain's own estimate.
//
// Under that prior a confusion row's posterior given the counts n_{z,y}
// of the worker's labels on objects of class z factorises: the diagonal a
// is Beta(n_zz + 1, m + 1) truncated to diag (m the row's off-diagonal
// count) and the errors' shares are Dirichlet(1 + n_{z,y}), y ≠ z. The
// sampler alternates the rows given the classes and the classes given the
// rows, and Rao-Blackwellises: the estimate is the mean over the kept
// sweeps of P(z_j | rows, labels).
func unknownWorkerPosterior(d *data.Dataset, prior []float64, diag Range, r oracleRun) (post []float64, chains [][]float64) {
	k := len(prior)
	chains = make([][]float64, r.Chains)
	runChains(r.Chains, func(c int) {
		chains[c] = gibbsChain(d, prior, diag, r.Burn, r.Sweeps, rand.New(rand.NewPCG(r.Seed, uint64(c))))
	})
	post = make([]float64, d.NumTasks()*k)
	for _, p := range chains {
		floats.Add(post, p)
	}
	floats.Scale(1/float64(r.Chains), post)
	return post, chains
}

// bayesScores returns the posterior under the true parameters of tr on d
// (K classes) with its accuracy and calibration error against the truth.
func bayesScores(t *testing.T, d *data.Dataset, tr *Truth, k int) (post []float64, acc, ece float64) {
	t.Helper()
	post, err := tr.BayesPosterior(d)
	if err != nil {
		t.Fatal(err)
	}
	acc, ece = scores(t, post, k, tr.Gold())
	return post, acc, ece
}

// runChains calls chain(c) for c = 0 … n − 1, two at a time; each chain
// draws from its own stream, so the results do not depend on the order.
func runChains(n int, chain func(c int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for c := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			chain(c)
		}()
	}
	wg.Wait()
}

// gibbsChain runs one chain of unknownWorkerPosterior and returns its
// Rao-Blackwellised posterior.
func gibbsChain(d *data.Dataset, prior []float64, diag Range, burn, sweeps int, rng *rand.Rand) []float64 {
	k := len(prior)
	nt, nw := d.NumTasks(), d.NumWorkers()
	logPrior := make([]float64, k)
	for z, p := range prior {
		logPrior[z] = math.Log(p)
	}
	// Start from the classes drawn under every worker at the prior's mean
	// row: diagonal the middle of diag, errors uniform.
	logPi := make([]float64, nw*k*k)
	mid := (diag.Lo + diag.Hi) / 2
	for i := range logPi {
		if z, y := (i/k)%k, i%k; z == y {
			logPi[i] = math.Log(mid)
		} else {
			logPi[i] = math.Log((1 - mid) / float64(k-1))
		}
	}
	class := make([]int, nt)
	sum := make([]float64, nt*k)
	counts := make([]float64, nw*k*k)
	lp := make([]float64, k)
	gam := make([]float64, k)
	for s := -1; s < burn+sweeps; s++ {
		if s >= 0 {
			// The rows given the classes.
			clear(counts)
			for j := range nt {
				for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
					counts[(int(d.Worker[i])*k+class[j])*k+int(d.Label[i])]++
				}
			}
			for row := 0; row < len(counts); row += k {
				z := (row / k) % k
				n := counts[row : row+k]
				var m, g float64
				for y := range k {
					if y != z {
						m += n[y]
						gam[y] = distuv.Gamma{Alpha: 1 + n[y], Beta: 1, Src: rng}.Rand()
						g += gam[y]
					}
				}
				a := truncBeta(n[z]+1, m+1, diag, rng)
				for y := range k {
					if y == z {
						logPi[row+y] = math.Log(a)
					} else {
						logPi[row+y] = math.Log(1-a) + math.Log(gam[y]/g)
					}
				}
			}
		}
		// The classes given the rows.
		keep := s >= burn
		var acc []float64
		if keep {
			acc = sum
		}
		drawClasses(d, k, logPrior, logPi, rng, class, lp, acc)
	}
	floats.Scale(1/float64(sweeps), sum)
	return sum
}

// truncBeta draws from Beta(alpha, beta) truncated to r by the inverse
// CDF, from the tail that keeps the probabilities of r's ends away from 1
// (1 − a is Beta(beta, alpha)).
func truncBeta(alpha, beta float64, r Range, rng *rand.Rand) float64 {
	b := distuv.Beta{Alpha: alpha, Beta: beta}
	lo, hi := b.CDF(r.Lo), b.CDF(r.Hi)
	if lo > 0.5 {
		f := distuv.Beta{Alpha: beta, Beta: alpha}
		lo, hi = f.CDF(1-r.Hi), f.CDF(1-r.Lo)
		return 1 - clampRange(f.Quantile(lo+(hi-lo)*rng.Float64()), Range{1 - r.Hi, 1 - r.Lo})
	}
	return clampRange(b.Quantile(lo+(hi-lo)*rng.Float64()), r)
}

// clampRange returns x within r.
func clampRange(x float64, r Range) float64 { return max(r.Lo, min(x, r.Hi)) }

// majorityPosterior returns every object's label frequencies, J×K.
func majorityPosterior(d *data.Dataset, k int) []float64 {
	p := make([]float64, d.NumTasks()*k)
	for j := range d.Tasks {
		_, labels := d.TaskLabels(j)
		for _, y := range labels {
			p[j*k+int(y)] += 1 / float64(len(labels))
		}
	}
	return p
}

// scores returns the accuracy (ties broken by seed 1, as consensus eval
// does) and the expected calibration error (10 bins) of post.
func scores(t *testing.T, post []float64, k int, gold *data.Gold) (acc, ece float64) {
	t.Helper()
	acc, err := metrics.Accuracy(post, k, gold, 1)
	if err != nil {
		t.Fatal(err)
	}
	ece, err = metrics.ECE(post, k, gold, 10)
	if err != nil {
		t.Fatal(err)
	}
	return acc, ece
}

// gridCrowd returns the settings of the crowd of scripts/sim-regimes.sh
// with GRID=1: consensus simulate --model la-ds --classes k
// --labels-per-object n --objects 10000 --workers 200 --activity 0.9
// --seed seed.
func gridCrowd(k, n int, seed uint64) Settings {
	return Settings{
		Tasks: 10000, Workers: 200, Classes: k, LabelsPerTask: n,
		Noise: noise.DS{}, Latent: latent.LA{}, Activity: 0.9, Seed: seed,
	}
}

// TestUnknownWorkerLimit prints, on the DS crowds of the grid of
// docs/choosing-a-model.md (a subtest a cell, k<K>-n<labels>) and of the
// sparse-many regime (ten classes, two labels a task), the Bayes
// limit (the true class's posterior under every worker's true confusion
// matrix) beside the limit of a consensus that knows only how the matrices
// are drawn (unknownWorkerPosterior), the spread of its chains' accuracies
// and majority vote's accuracy. -unknown-sweeps and -unknown-rng rerun the
// sampler longer or from other draws, to check that its accuracy is stable.
func TestUnknownWorkerLimit(t *testing.T) {
	if !*unknownLimit {
		t.Skip("run with -unknown-limit")
	}
	run := oracleRun{Chains: 4, Burn: *unknownSweeps / 4, Sweeps: *unknownSweeps}
	type cell struct {
		name  string
		k     int
		crowd func(seed uint64) Settings
	}
	var cells []cell
	for _, c := range []struct{ k, n int }{{2, 3}, {5, 3}, {10, 3}, {5, 5}} {
		cells = append(cells, cell{fmt.Sprintf("k%d-n%d", c.k, c.n), c.k, func(seed uint64) Settings { return gridCrowd(c.k, c.n, seed) }})
	}
	cells = append(cells, cell{"sparse-many", 10, func(seed uint64) Settings {
		c, err := Regime("sparse-many", seed)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}})
	for _, cell := range cells {
		t.Run(cell.name, func(t *testing.T) {
			t.Logf("seed\tbayes acc\tbayes ece\toracle acc\toracle ece\tchains' acc min..max\tmajority acc")
			var bayes, oracle, be, oe float64
			for seed := uint64(1); seed <= 3; seed++ {
				d, tr := mustSimulate(t, cell.crowd(seed))
				gold := tr.Gold()
				_, ba, bEce := bayesScores(t, d, tr, cell.k)
				run.Seed = seed<<32 | *unknownRNG
				op, chains := unknownWorkerPosterior(d, tr.prior, defaultAccuracy, run)
				oa, oEce := scores(t, op, cell.k, gold)
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, c := range chains {
					a, _ := scores(t, c, cell.k, gold)
					lo, hi = min(lo, a), max(hi, a)
				}
				ma, _ := scores(t, majorityPosterior(d, cell.k), cell.k, gold)
				t.Logf("%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f..%.4f\t%.4f", seed, ba, bEce, oa, oEce, lo, hi, ma)
				bayes, oracle, be, oe = bayes+ba/3, oracle+oa/3, be+bEce/3, oe+oEce/3
			}
			t.Logf("mean\t%.4f\t%.4f\t%.4f\t%.4f\t(oracle %.2f points below the Bayes limit)", bayes, be, oracle, oe, 100*(bayes-oracle))
		})
	}
}

// TestUnknownWorkerOracle checks the oracle of TestUnknownWorkerLimit on
// small crowds: on light workers it is better than majority vote, at most
// the Bayes limit and calibrated, its posterior far from the Bayes
// posterior; on three workers who label every object, whose matrices
// their labels pin down, it is at the Bayes limit and its posterior near
// the Bayes posterior.
func TestUnknownWorkerOracle(t *testing.T) {
	for _, tc := range []struct {
		name   string
		c      Settings
		within float64 // Bayes − oracle accuracy at most
		tvLo   float64 // mean total variation from the Bayes posterior
		tvHi   float64
	}{
		{"light", Settings{Tasks: 2000, Workers: 150, Classes: 4, LabelsPerTask: 3, Activity: 0.9, Seed: 5}, 0.03, 0.04, 0.1},
		{"busy", Settings{Tasks: 3000, Workers: 3, Classes: 3, LabelsPerTask: 3, Seed: 6}, 0.003, 0, 0.02},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			c.Noise, c.Latent = noise.DS{}, latent.LA{}
			d, tr := mustSimulate(t, c)
			gold := tr.Gold()
			bp, ba, _ := bayesScores(t, d, tr, c.Classes)
			ma, _ := scores(t, majorityPosterior(d, c.Classes), c.Classes, gold)
			op, _ := unknownWorkerPosterior(d, tr.prior, defaultAccuracy, oracleRun{Chains: 2, Burn: 50, Sweeps: 200, Seed: 1})
			oa, oe := scores(t, op, c.Classes, gold)
			var tv float64
			for i := range op {
				tv += math.Abs(op[i]-bp[i]) / 2
			}
			tv /= float64(c.Tasks)
			t.Logf("Bayes %.4f, oracle %.4f (ECE %.4f), majority %.4f; total variation %.4f", ba, oa, oe, ma, tv)
			if oa > ba+0.003 {
				t.Errorf("oracle accuracy %.4f above the Bayes limit %.4f", oa, ba)
			}
			if ba-oa > tc.within {
				t.Errorf("oracle accuracy %.4f more than %.3f below the Bayes limit %.4f", oa, tc.within, ba)
			}
			if oa < ma+0.01 {
				t.Errorf("oracle accuracy %.4f not 0.01 above majority vote's %.4f", oa, ma)
			}
			if oe > 0.02 {
				t.Errorf("oracle ECE %.4f: want a calibrated posterior", oe)
			}
			if tv < tc.tvLo || tv > tc.tvHi {
				t.Errorf("mean total variation %.4f from the Bayes posterior, want it in [%v, %v]", tv, tc.tvLo, tc.tvHi)
			}
		})
	}
}

// TestUnknownWorkerPosteriorExact checks the sampler against the oracle's
// posterior by enumeration on a crowd small enough to sum over every
// assignment of classes: the labels' probability given the classes is a
// product over the workers' rows of ∫ a^{n_zz} (1 − a)^m da / (hi − lo) over
// the diagonal's range, times the Dirichlet(1) errors' Γ(K − 1)/Γ(K − 1 + m)
// Π_y Γ(1 + n_zy).
func TestUnknownWorkerPosteriorExact(t *testing.T) {
	const k = 3
	c := Settings{Tasks: 7, Workers: 3, Classes: k, LabelsPerTask: 3, Noise: noise.DS{}, Latent: latent.LA{}, Seed: 4}
	d, tr := mustSimulate(t, c)
	r := defaultAccuracy
	nt, nw := d.NumTasks(), d.NumWorkers()
	exact := make([]float64, nt*k)
	class := make([]int, nt)
	counts := make([]float64, nw*k*k)
	var logs []float64
	var assignments [][]int
	for {
		clear(counts)
		for j := range nt {
			for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
				counts[(int(d.Worker[i])*k+class[j])*k+int(d.Label[i])]++
			}
		}
		var l float64
		for row := 0; row < len(counts); row += k {
			z := (row / k) % k
			var m float64
			for y := range k {
				if y != z {
					m += counts[row+y]
					g, _ := math.Lgamma(1 + counts[row+y])
					l += g
				}
			}
			a, b := counts[row+z]+1, m+1
			lb := logBetaFn(a, b)
			l += lb + math.Log(mathext.RegIncBeta(a, b, r.Hi)-mathext.RegIncBeta(a, b, r.Lo)) - math.Log(r.Hi-r.Lo)
			g1, _ := math.Lgamma(k - 1)
			g2, _ := math.Lgamma(k - 1 + m)
			l += g1 - g2
		}
		logs = append(logs, l)
		assignments = append(assignments, slices.Clone(class))
		if !nextAssignment(class, k) {
			break
		}
	}
	lse := floats.LogSumExp(logs)
	for s, l := range logs {
		for j, z := range assignments[s] {
			exact[j*k+z] += math.Exp(l - lse)
		}
	}
	got, _ := unknownWorkerPosterior(d, tr.prior, r, oracleRun{Chains: 2, Burn: 500, Sweeps: 20000, Seed: 1})
	for i := range exact {
		if math.Abs(got[i]-exact[i]) > 0.005 {
			t.Errorf("object %d, class %d: sampled posterior %.4f, exact %.4f", i/k, i%k, got[i], exact[i])
		}
	}
	t.Logf("exact %.3f\nsampled %.3f", exact, got)
}

// logBetaFn returns log B(a, b).
func logBetaFn(a, b float64) float64 {
	ga, _ := math.Lgamma(a)
	gb, _ := math.Lgamma(b)
	gab, _ := math.Lgamma(a + b)
	return ga + gb - gab
}

// drawClasses draws every object's class given the workers' confusion
// logits logPi (W·K·K) and the class prior's logarithms, into class, and
// adds each object's class posterior P(z_j | rows, labels) into acc (J×K)
// unless acc is nil (the Rao-Blackwellised estimate); lp is a buffer of K.
func drawClasses(d *data.Dataset, k int, logPrior, logPi []float64, rng *rand.Rand, class []int, lp, acc []float64) {
	for j := range d.NumTasks() {
		copy(lp, logPrior)
		for i := d.Offsets[j]; i < d.Offsets[j+1]; i++ {
			at := int(d.Worker[i])*k*k + int(d.Label[i])
			for z := range k {
				lp[z] += logPi[at+z*k]
			}
		}
		lse := floats.LogSumExp(lp)
		u := rng.Float64()
		class[j] = k - 1
		var cum float64
		for z := range k {
			p := math.Exp(lp[z] - lse)
			if acc != nil {
				acc[j*k+z] += p
			}
			cum += p
			if u < cum {
				class[j] = z
				u = math.Inf(1)
			}
		}
	}
}

// nextAssignment moves class, one of K classes an object, to the next
// assignment in counting order, and reports false after the last.
func nextAssignment(class []int, k int) bool {
	for j := range class {
		if class[j] < k-1 {
			class[j]++
			return true
		}
		class[j] = 0
	}
	return false
}
