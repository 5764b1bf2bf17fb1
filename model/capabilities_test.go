package model

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/noise/noisetest"
	"github.com/consensuslab/consensus/sim"
)

// TestRegistryCrossProduct checks that the registry holds the LA, DA and
// hierarchical DA forms of every noise model, with the LA prior the model
// declares, the variational forms of exactly the conjugate ones, and no
// name twice.
func TestRegistryCrossProduct(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Registry() {
		if seen[e.Name] {
			t.Errorf("%s registered twice", e.Name)
		}
		seen[e.Name] = true
		if est := e.New(); est.Name() != e.Name {
			t.Errorf("entry %s builds an estimator named %s", e.Name, est.Name())
		}
	}
	for _, n := range NoiseModels() {
		info := n.Info()
		for _, form := range []string{"la-", "da-", "hda-"} {
			est, err := ByName(form + n.Name())
			if err != nil {
				t.Fatal(err)
			}
			c, ok := est.(Composite)
			if !ok {
				t.Fatalf("%s is not Composite", est.Name())
			}
			if got, _ := c.Parts(); got.Name() != n.Name() {
				t.Errorf("%s: noise model %s", est.Name(), got.Name())
			}
			if _, ok := est.(WorkerStarter); !ok {
				t.Errorf("%s is not a WorkerStarter", est.Name())
			}
		}
		la, _ := ByName("la-" + n.Name())
		_, a := la.(Composite).Parts()
		if got := a.(priorLearner).LearnsPrior(); got != info.LearnPrior {
			t.Errorf("la-%s learns the prior: %v, the noise model declares %v", n.Name(), got, info.LearnPrior)
		}
		_, conj := n.(noise.Conjugate)
		if _, ok := n.(noise.MAPVariational); ok {
			conj = true
		}
		for _, form := range []string{"vb-la-", "vb-da-", "vb-hda-"} {
			if seen[form+n.Name()] != conj {
				t.Errorf("%s%s registered: %v, conjugate: %v", form, n.Name(), seen[form+n.Name()], conj)
			}
		}
	}
}

