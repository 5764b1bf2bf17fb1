package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
	"github.com/consensuslab/consensus/sim"
	"gonum.org/v1/gonum/diff/fd"
)

// The conformance kit: every registered model, and every noise model of
// the registry under every assumption, runs the tests below. A new noise
// model gets them all by being registered.

// settingsVariants are noise models with settings that no registry entry
// uses but whose code paths differ (a MAP prior, explicit penalties).
var settingsVariants = []noise.Model{noise.GLAD{PriorVar: 0.5}, noise.RegMME{Alpha: 0.7, Beta: 1.3}}

// noiseOf returns the noise model of a registered estimator, or nil for
// one that is not a composition (rfe, mv, Crowd-Kit's methods).
func noiseOf(e Estimator) noise.Model {
	if c, ok := e.(Composite); ok {
		n, _ := c.Parts()
		return n
	}
	return nil
}

// registeredNoise returns every distinct noise model of the registry, in
// registry order, then settingsVariants.
func registeredNoise() []noise.Model {
	var ms []noise.Model
	seen := map[string]bool{}
	for _, e := range Registry() {
		n := noiseOf(e.New())
		if n == nil || seen[fmt.Sprintf("%#v", n)] {
			continue
		}
		seen[fmt.Sprintf("%#v", n)] = true
		ms = append(ms, n)
	}
	return append(ms, settingsVariants...)
}

// noiseName names a noise model with its settings, such as "glad" or
// "glad{PriorVar:0.5}" (the settings only when they are not the zero
// value).
func noiseName(n noise.Model) string {
	if reflect.ValueOf(n).IsZero() {
		return n.Name()
	}
	return n.Name() + fmt.Sprintf("%+v", n)
}

// assumptions returns every assumption the kit composes each noise model
// with, for k classes and j objects: LA with a learned and a uniform
// prior, DA, DA with a Dirichlet prior (an informative one with a
// non-uniform mean and a sparse one), and gold clamping over LA and DA
// (every third object clamped).
func assumptions(k, j int) []latent.Assumption {
	p := make([]float64, k)
	for z := range p {
		p[z] = float64(z+1) / float64(k*(k+1)/2)
	}
	gold := make([]int, j)
	for i := range gold {
		gold[i] = -1
		if i%3 == 0 {
			gold[i] = i % k
		}
	}
	return []latent.Assumption{
		latent.LA{LearnPrior: true},
		latent.LA{},
		latent.DA{},
		latent.Dirichlet{Alpha: 2.5, P: p},
		latent.Dirichlet{Alpha: 0.3},
		latent.WithGold{Base: latent.LA{LearnPrior: true}, Class: gold},
		latent.WithGold{Base: latent.DA{}, Class: gold},
	}
}

// assumptionName names an assumption with its settings.
func assumptionName(a latent.Assumption) string {
	switch a := a.(type) {
	case latent.LA:
		if a.LearnPrior {
			return "la+prior"
		}
		return "la"
	case latent.Dirichlet:
		return fmt.Sprintf("dirichlet(%g)", a.Alpha)
	case latent.WithGold:
		return "gold+" + assumptionName(a.Base)
	}
	return a.Name()
}

// forCompositions runs f as a subtest for every registered noise model
// under every assumption, for k = 2 and 3 on the data set mk(k) (whose
// number of objects the gold clamping is sized to).
func forCompositions(t *testing.T, mk func(k int) *data.Dataset, f func(t *testing.T, m Model, d *data.Dataset)) {
	for _, k := range []int{2, 3} {
		d := mk(k)
		for _, n := range registeredNoise() {
			for _, a := range assumptions(k, d.NumTasks()) {
				m := Model{Noise: n, Latent: a}
				t.Run(fmt.Sprintf("%s/%s/K=%d", noiseName(n), assumptionName(a), k), func(t *testing.T) { f(t, m, d) })
			}
		}
	}
}

// TestNoiseConformance runs noisetest.Check on every noise model of the
// registry.
func TestNoiseConformance(t *testing.T) {
	for _, n := range registeredNoise() {
		t.Run(noiseName(n), func(t *testing.T) { noisetest.Check(t, n) })
	}
}

// TestGradient checks the analytic gradient of every composition against
// central finite differences at random parameters.
func TestGradient(t *testing.T) {
	mk := func(k int) *data.Dataset { return noisetest.Data(t, uint64(k), 12, 5, k) }
	forCompositions(t, mk, func(t *testing.T, m Model, d *data.Dataset) {
		k := d.NumClasses()
		rng := rand.New(rand.NewPCG(1, uint64(k)))
		x := m.Init(d)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		grad := make([]float64, len(x))
		m.LogLikelihood(d, x, grad, 1)
		f := func(x []float64) float64 {
			return m.LogLikelihood(d, x, make([]float64, len(x)), 1)
		}
		want := fd.Gradient(nil, f, x, &fd.Settings{Formula: fd.Central, Step: 1e-5})
		for i := range want {
			if diff := math.Abs(grad[i] - want[i]); !(diff <= 1e-6*(1+math.Abs(want[i]))) {
				t.Errorf("∂L/∂x[%d] = %.9g, finite difference %.9g", i, grad[i], want[i])
			}
		}
	})
}

// TestProbPathMatchesGeneric checks that the probability-space path
// (noise.ProbEvaluator with latent.ProbEvaluator) gives the same value and
// gradient as the generic log-space path, at random parameters of growing
// scale: at the larger scales many objects underflow and fall back to the
// log path inside the fast evaluation. (At scale 300 GLAD's difficulties
// exp(δ_j) overflow and both paths give NaN; those cases are skipped.)
func TestProbPathMatchesGeneric(t *testing.T) {
	mk := func(k int) *data.Dataset { return noisetest.Data(t, uint64(10+k), 2000, 40, k) }
	forCompositions(t, mk, func(t *testing.T, m Model, d *data.Dataset) {
		fast := newObjective(m, d, 2)
		if fast.pnoise == nil {
			t.Skip("no probability-space path")
		}
		generic := newObjective(m, d, 2)
		generic.pnoise, generic.platent = nil, nil
		generic.tnoise, generic.tlatent = nil, nil
		comparePaths(t, m, d, fast, generic, 1e-12)
	})
}

// TestTablePathIdentical checks that the path in which the assumption
// reads the noise model's table (latent.TableEvaluator with noise.Tabled)
// gives the value and gradient of the path through Prob, TaskProbShared
// and BackpropShared bit for bit, at random parameters of growing scale, at
// which more and more objects need the checks of their products or the
// log path. Beyond forCompositions' K = 2 and 3 it takes K = 6 and 20,
// where num.PosteriorRows and num.RespRowsGroups work four classes at a
// time and leave the rest to their scalar loops.
func TestTablePathIdentical(t *testing.T) {
	mk := func(k int) *data.Dataset { return noisetest.Data(t, uint64(20+k), 2000, 40, k) }
	check := func(t *testing.T, m Model, d *data.Dataset) {
		table := newObjective(m, d, 2)
		if table.tlatent == nil {
			t.Skip("no table path")
		}
		shared := newObjective(m, d, 2)
		shared.tlatent, shared.tnoise = nil, nil
		comparePaths(t, m, d, table, shared, 0)
	}
	forCompositions(t, mk, check)
	for _, k := range []int{6, 20} {
		d := mk(k)
		for _, a := range assumptions(k, d.NumTasks()) {
			m := Model{Noise: noise.DS{}, Latent: a}
			t.Run(fmt.Sprintf("ds/%s/K=%d", assumptionName(a), k), func(t *testing.T) { check(t, m, d) })
		}
	}
}

// comparePaths compares the value and gradient of the objective o with
// those of the reference ref, to a relative tolerance tol (0: bit for
// bit), at m's start on d with every parameter moved by scale times a
// standard normal deviate, for growing scales. A scale at which the
// reference's value is NaN is skipped (at scale 300 GLAD's difficulties
// exp(δ_j) overflow).
func comparePaths(t *testing.T, m Model, d *data.Dataset, o, ref *objective, tol float64) {
	t.Helper()
	near := func(v, want float64) bool {
		if math.IsNaN(v) || math.IsNaN(want) {
			return math.IsNaN(v) == math.IsNaN(want)
		}
		return v == want || math.Abs(v-want) <= tol*(1+math.Abs(want))
	}
	for _, scale := range []float64{0, 1, 5, 30, 300} {
		x := m.Init(d)
		rng := rand.New(rand.NewPCG(uint64(d.NumClasses()), math.Float64bits(scale)))
		for i := range x {
			x[i] += scale * rng.NormFloat64()
		}
		g := make([]float64, len(x))
		gref := make([]float64, len(x))
		v := o.eval(x, g)
		vref := ref.eval(x, gref)
		if math.IsNaN(vref) {
			continue
		}
		if !near(v, vref) {
			t.Errorf("scale %g: value %.17g, reference %.17g", scale, v, vref)
		}
		bad := 0
		for i := range gref {
			if !near(g[i], gref[i]) {
				if bad < 5 {
					t.Errorf("scale %g: gradient[%d] = %.17g, reference %.17g", scale, i, g[i], gref[i])
				}
				bad++
			}
		}
	}
}

