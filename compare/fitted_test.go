package compare

import (
	"context"
	"math"
	"testing"

	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/model"
)

// TestRankFitted checks that ranking fits made elsewhere gives Run's
// ranking, scores, intervals and first-place shares, and that it refuses
// what it cannot rank.
func TestRankFitted(t *testing.T) {
	d, gold, err := datasets.Load("duchenne")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"rfe", "la-ds", "da-ds", "vb-da-ds", "wawa"}
	opt := Settings{Models: names, Gold: gold, Bootstrap: 50, Seed: 3}
	want, err := Run(context.Background(), d, opt)
	if err != nil {
		t.Fatal(err)
	}
	var fits []*model.Result
	for _, n := range names {
		est, err := model.ByName(n)
		if err != nil {
			t.Fatal(err)
		}
		res, err := est.Fit(context.Background(), d, nil) // default threads: the same fit as Run's single-threaded one
		if err != nil {
			t.Fatal(err)
		}
		fits = append(fits, res)
	}
	got, err := RankFitted(d, fits, opt)
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b Interval) bool {
		eq := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
		return eq(a.Value, b.Value) && eq(a.Lo, b.Lo) && eq(a.Hi, b.Hi)
	}
	if len(got.Rows) != len(want.Rows) || got.N != want.N || got.Criterion != want.Criterion {
		t.Fatalf("got %d rows on %d tasks by %s, want %d on %d by %s", len(got.Rows), got.N, got.Criterion, len(want.Rows), want.N, want.Criterion)
	}
	for i, w := range want.Rows {
		g := got.Rows[i]
		if g.Model != w.Model || !same(g.Score, w.Score) || !same(g.Accuracy, w.Accuracy) || !same(g.LogLoss, w.LogLoss) ||
			!same(g.Brier, w.Brier) || !same(g.ECE, w.ECE) || g.First != w.First || g.Converged != w.Converged {
			t.Errorf("row %d: got %+v, want %+v", i, g, w)
		}
	}
	for _, bad := range []Settings{{Gold: nil}, {Gold: gold, Criterion: HeldOut}} {
		if _, err := RankFitted(d, fits, bad); err == nil {
			t.Errorf("options %+v: no error", bad)
		}
	}
}