// TestDeclaredSolver checks that the default solver a noise model declares
// is the one a fit with Method Auto uses, under every assumption.
func TestDeclaredSolver(t *testing.T) {
	d := noisetest.Data(t, 5, 30, 6, 3)
	for _, n := range NoiseModels() {
		for _, form := range []string{"la-", "da-", "hda-"} {
			est, _ := ByName(form + n.Name())
			r, err := est.Fit(context.Background(), d, &Settings{MaxIterations: 3, Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(r.Method, n.Info().Solver) {
				t.Errorf("%s: fitted by %q, declared %q", est.Name(), r.Method, n.Info().Solver)
			}
		}
	}
}

// TestWorkerRoundTrip checks noise.WorkerSetter against WorkerValues for
// every noise model, through WorkerStarter: setting a worker from the
// values of a fit and reading them back gives the same values.
func TestWorkerRoundTrip(t *testing.T) {
	d := noisetest.Data(t, 6, 40, 5, 3)
	for _, n := range NoiseModels() {
		for _, form := range []string{"da-", "hda-"} {
			est, _ := ByName(form + n.Name())
			r, err := est.Fit(context.Background(), d, &Settings{MaxIterations: 20, Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			ws := est.(WorkerStarter)
			if got, want := ws.WorkerColumns(d), r.WorkerColumns(); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("%s: WorkerColumns %v, the fit's %v", est.Name(), got, want)
			}
			x := ws.Init(d)
			for w := range d.Workers {
				if err := ws.SetWorker(d, x, w, r.WorkerValues(w, nil)); err != nil {
					t.Fatalf("%s: worker %d: %v", est.Name(), w, err)
				}
			}
			c, _ := est.(Composite)
			nm, _ := c.Parts()
			m := Model{Noise: nm, Latent: latent.DA{}}
			w, o, _, _ := m.Layout(d).Split(x)
			ev := nm.NewEvaluator(d)
			ev.SetParams(w, o)
			for wk := range d.Workers {
				want := r.WorkerValues(wk, nil)
				got := ev.WorkerValues(wk, nil)
				for i := range want {
					if math.Abs(got[i]-want[i]) > 1e-9*(1+math.Abs(want[i])) {
						t.Errorf("%s: worker %d value %d: set %v, read back %v", est.Name(), wk, i, want[i], got[i])
					}
				}
			}
			if err := ws.SetWorker(d, x, 0, make([]float64, len(r.WorkerColumns())+1)); err == nil {
				t.Errorf("%s: SetWorker accepted a wrong number of values", est.Name())
			}
		}
	}
}

// TestWithGoldKeepsEM checks that a semi-supervised Dawid-Skene fit stays
// with EM (latent.WithGold passes the M-step through), pins the gold tasks
// and reaches the optimum L-BFGS reaches.
func TestWithGoldKeepsEM(t *testing.T) {
	d := noisetest.Data(t, 7, 60, 6, 3)
	class := make([]int, d.NumTasks())
	for j := range class {
		class[j] = -1
		if j%4 == 0 {
			class[j] = j % 3
		}
	}
	for _, name := range []string{"la-ds", "da-ds"} {
		est, _ := ByName(name)
		g := est.(GoldTrainer).WithGold(class)
		em, err := g.Fit(context.Background(), d, &Settings{Threads: 1, MaxIterations: 20000, FunctionTol: 1e-14})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(em.Method, "em") {
			t.Errorf("%s with gold: fitted by %q, want em", name, em.Method)
		}
		for j, c := range class {
			if c >= 0 && em.Dist(j)[c] != 1 {
				t.Errorf("%s: gold task %d not pinned: %v", name, j, em.Dist(j))
			}
		}
		lb, err := g.Fit(context.Background(), d, &Settings{Threads: 1, Method: LBFGS, MaxIterations: 20000})
		if err != nil {
			t.Fatal(err)
		}
		if em.LogLikelihood < lb.LogLikelihood-1e-3*math.Abs(lb.LogLikelihood) {
			t.Errorf("%s with gold: EM log-likelihood %v, L-BFGS %v", name, em.LogLikelihood, lb.LogLikelihood)
		}
	}
}

// twoClassOnly is a noise model that supports two classes only.
type twoClassOnly struct{ noise.OneCoin }

func (twoClassOnly) Info() noise.Info { return noise.Info{Summary: "test", MaxK: 2, Solver: "lbfgs"} }

// TestCheckClasses checks that a noise model can refuse a number of classes
// with an error naming it, in every kind of fit.
func TestCheckClasses(t *testing.T) {
	d := noisetest.Data(t, 8, 10, 3, 3)
	for _, est := range []Estimator{
		Model{Noise: twoClassOnly{}, Latent: latent.DA{}},
		Bayes{Noise: twoClassOnly{}, Latent: latent.LA{}},
	} {
		_, err := est.Fit(context.Background(), d, nil)
		if err == nil || !strings.Contains(err.Error(), "supports 2 to 2 classes, not 3") {
			t.Errorf("%s on 3 classes: %v", est.Name(), err)
		}
	}
	if _, err := (Model{Noise: twoClassOnly{}, Latent: latent.DA{}}).Fit(context.Background(), noisetest.Data(t, 8, 10, 3, 2), nil); err != nil {
		t.Errorf("2 classes: %v", err)
	}
}

// TestModelName checks that a Model's name is a registry name exactly when
// it is the registry's model.
func TestModelName(t *testing.T) {
	for _, c := range []struct {
		m    Model
		want string
	}{
		{Model{Noise: noise.DS{}, Latent: latent.LA{LearnPrior: true}}, "la-ds"},
		{Model{Noise: noise.DS{}, Latent: latent.LA{}}, "la-ds (uniform class prior)"},
		{Model{Noise: noise.GLAD{}, Latent: latent.LA{}}, "la-glad"},
		{Model{Noise: noise.GLAD{}, Latent: latent.LA{LearnPrior: true}}, "la-glad (learned class prior)"},
		{Model{Noise: noise.DS{}, Latent: latent.DA{}}, "da-ds"},
		{Model{Noise: noise.DS{}, Latent: latent.WithGold{Base: latent.LA{}}}, "la-ds (uniform class prior)"},
		{Model{Noise: noise.DS{}, Latent: latent.WithGold{Base: latent.DA{}}}, "da-ds"},
	} {
		if got := c.m.Name(); got != c.want {
			t.Errorf("%+v: name %q, want %q", c.m, got, c.want)
		}
	}
}

// TestRecoveryEveryNoiseModel simulates labels from the LA form of every
// registered noise model (one true class per object, 7 labels each) and
// checks that the model recovers the true classes for at least 80% of the
// objects and no more than 2 points below majority vote. The DA forms'
// recovery of q_j is checked with tolerances per model by TestRecovery and
// TestRecoveryExtra.
func TestRecoveryEveryNoiseModel(t *testing.T) {
	for _, n := range NoiseModels() {
		est, _ := ByName("la-" + n.Name())
		nm, a := est.(Composite).Parts()
		t.Run(est.Name(), func(t *testing.T) {
			cfg := sim.Settings{Tasks: 300, Workers: 40, Classes: 3, LabelsPerTask: 7, Noise: nm, Latent: a, Seed: 11}
			d, tr, err := sim.Simulate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			r, err := est.Fit(context.Background(), d, &Settings{MaxIterations: 500})
			if err != nil {
				t.Fatal(err)
			}
			truth := Argmax(tr.Target, d.NumClasses(), 0)
			acc, mv := agree(r.Labels(0), truth), agree(Argmax(d.Frequencies(), d.NumClasses(), 0), truth)
			if acc < 0.8 || acc < mv-0.02 {
				t.Errorf("accuracy %.3f, majority vote %.3f", acc, mv)
			}
		})
	}
}

// logOnly hides the optional interfaces of a noise model's evaluator, so
// that a fit takes the log-space path.
type logOnly struct{ noise.Model }

func (m logOnly) NewEvaluator(d *data.Dataset) noise.Evaluator {
	return struct{ noise.Evaluator }{m.Model.NewEvaluator(d)}
}

// TestWithGoldProbPath checks that latent.WithGold's probability-space
// path gives the log-space path's log-likelihood and gradient.
func TestWithGoldProbPath(t *testing.T) {
	d := noisetest.Data(t, 9, 80, 6, 3)
	class := make([]int, d.NumTasks())
	for j := range class {
		class[j] = -1
		if j%3 == 1 {
			class[j] = j % 3
		}
	}
	for _, a := range []latent.Assumption{latent.LA{LearnPrior: true}, latent.DA{}} {
		fast := Model{Noise: noise.DS{}, Latent: latent.WithGold{Base: a, Class: class}}
		slow := Model{Noise: logOnly{noise.DS{}}, Latent: fast.Latent}
		x := fast.Init(d)
		gf, gs := make([]float64, len(x)), make([]float64, len(x))
		vf, vs := fast.LogLikelihood(d, x, gf, 1), slow.LogLikelihood(d, x, gs, 1)
		if math.Abs(vf-vs) > 1e-9*math.Abs(vs) {
			t.Errorf("%s: log-likelihood %v by probabilities, %v by logarithms", a.Name(), vf, vs)
		}
		for i := range gf {
			if math.Abs(gf[i]-gs[i]) > 1e-9*(1+math.Abs(gs[i])) {
				t.Errorf("%s: gradient %d: %v by probabilities, %v by logarithms", a.Name(), i, gf[i], gs[i])
				break
			}
		}
	}
}
