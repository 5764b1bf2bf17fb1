package report

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
	"github.com/consensuslab/consensus/sim"
)

// TestOneRecommendation checks that the three ways of asking for a model
// name the same one: compare.Auto (consensus fit --model auto), the
// recommendation of compare.Run with and without gold (consensus compare)
// and the report's (consensus report), each with the seed the commands
// use by default, on the shipped data sets and on simulated ones: the
// named regimes of sim.Regimes and two where the worker model is known,
// one of which calls for a model other than the default. It checks two
// shipped sets and the two known ones, and every shipped set and regime
// with CONSENSUS_RECOMMEND_ALL=1 (about 15 minutes on two cores; the
// commands themselves: scripts/one-recommendation.sh).
func TestOneRecommendation(t *testing.T) {
	all, _ := strconv.ParseBool(os.Getenv("CONSENSUS_RECOMMEND_ALL"))
	names := []string{"temp", "rte"}
	if all {
		names = datasets.Names()
	}
	type set struct {
		name string
		d    *data.Dataset
		g    *data.Gold
		want string // "" when any candidate will do
	}
	var sets []set
	for _, n := range names {
		d, g, err := datasets.Load(n)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, set{n, d, g, ""})
	}
	simulated := []struct {
		name string
		cfg  sim.Settings
		want string
	}{
		{"ds workers", sim.Settings{Tasks: 1000, Workers: 30, LabelsPerTask: 5, Classes: 3, Noise: noise.DS{}, Latent: latent.LA{}, Seed: 1}, "vb-ds"},
		{"the paper's DA design, 900 tasks", sim.Settings{Tasks: 900, Seed: 1}, "vb-glad"},
	}
	if all {
		for _, n := range sim.Regimes() {
			cfg, err := sim.Regime(n, 1)
			if err != nil {
				t.Fatal(err)
			}
			simulated = append(simulated, struct {
				name string
				cfg  sim.Settings
				want string
			}{"regime " + n, cfg, ""})
		}
	}
	for _, c := range simulated {
		d, truth, err := sim.Simulate(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		g := truth.Gold()
		if g == nil { // DA: the most probable class of q_j
			g = &data.Gold{}
			for j, z := range model.Argmax(truth.Q, d.NumClasses(), 1) {
				g.Task = append(g.Task, int32(j))
				g.Label = append(g.Label, uint16(z))
			}
		}
		sets = append(sets, set{c.name, d, g, c.want})
	}
	const seed = 1
	ctx := context.Background()
	for _, s := range sets {
		t.Run(s.name, func(t *testing.T) {
			auto, err := compare.Auto(ctx, s.d, compare.AutoSettings{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, g := range []*data.Gold{s.g, nil} {
				rep, err := compare.Run(ctx, s.d, compare.Settings{Models: []string{"rfe"}, Gold: g, Splits: 1, Bootstrap: 1, Seed: seed,
					Recommend: &compare.AutoSettings{Seed: seed}})
				if err != nil {
					t.Fatal(err)
				}
				what := "compare with gold"
				if g == nil {
					what = "compare without gold"
				}
				got[what] = rep.Recommended.Model
				if len(rep.Rows) != 2 || (rep.Rows[0].Model != auto.Model && rep.Rows[1].Model != auto.Model) {
					t.Errorf("%s: the ranking does not show the recommended model: %+v", what, rep.Rows)
				}
			}
			r, err := New(context.Background(), s.d, s.g, &Settings{Models: []string{"rfe"}, Seed: seed, BootstrapReps: -1})
			if err != nil {
				t.Fatal(err)
			}
			got["report"], _ = r.recommended()
			for what, m := range got {
				if m != auto.Model {
					t.Errorf("%s recommends %s, fit --model auto chooses %s", what, m, auto.Model)
				}
			}
			if s.want != "" && auto.Model != s.want {
				t.Errorf("chose %s, want %s", auto.Model, s.want)
			}
			t.Logf("%s: %s", s.name, auto.Model)
		})
	}
}
