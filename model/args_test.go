package model_test

import (
	"context"
	"errors"
	"testing"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/latent"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/noise"
)

// TestArgumentErrors checks that the functions and methods of package model
// that return an error return one wrapping ErrArgument (or ErrIncomplete
// for an estimator without its parts) on a nil or mismatched argument,
// instead of panicking.
func TestArgumentErrors(t *testing.T) {
	d, err := data.FromIndices([]string{"t1", "t2"}, []string{"a", "b"}, []string{"x", "y"},
		[]int32{0, 0, 1, 1}, []int32{0, 1, 0, 1}, []uint16{0, 0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	ds := model.Model{Noise: noise.DS{}, Latent: latent.LA{}}
	x := ds.Init(d)
	r, err := model.RFE{}.Fit(context.Background(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	good := []float64{0.9, 0.1, 0.2, 0.8}
	for _, c := range []struct {
		name string
		err  error
		want error // nil: no error
	}{
		{"set worker", ds.SetWorker(d, x, 1, good), nil},
		{"set worker/zero model", model.Model{}.SetWorker(d, x, 0, good), model.ErrIncomplete},
		{"set worker/nil data", ds.SetWorker(nil, x, 0, good), model.ErrArgument},
		{"set worker/negative worker", ds.SetWorker(d, x, -1, good), model.ErrArgument},
		{"set worker/worker out of range", ds.SetWorker(d, x, 2, good), model.ErrArgument},
		{"set worker/short parameters", ds.SetWorker(d, x[:3], 0, good), model.ErrArgument},
		{"binary relevance/nil labels", second(model.FitBinaryRelevance(context.Background(), model.RFE{}, nil, nil)), model.ErrArgument},
		{"binary relevance/nil estimator", second(model.FitBinaryRelevance(context.Background(), nil, &model.MultiLabels{}, nil)), model.ErrArgument},
		{"guard/nil data", second(model.Guard{}.Check(context.Background(), ds, nil, nil, r)), model.ErrArgument},
		{"guard/nil fit", second(model.Guard{}.Check(context.Background(), ds, d, nil, nil)), model.ErrArgument},
		{"weighted vote/nil data", model.WeightedVote{}.Check(nil), model.ErrArgument},
		{"check worker args", model.CheckWorkerArgs(d, x, 0, len(x)), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.want == nil && c.err != nil || c.want != nil && !errors.Is(c.err, c.want) {
				t.Errorf("error %v, want %v", c.err, c.want)
			}
		})
	}
}

// second returns the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }
