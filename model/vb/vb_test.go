package vb_test

import (
	"context"
	"math"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/vb"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// The default model converges on every shipped data set with every
// probability inside (0, 1). Its log loss on the gold tasks is within 10%
// of the best of the paper's six models (the paper's table 3) on every set
// but websearch, where no model reaches the paper's 0.247 on the shipped
// file, and at most that of the add-one smoothed label frequencies (the
// calibrated baseline) on rte, temp, websearch and adult; on duchenne
// (0.8254 against 0.8220) and trec2010 (0.9979 against 0.9645) it is
// above it, which docs/choosing-a-model.md reports, and the test holds it
// within 5% of it.
func TestDefaultModelShippedSets(t *testing.T) {
	if testing.Short() {
		t.Skip("fits six data sets")
	}
	for _, c := range []struct {
		name      string
		paperBest float64 // the paper's best log loss (table 3), 0: not reached
		baseline  float64 // the largest allowed ratio to the add-one frequencies' log loss
	}{
		{"rte", 0.308, 1},
		{"temp", 0.252, 1},
		{"duchenne", 0.753, 1.05},
		{"websearch", 0, 1},
		{"adult", 0.501, 1},
		{"trec2010", 1.116, 1.05},
	} {
		t.Run(c.name, func(t *testing.T) {
			est, err := model.ByName("vb-da-ds")
			if err != nil {
				t.Fatal(err)
			}
			r, gold := fitShipped(t, est, c.name)
			d := r.Data
			k := d.NumClasses()
			ll := must(metrics.LogLoss(r.Probs, k, gold))
			base := must(metrics.LogLoss(metrics.AddOne(d.Counts(), k), k, gold))
			t.Logf("log loss %.4f, add-one frequencies %.4f, paper's best %.3f", ll, base, c.paperBest)
			if !(ll <= c.baseline*base) {
				t.Errorf("log loss %.4f, add-one frequencies %.4f", ll, base)
			}
			if c.paperBest > 0 && !(ll <= 1.1*c.paperBest) {
				t.Errorf("log loss %.4f, paper's best %.3f", ll, c.paperBest)
			}
		})
	}
}

// fitShipped fits est to the shipped data set name and returns the result
// and the set's gold labels, after checking that the fit converged and
// that every output probability is inside (0, 1).
func fitShipped(t *testing.T, est model.Estimator, name string) (*model.Result, *data.Gold) {
	t.Helper()
	d, gold, err := datasets.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := est.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Converged {
		t.Errorf("stopped: %s after %d iterations", r.Status, r.Iterations)
	}
	for _, p := range r.Probs {
		if !(p > 0 && p < 1) {
			t.Fatalf("probability %g outside (0, 1)", p)
		}
	}
	return r, gold
}

// The label-switching case of la-glad: data from DA-DS with 3 classes and
// 5 labels per object, on which maximum-likelihood LA-GLAD converged to the
// mirror mode (accuracy 0.20 against majority vote's 0.63, worker agreement
// 0.14 < 1/K). Model.Fit's guard refits it from the mirrored start; the
// Bayesian forms, whose confusion prior favours the diagonal, stay far from
// it. Every fit must be well above chance with workers better than chance,
// and all but vb-hda-ds within 5 points of majority vote (ML la-ds has
// 0.55, da-ds 0.62 on the same data).
func TestNoMirrorMode(t *testing.T) {
	d, tr, err := sim.Simulate(sim.Settings{Tasks: 1000, Workers: 30, Classes: 3, LabelsPerTask: 5,
		Noise: noise.DS{}, Latent: latent.DA{}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	k := d.NumClasses()
	truth := model.Argmax(tr.Target, k, 1)
	acc := func(p []float64) float64 {
		var n int
		for j, z := range model.Argmax(p, k, 1) {
			if z == truth[j] {
				n++
			}
		}
		return float64(n) / float64(len(truth))
	}
	mv := acc(d.Frequencies())
	// la-glad by maximum likelihood lands in the mirror mode and is
	// refitted from the mirrored start (Model.Fit's guard).
	for _, name := range []string{"la-glad", "vb-la-ds", "vb-da-ds", "vb-hda-ds"} {
		est, _ := model.ByName(name)
		r, err := est.Fit(context.Background(), d, nil)
		if err != nil {
			t.Fatal(err)
		}
		a := acc(r.Probs)
		if a < 1/float64(k)+0.1 || name != "vb-hda-ds" && a < mv-0.05 || r.Agreement() < 1/float64(k) {
			t.Errorf("%s: accuracy %.3f against the truth's argmax, majority vote %.3f", name, a, mv)
		}
	}
}

// With every worker perfect and q_j ~ Dirichlet(a, …, a), the posterior
// mean of q_j is the smoothed label frequencies (c_jz + a)/(n_j + K a):
// add-half with the default Jeffreys prior, add-one with Prior 1, for the
// joint and the staged fit. Checked through a DS whose prior makes every
// confusion matrix almost the identity.
func TestBayesDAPerfectWorkers(t *testing.T) {
	d, _, err := datasets.Load("temp")
	if err != nil {
		t.Fatal(err)
	}
	k := d.NumClasses()
	perfect := noise.DS{PriorDiag: 1e9, PriorOff: 1e-9}
	for _, c := range []struct {
		b vb.Bayes
		a float64
	}{
		{vb.Bayes{Noise: perfect, Latent: latent.DA{}}, vb.JeffreysPrior},
		{vb.Bayes{Noise: perfect, Latent: latent.DA{}, Prior: 1}, 1},
		{vb.Bayes{Noise: perfect, Latent: latent.DA{}, Staged: true}, vb.JeffreysPrior},
		{vb.Bayes{Noise: perfect, Latent: latent.DA{}, Staged: true, Prior: 1}, 1},
	} {
		t.Run(c.b.Name(), func(t *testing.T) {
			r, err := c.b.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			counts := d.Counts()
			for j := range d.Tasks {
				var n float64
				for z := range k {
					n += counts[j*k+z]
				}
				for z := range k {
					want := (counts[j*k+z] + c.a) / (n + float64(k)*c.a)
					if p := r.Probs[j*k+z]; math.Abs(p-want) > 1e-6 {
						t.Fatalf("task %d class %d: %g, smoothed frequency %g", j, z, p, want)
					}
				}
			}
		})
	}
}

// On data simulated from every paper noise model (and one-coin) under DA,
// the default model recovers the q_j with a mean squared error within 10%
// of that of the generating model fitted by maximum likelihood (on 1000
// tasks it is below it for all eight; on these 600 one-coin with K = 4 is
// 5% above); under LA,
// whose truth is one class per task, its accuracy is within noise of the
// generating model's: at most two standard errors of a difference of two
// accuracies, 2·sqrt(2 a (1 − a) / n) with a the mean of the two, below it
// (0.019 at a = 0.97 on 600 tasks).
func TestDefaultRecoversSimulations(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 16 simulations")
	}
	def, _ := model.ByName("vb-da-ds")
	for _, gen := range []string{"la-ds", "da-ds", "la-glad", "da-glad", "la-onecoin", "da-onecoin", "la-mme", "da-mme"} {
		for _, k := range []int{2, 4} {
			est, _ := model.ByName(gen)
			n, a := est.(model.Composite).Parts()
			d, tr, err := sim.Simulate(sim.Settings{Tasks: 600, Workers: 20, Classes: k, LabelsPerTask: 8, Noise: n, Latent: a, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			score := func(e model.Estimator) (mse, acc float64) {
				r, err := e.Fit(context.Background(), d, nil)
				if err != nil {
					t.Fatal(err)
				}
				for i, p := range r.Probs {
					mse += (p - tr.Target[i]) * (p - tr.Target[i])
				}
				truth := model.Argmax(tr.Target, k, 1)
				for j, z := range r.Labels(1) {
					if z == truth[j] {
						acc++
					}
				}
				n := float64(d.NumTasks())
				return mse / n, acc / n
			}
			gm, ga := score(est)
			dm, da := score(def)
			t.Logf("| %s | %d | %.4f / %.4f | %.4f / %.4f |", gen, k, dm, da, gm, ga)
			if a.Name() == "da" && dm > 1.1*gm {
				t.Errorf("%s, K = %d: MSE of q_j %.4f, %s by maximum likelihood %.4f", gen, k, dm, gen, gm)
			}
			pooled := (ga + da) / 2
			if se := math.Sqrt(2 * pooled * (1 - pooled) / float64(d.NumTasks())); a.Name() == "la" && da < ga-2*se {
				t.Errorf("%s, K = %d: accuracy %.4f, %s by maximum likelihood %.4f", gen, k, da, gen, ga)
			}
		}
	}
}

// The parameter half of the variational stopping rule compares every
// output with the previous pass's: with the bound's half switched off
// (FunctionTol 1), a tighter ParamTol must take more passes and end
// closer to the tight fit. Measured within a pass (the object's inner
// loop), the change was always below the inner tolerance and the rule
// stopped every DA fit at its first check.
func TestVBParamTolIsPerPass(t *testing.T) {
	d, _, err := datasets.Load("duchenne")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []vb.Bayes{
		{Noise: noise.DS{}, Latent: latent.DA{}},
		{Noise: noise.DS{}, Latent: latent.DA{}, Hierarchical: true},
		{Noise: noise.DS{}, Latent: latent.LA{}},
	} {
		t.Run(m.Name(), func(t *testing.T) {
			fit := func(tol float64) *model.Result {
				r, err := m.Fit(context.Background(), d, &model.Settings{FunctionTol: 1, ParamTol: tol})
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			loose, mid, tight := fit(1e-2), fit(1e-4), fit(1e-9)
			if !(loose.Iterations < mid.Iterations && mid.Iterations < tight.Iterations) {
				t.Errorf("passes %d, %d, %d for ParamTol 1e-2, 1e-4, 1e-9: want increasing", loose.Iterations, mid.Iterations, tight.Iterations)
			}
			dist := func(r *model.Result) float64 {
				var m float64
				for i, p := range r.Probs {
					m = max(m, math.Abs(p-tight.Probs[i]))
				}
				return m
			}
			if dl, dm := dist(loose), dist(mid); !(dm < dl && dm < 1e-2) {
				t.Errorf("largest distance to the tight fit: %.3g (ParamTol 1e-2), %.3g (1e-4)", dl, dm)
			}
		})
	}
}

// must returns v; it panics, failing the test, if err is not nil.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestGLADRejectedSteps fits vb-glad on duchenne and trec2010, where
// SQUAREM's extrapolated steps run into non-finite bounds and are
// rejected: the pass that follows starts from the last accepted state,
// which it must load again, since the failed pass moved the noise
// posterior, and the fit must end with a finite bound. (On trec2010
// vb-glad stops at the iteration limit.)
func TestGLADRejectedSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("fits two data sets")
	}
	for _, name := range []string{"duchenne", "trec2010"} {
		t.Run(name, func(t *testing.T) {
			est, err := model.ByName("vb-glad")
			if err != nil {
				t.Fatal(err)
			}
			d, _, err := datasets.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			r, err := est.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			if math.IsNaN(r.LogLikelihood) || math.IsInf(r.LogLikelihood, 0) {
				t.Errorf("bound %v after %d passes", r.LogLikelihood, r.Iterations)
			}
		})
	}
}
