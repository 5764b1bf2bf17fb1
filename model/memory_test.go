package model_test

import (
	"math"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/internal/benchdata"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/hda"
	"github.com/consensuslab/consensus/noise"
)

// TestFitMemoryEveryModel checks that every registered estimator has an
// estimate of its own (model.MemoryEstimator), positive and finite, on a
// shipped data set, that a model with parameters is costed at least by its
// J×K output, and that the estimate grows with the data.
func TestFitMemoryEveryModel(t *testing.T) {
	small, _, err := datasets.Load("rte")
	if err != nil {
		t.Fatal(err)
	}
	large, err := benchdata.Get(100_000, 2, noise.DS{}, latent.DA{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range model.Registry() {
		est := e.New()
		if _, ok := est.(model.MemoryEstimator); !ok {
			t.Errorf("%s: no FitMemory of its own", e.Name)
			continue
		}
		a, b := model.FitMemory(est, small, nil), model.FitMemory(est, large, nil)
		if !(a > 0) || math.IsInf(b, 0) || !(b > a) {
			t.Errorf("%s: FitMemory %g bytes on rte, %g on %d labels; want positive, finite and growing", e.Name, a, b, large.NumLabels())
		}
		jk := float64(8 * large.NumTasks() * large.NumClasses())
		if _, ok := est.(model.Parametric); ok && b < jk {
			t.Errorf("%s: FitMemory %g bytes, below the %g of the output alone", e.Name, b, jk)
		}
	}
}

// TestFitMemorySolvers checks that a model's estimate follows its solver:
// EM (the default of Dawid-Skene) below CG below L-BFGS, GLAD by L-BFGS
// by default, and the per-parameter costs by their difference.
func TestFitMemorySolvers(t *testing.T) {
	d, err := benchdata.Get(100_000, 2, noise.DS{}, latent.DA{})
	if err != nil {
		t.Fatal(err)
	}
	ds := model.Model{Noise: noise.DS{}, Latent: latent.DA{}}
	p := float64(ds.NumParams(d))
	mem := func(m model.Model, method model.Method) float64 {
		return model.FitMemory(m, d, &model.Settings{Method: method})
	}
	auto, em, cg, lbfgs := mem(ds, model.Auto), mem(ds, model.EM), mem(ds, model.CG), mem(ds, model.LBFGS)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"auto = em", auto, em},
		{"cg - em", cg - em, 90 * p},
		{"lbfgs - em", lbfgs - em, 330 * p},
		{"ridge: lbfgs", model.FitMemory(ds, d, &model.Settings{Ridge: 1}), lbfgs},
	} {
		if math.Abs(c.got-c.want) > 1e-9*c.want {
			t.Errorf("da-ds %s: %g bytes, want %g", c.name, c.got, c.want)
		}
	}
	glad := model.Model{Noise: noise.GLAD{}, Latent: latent.DA{}}
	if a, l := mem(glad, model.Auto), mem(glad, model.LBFGS); a != l {
		t.Errorf("da-glad: %g bytes by default, %g with L-BFGS; want the same", a, l)
	}
	hda := hda.HDA{Noise: noise.DS{}}
	if h := model.FitMemory(hda, d, nil); !(h > auto) {
		t.Errorf("hda-ds: %g bytes, not above da-ds's %g", h, auto)
	}
}

// parametricOnly is an estimator with parameters and no estimate of its
// own.
type parametricOnly struct{ model.Model }

func (parametricOnly) FitMemory() {} // not MemoryEstimator's method

// TestFitMemoryFallback checks that a Parametric estimator without an
// estimate of its own is costed as an L-BFGS fit of its parameters.
func TestFitMemoryFallback(t *testing.T) {
	d, _, err := datasets.Load("rte")
	if err != nil {
		t.Fatal(err)
	}
	ds := model.Model{Noise: noise.DS{}, Latent: latent.DA{}}
	got := model.FitMemory(parametricOnly{ds}, d, nil)
	if want := model.FitMemory(ds, d, &model.Settings{Method: model.LBFGS}); got != want {
		t.Errorf("FitMemory = %g, want the L-BFGS estimate %g", got, want)
	}
}
