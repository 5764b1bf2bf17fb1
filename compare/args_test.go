package compare

import (
	"context"
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// TestBadArguments checks that Run and Auto return an error naming the
// problem, instead of panicking, on a nil data set or a nil estimator.
func TestBadArguments(t *testing.T) {
	d, err := simulate(latent.DA{}, noise.DS{}, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	nilEst := []model.Estimator{model.Model{Noise: noise.DS{}, Latent: latent.LA{}}, nil}
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"run/nil data", func() error { _, err := Run(ctx, nil, Settings{}); return err }, "no data set"},
		{"run/nil estimator", func() error { _, err := Run(ctx, d, Settings{Estimators: nilEst}); return err }, "estimator 1 is nil"},
		{"auto/nil data", func() error { _, err := Auto(ctx, nil, AutoSettings{}); return err }, "no data set"},
		{"auto/nil estimator", func() error { _, err := Auto(ctx, d, AutoSettings{Estimators: nilEst}); return err }, "estimator 1 is nil"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.run(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

// TestArgumentErrors checks that the exported helpers of the held-out
// evaluation (and every Scorer's Score) return an error wrapping ErrArgument, naming the problem,
// instead of panicking on a nil or mismatched argument.
func TestArgumentErrors(t *testing.T) {
	d, err := simulate(latent.DA{}, noise.DS{}, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	train, held, err := Split(d, 0.5, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := model.Model{Noise: noise.DS{}, Latent: latent.LA{}}.Fit(context.Background(), train, nil)
	if err != nil {
		t.Fatal(err)
	}
	other, err := simulate(latent.DA{}, noise.DS{}, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	heldOut := func(r *model.Result, train *data.Dataset, held []HeldLabel) error {
		_, _, err := HeldOutLogLik(r, train, held)
		return err
	}
	bad := func(h HeldLabel) []HeldLabel { return append(slices.Clone(held), h) }
	type argCase struct {
		name string
		err  error
		want string
	}
	cases := []argCase{
		{"split/nil data", third(Split(nil, 0.5, 1, 0)), "nil data set"},
		{"split/fraction", third(Split(d, 1.5, 1, 0)), "held-out fraction 1.5 not in [0, 1]"},
		{"split/NaN fraction", third(Split(d, math.NaN(), 1, 0)), "held-out fraction NaN not in [0, 1]"},
		{"reliability/nil data", second(WorkerReliability(nil)), "nil data set"},
		{"held-out/nil result", heldOut(nil, train, held), "nil result"},
		{"held-out/result without data", heldOut(&model.Result{}, train, held), "result without its data set"},
		{"held-out/nil training set", heldOut(r, nil, held), "nil training set"},
		{"held-out/other data set", heldOut(r, other, nil), "training set of"},
		{"held-out/task", heldOut(r, train, bad(HeldLabel{Task: train.NumTasks()})), "task"},
		{"held-out/negative task", heldOut(r, train, bad(HeldLabel{Task: -1})), "task -1 out of range"},
		{"held-out/worker", heldOut(r, train, bad(HeldLabel{Worker: int32(train.NumWorkers())})), "worker"},
		{"held-out/class", heldOut(r, train, bad(HeldLabel{Label: 2})), "class 2 out of range [0, 2)"},
		{"accuracy/nil data", third(WorkerAccuracy(nil)), "nil data set"},
		{"gold lines/nil result", second(GoldLines(nil, nil, 1)), "nil result"},
		{"write/nil report", Write(io.Discard, nil, "table"), "nil report"},
		{"write choice/nil", WriteChoice(io.Discard, nil), "nil choice"},
	}
	// Every Scorer checks its arguments as HeldOutLogLik does.
	for _, s := range []Scorer{LabelLikelihood{}, OutputLoss{}, OutputLoss{Reliable: true}, OutputChannel{}} {
		score := func(r *model.Result, train *data.Dataset, held []HeldLabel) error {
			_, _, err := s.Score(r, train, held)
			return err
		}
		cases = append(cases,
			argCase{s.Name() + "/nil result", score(nil, train, held), "nil result"},
			argCase{s.Name() + "/nil training set", score(r, nil, held), "nil training set"},
			argCase{s.Name() + "/other data set", score(r, other, nil), "training set of"},
			argCase{s.Name() + "/worker", score(r, train, bad(HeldLabel{Worker: int32(train.NumWorkers())})), "worker"},
			argCase{s.Name() + "/task", score(r, train, bad(HeldLabel{Task: -1})), "task -1 out of range"},
		)
		if _, w, err := s.Score(r, train, held); err != nil || !(w >= 0) {
			t.Errorf("%s: weight %v, error %v on valid arguments", s.Name(), w, err)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !errors.Is(c.err, ErrArgument) || !strings.Contains(c.err.Error(), c.want) {
				t.Errorf("error %v, want one wrapping ErrArgument with %q", c.err, c.want)
			}
		})
	}
	// The valid arguments give no error, and the held-out sums of every
	// object with held-out labels.
	sum, n, err := HeldOutLogLik(r, train, held)
	if err != nil || len(sum) != d.NumTasks() || len(n) != d.NumTasks() {
		t.Fatalf("HeldOutLogLik: %d sums, %d counts, error %v", len(sum), len(n), err)
	}
	// The zero AutoChoice describes itself without panicking.
	if got := (&AutoChoice{}).Basis(); !strings.Contains(got, "among no candidates") {
		t.Errorf("zero AutoChoice's Basis: %q", got)
	}
}

// second returns the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }

// third returns the error of a call that returns two values and an error.
func third[T, U any](_ T, _ U, err error) error { return err }
