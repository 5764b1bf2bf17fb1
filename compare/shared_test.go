package compare_test

import (
	"context"
	"errors"
	"testing"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/sim"
)

// TestSharedErrors checks the check's two sides on simulated crowds: on
// the correlated regime it reports the one pair of workers who share a
// mistake (w0 and w1), and on crowds of independent workers it reports
// none.
func TestSharedErrors(t *testing.T) {
	cases := []struct {
		regime string
		want   []string // the workers of the pairs reported, in order
	}{
		{"correlated", []string{"w0", "w1"}},
		{"sparse", nil},
		{"spammers", nil},
		{"many-classes", nil},
	}
	for _, c := range cases {
		t.Run(c.regime, func(t *testing.T) {
			s, err := sim.Regime(c.regime, 1)
			if err != nil {
				t.Fatal(err)
			}
			d, _, err := sim.Simulate(s)
			if err != nil {
				t.Fatal(err)
			}
			est, err := model.ByName(model.DefaultModel)
			if err != nil {
				t.Fatal(err)
			}
			r, err := est.Fit(context.Background(), d, nil)
			if err != nil {
				t.Fatal(err)
			}
			pairs, err := compare.SharedErrors(r, compare.SharedSettings{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range pairs {
				got = append(got, d.Workers[p.A], d.Workers[p.B])
				t.Logf("%s and %s: agree %.3f on %d, expected %.3f, z %.1f", d.Workers[p.A], d.Workers[p.B], p.Agree, p.Shared, p.Expected, p.Z)
			}
			if len(got) != len(c.want) || len(got) == 2 && (got[0] != c.want[0] || got[1] != c.want[1]) {
				t.Errorf("pairs reported %v, want %v", got, c.want)
			}
		})
	}
	if _, err := compare.SharedErrors(nil, compare.SharedSettings{}); err == nil {
		t.Error("a nil result: no error")
	}
	d, _, err := sim.Simulate(sim.Settings{Tasks: 20, Workers: 4, Classes: 2, LabelsPerTask: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rfe, err := model.RFE{}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compare.SharedErrors(rfe, compare.SharedSettings{}); !errors.Is(err, compare.ErrNoWorkerModel) {
		t.Errorf("rfe: %v, want ErrNoWorkerModel", err)
	}
}