// TestThreadsIdentical checks that the value and gradient of every
// composition are bit-for-bit the same for any number of goroutines, on
// data large enough for several chunks.
func TestThreadsIdentical(t *testing.T) {
	mk := func(k int) *data.Dataset { return noisetest.Data(t, 3, 6000, 50, k) }
	forCompositions(t, mk, func(t *testing.T, m Model, d *data.Dataset) {
		if n := len(newObjective(m, d, 1).chunks); n < 2 {
			t.Fatalf("%d chunk: the test needs several", n)
		}
		x := m.Init(d)
		g1 := make([]float64, len(x))
		v1 := m.LogLikelihood(d, x, g1, 1)
		for _, threads := range []int{2, 3} {
			g := make([]float64, len(x))
			if v := m.LogLikelihood(d, x, g, threads); v != v1 && !(math.IsNaN(v) && math.IsNaN(v1)) {
				t.Errorf("threads=%d value %v, threads=1 %v", threads, v, v1)
			}
			if !slices.EqualFunc(g, g1, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
				t.Errorf("threads=%d: the gradient differs from threads=1", threads)
			}
		}
	})
}

// TestMStepMonotone checks, for every composition that EM can fit (both
// sides have closed-form M-steps), that no plain EM iteration decreases
// the log-likelihood, on random labels.
func TestMStepMonotone(t *testing.T) {
	mk := func(k int) *data.Dataset { return noisetest.Data(t, uint64(20+k), 300, 20, k) }
	forCompositions(t, mk, func(t *testing.T, m Model, d *data.Dataset) {
		var lls []float64
		x0 := m.Init(d)
		lls = append(lls, m.LogLikelihood(d, x0, make([]float64, len(x0)), 1))
		_, err := fitEMWith(m, d, &Settings{MaxIterations: 30, Progress: func(p Progress) {
			lls = append(lls, p.LogLikelihood)
		}}, false)
		if errors.Is(err, ErrNoMStep) {
			t.Skip("no closed-form M-step")
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(lls); i++ {
			if lls[i] < lls[i-1]-1e-9*math.Abs(lls[i-1]) {
				t.Errorf("iteration %d: log-likelihood fell from %.12g to %.12g", i, lls[i-1], lls[i])
			}
		}
	})
}

// TestRegistryThreadsIdentical fits every registered estimator with 1 and
// with 3 goroutines and checks that the results are identical: the same
// consensus and parameters bit for bit, or the same error.
func TestRegistryThreadsIdentical(t *testing.T) {
	d, _, err := sim.Simulate(sim.Settings{Tasks: 2800, Workers: 30, Classes: 2, LabelsPerTask: 6,
		Noise: noise.DS{}, Latent: latent.DA{}, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range Registry() {
		t.Run(e.Name, func(t *testing.T) {
			est := e.New()
			r1, err1 := est.Fit(context.Background(), d, &Settings{Threads: 1, MaxIterations: 3})
			r3, err3 := est.Fit(context.Background(), d, &Settings{Threads: 3, MaxIterations: 3})
			if err1 != nil || err3 != nil {
				if fmt.Sprint(err1) != fmt.Sprint(err3) {
					t.Errorf("error %v with 1 goroutine, %v with 3", err1, err3)
				}
				return
			}
			if !slices.Equal(r1.Probs, r3.Probs) || !slices.Equal(r1.Params, r3.Params) || r1.LogLikelihood != r3.LogLikelihood {
				t.Errorf("the fit with 3 goroutines differs from the fit with 1")
			}
		})
	}
}

// generatingForm returns the assumption a registered estimator's data are
// simulated under, latent.LA{} or latent.DA{}, from its name's form.
func generatingForm(e Estimator) latent.Assumption {
	if c, ok := e.(Composite); ok {
		if _, a := c.Parts(); a.Name() == "la" {
			return latent.LA{}
		}
	}
	return latent.DA{}
}

// recoveryExceptions are the registered models that fail TestRecovery's
// bounds on its simulations, with what was measured; the test still fits them
// and fails if one starts to pass, so that it is removed from the list.
var recoveryExceptions = map[string]string{
	"da-rmme": "MSE 0.080 (K = 2) and 0.128 (K = 3) against the frequencies' 0.030 and 0.025: the worker penalty " +
		"(alpha = K²/4, Zhou et al.'s default, made for LA) pulls every worker toward chance and DA sharpens the q_j " +
		"to make up for it (mean largest q_j 0.88 against the truth's 0.73 for K = 2, 0.98 against 0.62 for K = 3); " +
		"not the mirror mode; without the worker penalty the MSE is 0.024 and 0.039 (TestRecoveryDiagnoses)",
	"hda-mme": "MSE 0.064 (K = 2) against the frequencies' 0.030: unregularised MME's likelihood has its supremum at " +
		"infinity (every label has a fitted P(y_i | z) within 1e-6 of 0 or 1), where every object's own matrix d_j " +
		"absorbs its labels' spread, so empirical Bayes sees little overdispersion, estimates alpha = 23 (the " +
		"simulation's is 2) and shrinks the q_j toward p (mean largest q_j 0.56 against the truth's 0.73); not the " +
		"mirror mode (TestRecoveryDiagnoses); q_j and d_j are not identified apart, so the bound asks of the " +
		"optimiser's stopping point what the likelihood does not determine",
}

// TestRecovery fits every registered composition whose noise model can
// simulate (noise.Sampler) to data simulated from its own noise model
// under its own assumption, for K = 2 and (except the slower hierarchical
// forms hda-*) K = 3. LA forms must find the true classes: at least 80% of
// them, and at most 3 points fewer than majority vote. DA forms must
// recover the q_j: a mean squared error over the entries of the J×K
// matrix at most 0.04 and at most 3 times that of the label frequencies.
func TestRecovery(t *testing.T) {
	for _, e := range Registry() {
		est := e.New()
		n := noiseOf(est)
		if _, ok := n.(noise.Sampler); !ok {
			continue
		}
		lat := generatingForm(est)
		la := lat.Name() == "la"
		for _, k := range []int{2, 3} {
			if strings.HasPrefix(e.Name, "hda-") && k > 2 { // hierarchical DA: two classes only here
				continue
			}
			t.Run(fmt.Sprintf("%s/K=%d", e.Name, k), func(t *testing.T) {
				cfg := sim.Settings{Tasks: 100, Workers: 40, Classes: k, Noise: n, Latent: lat, Seed: 7}
				if la {
					cfg.Tasks, cfg.LabelsPerTask = 200, 7
				}
				d, truth, err := sim.Simulate(cfg)
				if err != nil {
					t.Fatal(err)
				}
				r, err := est.Fit(context.Background(), d, &Settings{MaxIterations: 300})
				if err != nil {
					t.Fatal(err)
				}
				freq := d.Frequencies()
				var fail string
				if la {
					want := Argmax(truth.Target, k, 1)
					acc, mv := agree(r.Labels(1), want), agree(Argmax(freq, k, 1), want)
					t.Logf("accuracy %.3f, majority vote %.3f", acc, mv)
					if acc < 0.8 || acc < mv-0.03 {
						fail = fmt.Sprintf("accuracy %.3f, majority vote %.3f", acc, mv)
					}
				} else {
					got, rfe := halfSq(r.Probs, truth.Q), halfSq(freq, truth.Q)
					t.Logf("MSE %.4f, frequencies %.4f", got, rfe)
					if got > 0.04 || got > 3*rfe {
						fail = fmt.Sprintf("MSE %.4f, frequencies %.4f", got, rfe)
					}
				}
				why, known := recoveryExceptions[e.Name]
				switch {
				case fail != "" && known:
					t.Skipf("%s: a known weakness: %s", fail, why)
				case fail != "":
					t.Error(fail)
				case known:
					t.Errorf("%s now recovers its simulation: remove it from recoveryExceptions", e.Name)
				}
			})
		}
	}
}

// TestRecoveryDiagnoses holds the diagnoses of recoveryExceptions on
// TestRecovery's simulations (the DA simulation of MME: 100 objects, 40
// workers, q_j ~ Dirichlet(1, …, 1), seed 7). da-rmme: the fit is not the
// mirror mode, its q_j are sharper than the truth's (the worker penalty
// pulls the workers toward chance and the q_j make up for it), and without
// the worker penalty the fit meets the bound. hda-mme: the fit is not the
// mirror mode (no other labelling of the classes is closer to the truth),
// its fitted noise parameters are on the boundary (most labels have a
// P(y_i | z) within 1e-6 of 0 or 1: MME's likelihood has its supremum at
// infinity), and empirical Bayes estimates a concentration far above the
// simulation's α = K.
func TestRecoveryDiagnoses(t *testing.T) {
	simulate := func(k int) (*data.Dataset, *sim.Truth) {
		d, truth, err := sim.Simulate(sim.Settings{Tasks: 100, Workers: 40, Classes: k, Noise: noise.MME{}, Latent: latent.DA{}, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		return d, truth
	}
	// sharpness is the mean largest probability of the rows of q.
	sharpness := func(q []float64, k int) float64 {
		var s float64
		for j := 0; j < len(q); j += k {
			s += slices.Max(q[j : j+k])
		}
		return s / float64(len(q)/k)
	}
	// closest reports whether no permutation of the classes of p brings it
	// closer, in MSE, to q.
	closest := func(p, q []float64, k int) bool {
		m := make([]float64, k*k) // -MSE of class z of p against class y of q
		for j := 0; j < len(p); j += k {
			for z := range k {
				for y := range k {
					m[z*k+y] -= (p[j+z] - q[j+y]) * (p[j+z] - q[j+y])
				}
			}
		}
		return isIdentity(bestPermutation(m, k))
	}
	ctx := context.Background()
	set := &Settings{MaxIterations: 300}
	for _, k := range []int{2, 3} {
		d, truth := simulate(k)
		rfe := halfSq(d.Frequencies(), truth.Q)
		r, err := Model{Noise: noise.RegMME{}, Latent: latent.DA{}}.Fit(ctx, d, set)
		if err != nil {
			t.Fatal(err)
		}
		_, beta := noise.RegMME{}.Weights(d)
		nw, err := Model{Noise: noise.RegMME{Alpha: -1, Beta: beta}, Latent: latent.DA{}}.Fit(ctx, d, set)
		if err != nil {
			t.Fatal(err)
		}
		got, free := halfSq(r.Probs, truth.Q), halfSq(nw.Probs, truth.Q)
		t.Logf("da-rmme K=%d: MSE %.4f, largest q_j %.3f (truth %.3f); without the worker penalty (beta %.3g) MSE %.4f; frequencies %.4f",
			k, got, sharpness(r.Probs, k), sharpness(truth.Q, k), beta, free, rfe)
		if !closest(r.Probs, truth.Q, k) || sharpness(r.Probs, k) < sharpness(truth.Q, k)+0.1 || free > 0.04 || free > 3*rfe {
			t.Errorf("da-rmme K=%d: the diagnosis no longer holds", k)
		}
	}
	d, truth := simulate(2)
	est, err := ByName("hda-mme")
	if err != nil {
		t.Fatal(err)
	}
	r, alpha, _, err := est.(interface {
		FitPrior(context.Context, *data.Dataset, *Settings) (*Result, float64, []float64, error)
	}).FitPrior(ctx, d, set)
	if err != nil {
		t.Fatal(err)
	}
	// The share of the labels whose fitted P(y_i | z) is within 1e-6 of 0
	// or 1 for some z: MME's likelihood has its supremum at infinity.
	cp := make([]float64, 2)
	var edge int
	for j := range d.Tasks {
		workers, labels := d.TaskLabels(j)
		for i, w := range workers {
			for z := range 2 {
				r.Conditional(w, j, z, cp)
				if cp[labels[i]] < 1e-6 || cp[labels[i]] > 1-1e-6 {
					edge++
					break
				}
			}
		}
	}
	share := float64(edge) / float64(d.NumLabels())
	t.Logf("hda-mme K=2: MSE %.4f, empirical Bayes alpha %.3g (simulation 2), largest q_j %.3f (truth %.3f); labels with a fitted P(y_i | z) within 1e-6 of 0 or 1: %.3f",
		halfSq(r.Probs, truth.Q), alpha, sharpness(r.Probs, 2), sharpness(truth.Q, 2), share)
	if !closest(r.Probs, truth.Q, 2) || alpha < 10 || share < 0.5 {
		t.Error("hda-mme: the diagnosis no longer holds")
	}
}
