package model_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/consensuslab/consensus/model"
)

// TestPriorsApply checks which estimators take which priors: the GLAD
// variance the GLAD compositions, the q_j prior and the staged form the
// vb-da-* models, and neither a value out of range.
func TestPriorsApply(t *testing.T) {
	for _, c := range []struct {
		name         string
		p            model.Priors
		priorVar, qp bool
	}{
		{"la-glad", model.Priors{}, false, false},
		{"la-glad", model.Priors{PriorVar: 2}, true, false},
		{"da-glad", model.Priors{PriorVar: 2, QPrior: 1}, true, false},
		{"la-glad", model.Priors{PriorVar: -1}, false, false},
		{"la-ds", model.Priors{PriorVar: 2}, false, false},
		{"vb-da-ds", model.Priors{QPrior: 1}, false, true},
		{"vb-da-ds", model.Priors{Staged: true}, false, true},
		{"vb-da-ds", model.Priors{QPrior: 2 * model.MaxQPrior}, false, false},
		{"vb-da-ds", model.Priors{QPrior: math.NaN()}, false, false},
		{"vb-la-ds", model.Priors{QPrior: 1}, false, false},
		{"mv", model.Priors{PriorVar: 1, QPrior: 1}, false, false},
	} {
		est, err := model.ByName(c.name)
		if err != nil {
			t.Fatal(err)
		}
		got, pv, qp := c.p.Apply(est)
		if pv != c.priorVar || qp != c.qp {
			t.Errorf("%s with %+v: took variance %v and q_j prior %v, want %v and %v", c.name, c.p, pv, qp, c.priorVar, c.qp)
		}
		if same := reflect.DeepEqual(got, est); same == (pv || qp) {
			t.Errorf("%s with %+v: estimator unchanged %v, want %v", c.name, c.p, same, !(pv || qp))
		}
	}
}
